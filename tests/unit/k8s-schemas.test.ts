/**
 * deploy/k8s as Kubernetes' own tools read it: every kustomization (deploy/k8s, its base and each
 * overlay) rendered by `kubectl kustomize`, and every object it renders validated against
 * Kubernetes' OpenAPI schemas offline (kubernetes-models 4.5.1: its validators are generated from
 * those schemas; they check types, required fields, enums and formats, not unknown field names,
 * which only an API server's strict field validation would). No cluster is reached.
 * deploy-manifests.test.ts checks what the schemas cannot: the command lines, the fleet's sizes.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseAllDocuments } from 'yaml';
import { Deployment } from 'kubernetes-models/apps/v1';
import { Job } from 'kubernetes-models/batch/v1';
import { Namespace, Secret, Service } from 'kubernetes-models/v1';
import { REPO_ROOT } from '../support/hub-process.ts';

const K8S = path.join(REPO_ROOT, 'deploy/k8s');
const OVERLAYS = readdirSync(path.join(K8S, 'overlays')).sort();
const ROOTS = ['deploy/k8s', 'deploy/k8s/base', ...OVERLAYS.map((o) => `deploy/k8s/overlays/${o}`)];

/** The schema of each kind the manifests use (apiVersion/kind). */
const MODELS: Record<string, new (data: never) => { validate(): void }> = {
  'v1/Namespace': Namespace,
  'v1/Secret': Secret,
  'v1/Service': Service,
  'apps/v1/Deployment': Deployment,
  'batch/v1/Job': Job,
};

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Doc = any;

/** The kubectl scripts/setup.sh fetched on a machine that had none, else the PATH's (or $KUBECTL). */
const FETCHED_KUBECTL = path.join(REPO_ROOT, 'node_modules/.cache/kubectl/kubectl');
const KUBECTL = process.env.KUBECTL ?? (existsSync(FETCHED_KUBECTL) ? FETCHED_KUBECTL : 'kubectl');

/** What `kubectl kustomize <root>` renders, as objects; its refusal (a cycle, a missing file) fails the test with kubectl's words. */
function kustomize(root: string): Doc[] {
  const text = execFileSync(KUBECTL, ['kustomize', root], { cwd: REPO_ROOT, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
  return parseAllDocuments(text).map((d) => d.toJS());
}

/** The schema's complaints about `doc`, or null when it validates. */
function schemaProblem(doc: Doc): string | null {
  const Model = MODELS[`${doc.apiVersion}/${doc.kind}`];
  if (!Model) return `no schema here for ${doc.apiVersion} ${doc.kind}`;
  try {
    new Model(doc as never).validate();
    return null;
  } catch (error) {
    return error instanceof Error ? error.message : String(error);
  }
}

describe('deploy/k8s through kubectl kustomize and the Kubernetes schemas', () => {
  it.each(ROOTS)('%s renders, and every object validates against its OpenAPI schema', (root) => {
    const docs = kustomize(root);
    expect(docs.map((d) => d.kind).sort()).toEqual(['Deployment', 'Deployment', 'Deployment', 'Job', 'Job', 'Namespace', 'Secret', 'Service', 'Service', 'Service']);
    for (const doc of docs) expect(schemaProblem(doc), `${doc.kind} ${doc.metadata?.name}`).toBeNull();
    // Everything but the Namespace itself lands in it; the session Secret is generated from session.env.
    for (const doc of docs.filter((d) => d.kind !== 'Namespace')) expect(doc.metadata.namespace, `${doc.kind} ${doc.metadata.name}`).toBe('live-bench');
    expect(docs.find((d) => d.kind === 'Secret').metadata.name).toBe('live-bench-session');
    for (const doc of docs) expect(doc.metadata.labels['app.kubernetes.io/part-of']).toBe('signalr-live-bench');
  });

  it('the schemas catch what a cluster would refuse: a count given as text, a Job without its template', () => {
    const [job] = kustomize('deploy/k8s/base').filter((d) => d.kind === 'Job');
    expect(schemaProblem({ ...job, spec: { ...job.spec, parallelism: '3' } })).toMatch(/parallelism must be integer/);
    expect(schemaProblem({ ...job, spec: { ...job.spec, template: undefined } })).toMatch(/template/);
  });

  it.each(OVERLAYS)('overlays/%s: kubectl renders the fleet the overlay asks for (agents as the lead waits for)', (overlay) => {
    const docs = kustomize(`deploy/k8s/overlays/${overlay}`);
    const agents = docs.find((d) => d.kind === 'Job' && d.metadata.name === 'live-bench-agents');
    const lead = docs.find((d) => d.kind === 'Job' && d.metadata.name === 'live-bench-lead');
    const leadEnv = lead.spec.template.spec.containers[0].env.find((e: Doc) => e.name === 'AGENTS');
    expect(agents.spec.parallelism).toBe(agents.spec.completions);
    expect(Number(leadEnv.value)).toBe(agents.spec.parallelism);
    const base = kustomize('deploy/k8s/base').find((d) => d.kind === 'Job' && d.metadata.name === 'live-bench-agents');
    expect(agents.spec.parallelism).toBeGreaterThan(base.spec.parallelism);
  });
});
