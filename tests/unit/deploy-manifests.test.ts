/**
 * deploy/: the Kubernetes manifests and the Dockerfiles, read as a cluster and a container
 * runtime would read them (YAML parsed with the `yaml` package; the overlays' JSON patches
 * applied), checked for structure, and every command line in them passed through the runner's own
 * argument parsers and the hub-sample's settings, so they cannot drift from the CLI. Nothing here
 * builds an image or applies a manifest: no container runtime or cluster is reachable.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseAllDocuments, parse } from 'yaml';
import { parseAgentArgs } from '../../cli/agent-args.ts';
import { parseCliArgs } from '../../cli/args.ts';
import { chosenCodeProblem, splitLeadArgs } from '../../cli/lead-args.ts';
import { MEASURED_AGENT } from '../../core/sizing/index.ts';
import { REPO_ROOT } from '../support/hub-process.ts';

const K8S = path.join(REPO_ROOT, 'deploy/k8s');
/** The manifests themselves; deploy/k8s applies it as it is, the overlays build on it. */
const BASE = path.join(K8S, 'base');
const read = (file: string) => readFileSync(file, 'utf8');

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Doc = any;

/** The documents of a kustomization: its resources (files, or other kustomizations) with its patches applied. */
function render(dir: string): Doc[] {
  const kustomization = parse(read(path.join(dir, 'kustomization.yaml')));
  const docs: Doc[] = [];
  for (const resource of kustomization.resources as string[]) {
    const at = path.join(dir, resource);
    if (resource.endsWith('.yaml')) docs.push(...parseAllDocuments(read(at)).map((d) => d.toJS()));
    else docs.push(...render(at));
  }
  for (const { target, patch } of (kustomization.patches ?? []) as { target: { kind: string; name: string }; patch: string }[]) {
    const doc = docs.find((d) => d.kind === target.kind && d.metadata.name === target.name);
    expect(doc, `${dir}: a patch targets ${target.kind} ${target.name}, which is not there`).toBeTruthy();
    for (const op of parse(patch) as { op: string; path: string; value: unknown }[]) applyReplace(doc, op);
  }
  return docs;
}

/** A JSON patch `replace` (the only operation the overlays use): the path must exist. */
function applyReplace(doc: Doc, op: { op: string; path: string; value: unknown }): void {
  expect(op.op).toBe('replace');
  const keys = op.path.split('/').slice(1);
  const last = keys.pop()!;
  const parent = keys.reduce((node, key) => node?.[key], doc);
  expect(parent?.[last], `patch path ${op.path} does not exist`).toBeDefined();
  parent[last] = op.value;
}

/** A Kubernetes memory quantity ("512Mi", "1Gi", "2G") in bytes. */
function bytesOf(quantity: string): number {
  const match = /^(\d+(?:\.\d+)?)(Ki|Mi|Gi|Ti|k|M|G|T)?$/.exec(quantity);
  if (!match) throw new Error(`"${quantity}" is not a memory quantity`);
  const unit = { Ki: 2 ** 10, Mi: 2 ** 20, Gi: 2 ** 30, Ti: 2 ** 40, k: 1e3, M: 1e6, G: 1e9, T: 1e12 }[match[2] ?? ''] ?? 1;
  return Number(match[1]) * unit;
}

const containersOf = (doc: Doc): Doc[] => doc.spec?.template?.spec?.containers ?? [];
const job = (docs: Doc[], name: string) => docs.find((d) => d.kind === 'Job' && d.metadata.name === name);

/** A fresh valid code, standing in for the one an operator writes into session.env. */
const TEST_SESSION = 'K7QW2MZP9RTXAB3D';

/** The container's args with Kubernetes' $(VAR) expanded from its env (values, the session Secret, the completion index). */
function expandedArgs(container: Doc): string[] {
  const env = new Map<string, string>();
  for (const { name, value, valueFrom } of container.env ?? []) {
    if (value !== undefined) env.set(name, String(value));
    else if (valueFrom?.secretKeyRef?.name === 'live-bench-session') env.set(name, TEST_SESSION);
    else if (valueFrom?.fieldRef?.fieldPath === "metadata.annotations['batch.kubernetes.io/job-completion-index']") env.set(name, '0');
  }
  return (container.args as unknown[]).map((arg) => String(arg).replace(/\$\(([A-Z_]+)\)/g, (whole, name: string) => {
    expect(env.has(name), `${container.name}: $(${name}) has no env entry`).toBe(true);
    return env.get(name)!;
  }));
}

/** The hub-sample's settings, by name as its command line takes them (case-insensitive, as .NET reads them). */
const HUB_SETTINGS = new Set([...read(path.join(REPO_ROOT, 'hub-sample/HubSettings.cs')).matchAll(/public \S+ (\w+) \{ get; set; \}/g)].map((m) => m[1]!.toLowerCase()));
/** Settings the manifests use that another change adds: --Redis (the Redis backplane, issue 31). */

/** Problems with a hub-sample command line: every --Name is a setting and has a value. */
function hubArgProblems(args: string[]): string[] {
  const problems: string[] = [];
  for (let i = 0; i < args.length; i += 2) {
    const name = args[i]!;
    if (!name.startsWith('--')) problems.push(`"${name}" is not a setting`);
    else if (!HUB_SETTINGS.has(name.slice(2).toLowerCase())) problems.push(`${name} is not in HubSettings.cs`);
    if (args[i + 1] === undefined || args[i + 1]!.startsWith('--')) problems.push(`${name} has no value`);
  }
  return problems;
}

/** The runner's command line as cli/main.ts dispatches it: agent, lead, or a single run. */
function runnerArgProblems(args: string[]): string[] {
  if (args.includes('--agent')) {
    const parsed = parseAgentArgs(args);
    return parsed.ok === false ? parsed.errors : [];
  }
  const split = splitLeadArgs(args);
  if (!split.ok) return split.errors;
  const parsed = parseCliArgs(split.rest);
  return parsed.ok === false ? parsed.errors : [];
}

function checkCluster(docs: Doc[]): void {
  const kinds = docs.map((d) => d.kind).sort();
  expect(kinds).toEqual(['Deployment', 'Deployment', 'Deployment', 'Job', 'Job', 'Namespace', 'Service', 'Service', 'Service']);
  // Deployments select their own pods; each Service selects a Deployment's pods and names its port.
  const deployments = docs.filter((d) => d.kind === 'Deployment');
  for (const d of deployments) expect(d.spec.template.metadata.labels).toMatchObject(d.spec.selector.matchLabels);
  for (const service of docs.filter((d) => d.kind === 'Service')) {
    const target = deployments.find((d) => Object.entries(service.spec.selector).every(([k, v]) => d.spec.template.metadata.labels[k] === v));
    expect(target, `Service ${service.metadata.name} selects no Deployment`).toBeTruthy();
    const portNames = containersOf(target).flatMap((c: Doc) => c.ports.map((p: Doc) => p.name));
    for (const port of service.spec.ports) expect(portNames).toContain(port.targetPort);
    expect(service.metadata.name).toBe(target.metadata.name);
  }
  // Every container asks for CPU and memory, and runs one of the two images built from deploy/ (or Redis).
  for (const doc of docs) {
    for (const c of containersOf(doc)) {
      expect(c.resources?.requests?.cpu, `${doc.metadata.name}: no CPU request`).toBeTruthy();
      expect(c.resources?.requests?.memory, `${doc.metadata.name}: no memory request`).toBeTruthy();
      expect(['live-bench', 'hub-sample', 'redis:7.0']).toContain(c.image);
    }
  }
  // The agents: an indexed Job with one pod per agent, as many as the lead waits for.
  const agents = job(docs, 'live-bench-agents');
  const lead = job(docs, 'live-bench-lead');
  expect(agents.spec.completionMode).toBe('Indexed');
  expect(agents.spec.parallelism).toBe(agents.spec.completions);
  expect(lead.spec.completions).toBe(1);
  for (const j of [agents, lead]) expect(j.spec.template.spec.restartPolicy).toBe('Never');
  const leadArgs = expandedArgs(containersOf(lead)[0]);
  const split = splitLeadArgs(leadArgs);
  if (!split.ok || !split.lead) throw new Error(`the lead's command line is refused: ${split.ok ? 'no --lead' : split.errors.join(' ')}`);
  expect(split.lead.agents).toBe(agents.spec.parallelism);
  // Lead and agents meet on the same control hub, which a Service in these manifests serves.
  const agentArgs = expandedArgs(containersOf(agents)[0]);
  const agentParsed = parseAgentArgs(agentArgs);
  if (agentParsed.ok !== true) throw new Error('the agent command line is refused');
  expect(agentParsed.options.controlUrl).toBe(split.lead.controlUrl);
  expect(agentParsed.options.once).toBe(true);
  const controlHost = new URL(agentParsed.options.controlUrl).hostname;
  expect(docs.some((d) => d.kind === 'Service' && d.metadata.name === controlHost)).toBe(true);
  // The lead's load fits the agents by the measured per-agent figure (docs/sizing.md).
  const run = parseCliArgs(split.rest);
  if (run.ok !== true) throw new Error(`the run is refused: ${run.ok === false ? run.errors.join(' ') : 'help'}`);
  expect(run.options.config.connections / split.lead.agents).toBeLessThanOrEqual(MEASURED_AGENT.connectionsPerAgent);
  // Each agent's memory request holds its share at the measured memory per connection.
  const share = Math.ceil(run.options.config.connections / split.lead.agents);
  expect(bytesOf(containersOf(agents)[0].resources.requests.memory)).toBeGreaterThanOrEqual(share * MEASURED_AGENT.memoryPerConnectionKB * 1_000);
  expect(docs.some((d) => d.kind === 'Service' && d.metadata.name === new URL(run.options.config.endpointUrl).hostname)).toBe(true);
  // Every command line is accepted by the parser that will read it.
  for (const doc of docs) {
    for (const c of containersOf(doc)) {
      if (c.image === 'live-bench') expect(runnerArgProblems(expandedArgs(c)), `${doc.metadata.name}`).toEqual([]);
      if (c.image === 'hub-sample') expect(hubArgProblems(expandedArgs(c)), `${doc.metadata.name}`).toEqual([]);
    }
  }
}

describe('deploy/k8s', () => {
  it('the base lists every manifest beside it, and they make one fleet run', () => {
    const files = readdirSync(BASE).filter((f) => f.endsWith('.yaml') && f !== 'kustomization.yaml').sort();
    const kustomization = parse(read(path.join(BASE, 'kustomization.yaml')));
    expect([...kustomization.resources].sort()).toEqual(files);
    expect(kustomization.images.map((i: Doc) => i.name).sort()).toEqual(['hub-sample', 'live-bench']);
    checkCluster(render(BASE));
  });

  it('deploy/k8s applies the base as it is; every overlay builds on the base beside it, not on a folder that holds the overlay', () => {
    expect(parse(read(path.join(K8S, 'kustomization.yaml'))).resources).toEqual(['base']);
    expect(render(K8S)).toEqual(render(BASE));
    for (const overlay of readdirSync(path.join(K8S, 'overlays'))) {
      const dir = path.join(K8S, 'overlays', overlay);
      for (const resource of parse(read(path.join(dir, 'kustomization.yaml'))).resources as string[]) {
        const root = path.resolve(dir, resource);
        // kustomize refuses a root that contains an overlay it came from (a cycle).
        expect(path.relative(root, dir).startsWith('..'), `${overlay} builds on ${resource}, which holds it`).toBe(true);
        expect(root).toBe(BASE);
      }
    }
  });

  it('the hub under test runs on Redis behind its Service; the control hub is one replica of its own', () => {
    const docs = render(BASE);
    const hub = docs.find((d) => d.kind === 'Deployment' && d.metadata.name === 'hub-sample');
    const args = expandedArgs(containersOf(hub)[0]);
    expect(args.slice(args.indexOf('--Redis'), args.indexOf('--Redis') + 2)).toEqual(['--Redis', 'redis:6379']);
    expect(docs.some((d) => d.kind === 'Service' && d.metadata.name === 'redis' && d.spec.ports[0].port === 6379)).toBe(true);
    expect(docs.find((d) => d.kind === 'Service' && d.metadata.name === 'hub-sample').spec.sessionAffinity).toBe('ClientIP');
    expect(docs.find((d) => d.kind === 'Deployment' && d.metadata.name === 'hub-control').spec.replicas).toBe(1);
  });

  it('every overlay, rendered, is still one consistent fleet run', () => {
    const overlays = readdirSync(path.join(K8S, 'overlays'));
    expect(overlays.length).toBeGreaterThan(0);
    for (const overlay of overlays) {
      const docs = render(path.join(K8S, 'overlays', overlay));
      checkCluster(docs);
      // The patch of the lead's load lands on --connections' value.
      const leadArgs = expandedArgs(containersOf(job(docs, 'live-bench-lead'))[0]);
      expect(leadArgs[leadArgs.findIndex((a) => a === '--connections') + 1]).not.toBe(expandedArgs(containersOf(job(render(BASE), 'live-bench-lead'))[0])[16]);
      // It changes the fleet's size: more agents than the base.
      expect(job(docs, 'live-bench-agents').spec.parallelism).toBeGreaterThan(job(render(BASE), 'live-bench-agents').spec.parallelism);
    }
  });

  it('the session code in the repository is a placeholder the lead refuses: a fresh one must be written before applying', () => {
    const env = read(path.join(BASE, 'session.env'));
    const code = /^LIVE_BENCH_SESSION=(.*)$/m.exec(env)?.[1] ?? '';
    expect(chosenCodeProblem(code)).toMatch(/chosen at random|choose it at random/);
    expect(chosenCodeProblem(TEST_SESSION)).toBeNull();
  });
});

describe('deploy/*.Dockerfile', () => {
  /** The JSON array of an instruction (ENTRYPOINT, CMD) of the final stage. */
  const instruction = (file: string, name: string): string[] => {
    const lines = read(path.join(REPO_ROOT, 'deploy', file)).split('\n').filter((l) => l.startsWith(`${name} `));
    return JSON.parse(lines.at(-1)!.slice(name.length + 1)) as string[];
  };

  it('the runner\'s image runs bin/live-bench.js; its default command is accepted', () => {
    expect(instruction('runner.Dockerfile', 'ENTRYPOINT')).toEqual(['node', 'bin/live-bench.js']);
    expect(parseCliArgs(instruction('runner.Dockerfile', 'CMD'))).toEqual({ ok: 'help' });
    const text = read(path.join(REPO_ROOT, 'deploy/runner.Dockerfile'));
    expect(text).toMatch(/^FROM node:20\S* AS build$/m);
    expect(text).toMatch(/RUN npm ci/);
    expect(text).toMatch(/-t live-bench:0\.1\.0/);
  });

  it('the hub-sample\'s image is Microsoft\'s ASP.NET Core runtime, built with the SDK; its settings are HubSettings\'', () => {
    const text = read(path.join(REPO_ROOT, 'deploy/hub-sample.Dockerfile'));
    expect(text).toMatch(/^FROM mcr\.microsoft\.com\/dotnet\/sdk:10\.0 AS build$/m);
    expect(text).toMatch(/^FROM mcr\.microsoft\.com\/dotnet\/aspnet:10\.0$/m);
    expect(instruction('hub-sample.Dockerfile', 'ENTRYPOINT')).toEqual(['dotnet', 'HubSample.dll']);
    expect(hubArgProblems(instruction('hub-sample.Dockerfile', 'CMD'))).toEqual([]);
    expect(text).toMatch(/-t hub-sample:0\.1\.0/);
  });

  it('the images\' tags are the ones the kustomization pulls', () => {
    const kustomization = parse(read(path.join(BASE, 'kustomization.yaml')));
    for (const image of kustomization.images) expect(read(path.join(REPO_ROOT, `deploy/${image.name === 'live-bench' ? 'runner' : 'hub-sample'}.Dockerfile`))).toContain(`-t ${image.name}:${image.newTag}`);
  });
});
