/**
 * Each cause of the diagnosis produced by a real fault, never by shaped evidence: a closed port,
 * a proxy's refusals (tests/support/fault-proxy.ts), nginx without upgrade headers or without
 * stickiness (tests/support/nginx-process.ts), a hub killed (SIGKILL) or frozen (SIGSTOP)
 * mid-run, a hub without the methods, a profile whose receive method the hub never calls, and a
 * capacity search that meets a closed port or a killed hub. Each run is read twice, from what the
 * runner printed and from its --json document: the same cause, side and sentence, and its exit
 * code. Two hub-samples serve every case that leaves its hub alive; a case that kills or freezes
 * one starts its own. The cases run concurrently: each has its own ports, proxy and files.
 */
import type { ChildProcess } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseCapacityResult } from '../../core/capacity/capacity-result.ts';
import type { RunResult } from '../../core/result/result.ts';
import { startFaultProxy, type FaultProxyMode } from '../support/fault-proxy.ts';
import { startHub, type RunningHub } from '../support/hub-process.ts';
import { liveBench, onceSending, resultOf, type CliRun } from '../support/live-bench.ts';
import { startNginx, type NginxMode } from '../support/nginx-process.ts';
import { freePort, startRedis } from '../support/redis-process.ts';

/** How the runner names each side on its "Why" line: written out here, not taken from core. */
const SIDE_LABEL = { service: 'the service', client: 'the client', setup: 'the set-up', unknown: 'unknown' } as const;

interface Expected {
  cause: string;
  side: keyof typeof SIDE_LABEL;
  /** The runner's exit code: 3 nothing about load was measured (a set-up cause that ended the
   *  run), 1 the run did not pass. */
  exit: number;
  /** What the sentence must say: the status, the count, the hub's own words. */
  says: RegExp;
}

/** Short runs: 10 connections, one send a second each, for 4 s, in the runner's own thread. */
const SHORT = ['--connections', '10', '--duration', '4', '--workers', '1', '--quiet'];

let dir: string;
const hubs: RunningHub[] = [];

beforeAll(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'live-bench-diagnosis-'));
});
afterAll(async () => {
  // Thawed first: a frozen process does not act on SIGTERM.
  for (const hub of hubs) hub.process.kill('SIGCONT');
  await Promise.all(hubs.map((hub) => hub.stop()));
  await rm(dir, { recursive: true, force: true });
});

/** Starts a hub-sample that afterAll thaws and stops, whatever the case did to it. */
async function ownHub(extraArgs: string[] = []): Promise<RunningHub> {
  const hub = await startHub({ extraArgs });
  hubs.push(hub);
  return hub;
}

/** Runs the runner with `--json` into a fresh file and reads the document back. */
async function bench(name: string, args: string[], during?: (child: ChildProcess) => void): Promise<{ run: CliRun; result: RunResult }> {
  const jsonPath = path.join(dir, `${name}.json`);
  const run = await liveBench([...args, '--json', jsonPath], during);
  return { run, result: await resultOf(run, jsonPath) };
}

/** What the run recorded, for a failure's message: what the diagnosis was named from. */
function evidenceOf({ run, result }: { run: CliRun; result: RunResult }): string {
  const { errorSamples, connectCauses, outcome, diagnosis } = result;
  return `exit ${run.code}\n${run.stderr}\n${JSON.stringify({ errorSamples, connectCauses, outcome, diagnosis }, null, 2)}`;
}

/** The document's diagnosis is the expected one, and the runner printed that same diagnosis under its side. */
function expectDiagnosis(ran: { run: CliRun; result: RunResult }, expected: Expected) {
  const { run, result } = ran;
  const evidence = evidenceOf(ran);
  expect(result.diagnosis, evidence).toBeDefined();
  const diagnosis = result.diagnosis!;
  expect({ cause: diagnosis.cause, side: diagnosis.side }, evidence).toEqual({ cause: expected.cause, side: expected.side });
  expect(diagnosis.sentence, evidence).toMatch(expected.says);
  expect(run.stdout, evidence).toContain(`\nWhy (${SIDE_LABEL[expected.side]}): ${diagnosis.sentence}\nWhat to do: ${diagnosis.advice}\nEvidence: ${diagnosis.evidence[0]}`);
  expect(run.code, evidence).toBe(expected.exit);
}

/** Runs through a fault proxy in `mode` in front of `hubUrl`; the proxy is stopped afterwards. */
async function throughProxy(hubUrl: string, mode: FaultProxyMode, name: string, args: string[]) {
  const proxy = await startFaultProxy(hubUrl, mode);
  try {
    const ran = await bench(name, ['--endpoint', `${proxy.url}/signalrbench`, ...args]);
    return { ...ran, counts: proxy.counts() };
  } finally {
    await proxy.stop();
  }
}

/** Runs through a throw-away nginx in `mode`; nginx is stopped afterwards. */
async function throughNginx(mode: NginxMode, upstreams: string[], name: string, args: string[]) {
  const nginx = await startNginx({ mode, upstreams });
  try {
    return await bench(name, ['--endpoint', `${nginx.url}/signalrbench`, ...args]);
  } finally {
    await nginx.stop();
  }
}

/** Runs against a hub of its own and sends it `signal` 1.5 s into the sends; asserts the sends
 *  began. Without --quiet: the per-second progress says when the sends begin. */
async function signalledMidRun(signal: NodeJS.Signals, name: string, args: (hub: RunningHub) => string[]) {
  const hub = await ownHub();
  let sending = () => false;
  const ran = await bench(name, ['--endpoint', `${hub.httpUrl}/signalrbench`, ...args(hub).filter((a) => a !== '--quiet')], (child) => {
    sending = onceSending(child, 1_500, () => hub.process.kill(signal));
  });
  hub.process.kill('SIGCONT');
  expect(sending(), ran.run.stderr).toBe(true);
  return ran;
}

/** The hub's count of Echo invocations, from its Prometheus metrics. */
async function echoesOf(hub: RunningHub): Promise<number> {
  const text = await (await fetch(`${hub.httpUrl}/metrics`)).text();
  return Number(/^hubsample_hub_invocations_total\{[^}]*method="Echo"[^}]*\} (\d+)/m.exec(text)?.[1] ?? Number.NaN);
}

describe.concurrent('a real fault, named by the diagnosis', () => {
  /** With the test hubs: /emptyhub (no methods) and /chathub (the chat tutorial's hub). */
  let testHub: RunningHub;
  /** A second instance behind the load balancer without stickiness. */
  let otherHub: RunningHub;

  beforeAll(async () => {
    [testHub, otherHub] = await Promise.all([ownHub(['--EnableTestHubs', 'true']), ownHub()]);
  });

  it('a closed port: unreachable, the set-up, exit 3', async () => {
    const port = await freePort();
    const ran = await bench('closed', ['--endpoint', `http://127.0.0.1:${port}/signalrbench`, ...SHORT]);
    expectDiagnosis(ran, { cause: 'unreachable', side: 'setup', exit: 3, says: new RegExp(`^Nothing accepted the connection at http://127\\.0\\.0\\.1:${port}/signalrbench \\(connection refused\\)`) });
  });

  it('a proxy answering 401 to every WebSocket upgrade, negotiation skipped, a token given: authRefused, the set-up, exit 3', async () => {
    const ran = await throughProxy(testHub.httpUrl, { upgrade: { status: 401 } }, 'auth', [...SHORT, '--skip-negotiation', '--access-token', 'x']);
    expect(ran.counts.refusedUpgrades).toBe(10);
    expectDiagnosis(ran, { cause: 'authRefused', side: 'setup', exit: 3, says: /refused the access token with HTTP 401 on the WebSocket upgrade \(10 connects\)/ });
  });

  it('431 at negotiate: headersTooLarge, the set-up, exit 3', async () => {
    const ran = await throughProxy(testHub.httpUrl, { negotiate: { status: 431 } }, 'headers', SHORT);
    expect(ran.counts.refusedNegotiates).toBe(10);
    expectDiagnosis(ran, { cause: 'headersTooLarge', side: 'setup', exit: 3, says: /HTTP 431 on the negotiate request, 10 connects/ });
  });

  it('503 on every 2nd WebSocket upgrade of 20: serviceRefused, the service, exit 1', async () => {
    const ran = await throughProxy(testHub.httpUrl, { upgrade: { status: 503, every: 2 } }, 'refused', [...SHORT, '--connections', '20']);
    expect(ran.counts.refusedUpgrades).toBe(10);
    expectDiagnosis(ran, { cause: 'serviceRefused', side: 'service', exit: 1, says: /refused 10 connects of 20 with HTTP 503 on the WebSocket upgrade/ });
  });

  it('nginx without upgrade headers, WebSockets: proxyNoUpgrade, the set-up, exit 3', async () => {
    const ran = await throughNginx('without-upgrade', [testHub.httpUrl], 'no-upgrade', SHORT);
    expectDiagnosis(ran, { cause: 'proxyNoUpgrade', side: 'setup', exit: 3, says: /^Negotiate succeeded, then the WebSocket upgrade failed with HTTP \d{3} \(10 connects\)/ });
  });

  for (const transport of ['WebSockets', 'LongPolling']) {
    it(`nginx round-robin over two hubs without stickiness, ${transport}: noStickySessions, the set-up`, async () => {
      // 20 connects, so that some negotiate on one hub and connect on the other in any interleaving.
      const ran = await throughNginx('round-robin', [testHub.httpUrl, otherHub.httpUrl], `round-robin-${transport}`, [...SHORT, '--connections', '20', '--transport', transport]);
      // The connects that reached the hub they negotiated with ran: exit 1; none did: the run failed, exit 3.
      expectDiagnosis(ran, { cause: 'noStickySessions', side: 'setup', exit: ran.result.outcome.kind === 'failed' ? 3 : 1, says: transport === 'WebSockets'
        // Over WebSockets only the upgrade's 404 is recorded: said as a status, never as words the hub did not send.
        ? /negotiated with one instance and connected to another \(\d+ connects\): the WebSocket upgrade was answered 404 after negotiate succeeded/
        : /negotiated with one instance and connected to another \(\d+ connects\): the hub answered "No Connection with that ID"/ });
    });
  }

  for (const reconnect of [false, true]) {
    it(`a hub killed mid-run, Reconnect ${reconnect ? 'on' : 'off'}: hubCrashed, the service, exit 1`, async () => {
      const ran = await signalledMidRun('SIGKILL', `killed-${reconnect}`, () => [...SHORT, '--duration', '6', ...(reconnect ? ['--reconnect'] : [])]);
      expectDiagnosis(ran, { cause: 'hubCrashed', side: 'service', exit: 1, says: /went away mid-run: 10 connections closed abruptly and none came back/ });
    });
  }

  for (const metrics of [true, false]) {
    it(`a hub frozen mid-run, ${metrics ? 'its metrics read' : 'no metrics'}: hubStalled, the service, exit 1`, async () => {
      const ran = await signalledMidRun('SIGSTOP', `frozen-${metrics}`, (hub) => [...SHORT, '--duration', '8', '--drain-s', '3', ...(metrics ? ['--server-metrics', `${hub.httpUrl}/metrics`] : [])]);
      expectDiagnosis(ran, {
        cause: 'hubStalled', side: 'service', exit: 1,
        says: metrics ? /stopped answering mid-run .*: .*its metrics stopped answering/ : /stopped answering mid-run \(.*last \d+ seconds of sending.*\): its connections stayed open and nothing came back/,
      });
    });
  }

  it('two hubs on one Redis, Redis killed mid-run (connections stay open, cross-instance messages lost): backplaneDown, the service, from their /healthz', async () => {
    const redis = await startRedis();
    try {
      const pair = await Promise.all(['a', 'b'].map((name) => ownHub(['--Redis', redis.configuration, '--InstanceName', `bp-${name}`])));
      let sending = () => false;
      const ran = await bench('backplane', ['--endpoint', `${pair[0]!.httpUrl}/signalrbench`, '--endpoint', `${pair[1]!.httpUrl}/signalrbench`, '--scenario', 'broadcast', '--connections', '10', '--duration', '6', '--workers', '1'], (child) => {
        sending = onceSending(child, 1_500, () => redis.process.kill('SIGKILL'));
      });
      expect(sending(), ran.run.stderr).toBe(true);
      expectDiagnosis(ran, { cause: 'backplaneDown', side: 'service', exit: 1, says: /backplane unavailable: Redis at 127\.0\.0\.1:\d+ does not answer/ });
      // The hubs' own word, read after the run: kept with the run as evidence.
      expect(ran.result.health?.map((h) => h.status)).toEqual([503, 503]);
    } finally {
      await redis.stop();
    }
  });

  it('a hub without the methods: hubMethodRefused, the set-up, exit 3', async () => {
    const ran = await bench('empty', ['--endpoint', `${testHub.httpUrl}/emptyhub`, ...SHORT]);
    expectDiagnosis(ran, { cause: 'hubMethodRefused', side: 'setup', exit: 3, says: /^The hub refused the method Echo: "Method does not exist"/ });
  });

  it('a profile whose receive method the hub never calls: profileMismatch, the set-up, exit 3', async () => {
    const profile = path.join(dir, 'chat-wrong-receive.json');
    await writeFile(profile, JSON.stringify({
      name: 'chat: SendMessage to all, received on a method the hub never calls',
      send: { method: 'SendMessage', args: ['bench-{connection}', '{message}'] },
      receive: { method: 'MessageReceived', arg: 1 },
      deliver: 'all',
    }));
    const ran = await bench('profile', ['--endpoint', `${testHub.httpUrl}/chathub`, '--hub-profile', profile, ...SHORT]);
    expectDiagnosis(ran, { cause: 'profileMismatch', side: 'setup', exit: 3, says: /^The hub never called MessageReceived: \d+ messages were sent and none came back on it/ });
  });
});

describe.concurrent('a capacity search that meets a fault', () => {
  const STEPS = ['--find-capacity', '--connections', '10', '--ramp', 'rate', '--start', '10', '--step', '10', '--max', '40', '--step-duration', '3', '--settle', '1', '--workers', '1', '--quiet'];

  it('at a closed port: a fault, unreachable, exit 3', async () => {
    const jsonPath = path.join(dir, 'capacity-closed.json');
    const run = await liveBench([...STEPS, '--endpoint', `http://127.0.0.1:${await freePort()}/signalrbench`, '--json', jsonPath]);
    const result = parseCapacityResult(await readFile(jsonPath, 'utf8'));
    expect(result.finding, run.stderr).toMatchObject({ kind: 'fault', cause: 'unreachable', limitedBy: 'setup', heldStep: null, brokeStep: 1 });
    expect(run.stdout.split('\n')[0]).toMatch(/^No capacity: the search stopped at step 1 .*Nothing accepted the connection/);
    expect(run.code).toBe(3);
  });

  it('a hub killed during step 2: a fault, never a capacity, exit 1', async () => {
    const hub = await ownHub();
    const jsonPath = path.join(dir, 'capacity-killed.json');
    const run = await liveBench([...STEPS, '--endpoint', `${hub.httpUrl}/signalrbench`, '--json', jsonPath], (child) => {
      let seen = false;
      child.stderr!.on('data', (chunk: Buffer) => {
        if (seen || !/^step 1 /m.test(String(chunk))) return;
        seen = true;
        // Killed once step 2's sends are answered: 10 echoes beyond step 1's.
        void (async () => {
          const before = await echoesOf(hub);
          while (child.exitCode === null && (await echoesOf(hub)) < before + 10) await new Promise((resolve) => setTimeout(resolve, 100));
        })().finally(() => hub.process.kill('SIGKILL'));
      });
    });
    const result = parseCapacityResult(await readFile(jsonPath, 'utf8'));
    expect(result.steps[0]!.judgement.passed, run.stderr).toBe(true);
    expect(result.finding, run.stderr).toMatchObject({ kind: 'fault', cause: 'hubCrashed', limitedBy: 'service', heldStep: 1, brokeStep: 2 });
    expect(result.steps).toHaveLength(2);
    expect(run.stdout.split('\n')[0]).toMatch(/^No capacity: the search stopped at step 2 .*went away mid-run/);
    expect(run.stdout).not.toMatch(/^Held/m);
    expect(run.code).toBe(1);
  });
});
