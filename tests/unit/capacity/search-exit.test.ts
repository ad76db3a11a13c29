/** The runner's exit code of a capacity search, and the line a waiting step prints. */
import { describe, expect, it } from 'vitest';
import { searchExitCode, waitLine } from '../../../cli/capacity.ts';
import { CapacitySearch, type StepRunner } from '../../../core/capacity/capacity-search.ts';
import { plannedSendRate, type CapacitySettings } from '../../../core/capacity/settings.ts';
import { FakeTime } from '../../support/fake-time.ts';
import { testConfig } from '../../support/finished-run.ts';
import { stepRun } from '../../support/step-run.ts';

const base = testConfig({ connections: 100, workers: 1, sendIntervalMs: 1_000, durationSec: 4 });
const settings: CapacitySettings = { ramp: 'rate', start: 200, step: 200, max: 1_000, stepSec: 4, settleSec: 1, bisectSteps: 0 };

async function search(runner: StepRunner) {
  const time = new FakeTime();
  const done = new CapacitySearch(base, settings, runner, { client: { name: 'test', connectionCap: null }, clock: time, timers: time }).run();
  for (let i = 0; i < 20; i++) await time.advanceByMs(1_000);
  return done;
}

function exitOf(result: Awaited<ReturnType<typeof search>>): { code: number; said: string[] } {
  const said: string[] = [];
  const code = searchExitCode(result, false, { out: () => {}, err: (line) => said.push(line) });
  return { code, said };
}

const late = (config: Parameters<StepRunner>[0]) => stepRun({ config, underOneSecond: 900, late: 100, p99Ms: 1_400 });

describe('the exit code of a search', () => {
  it('0 when the service\'s capacity was found', async () => {
    expect(exitOf(await search(async (config) => (plannedSendRate(config) > 500 ? late(config) : stepRun({ config })))).code).toBe(0);
  });

  it('1, not 3, when the service failed even the first step', async () => {
    const { code, said } = exitOf(await search(async (config) => late(config)));
    expect(code).toBe(1);
    expect(said).toEqual(['live-bench: even the first step broke: no capacity was found. Lower --start, or check the errors above.']);
  });

  it('1 when which side broke is unknown, never 0', async () => {
    const unknown: StepRunner = async (config) => plannedSendRate(config) > 500
      ? stepRun({ config, outcome: { kind: 'failed', reason: 'no connection could be opened' }, planned: 0, totals: { connectionsFailed: 100, connectionsOpened: 0 }, run: { points: [], connectCauses: { other: 100 } } })
      : stepRun({ config });
    const { code, said } = exitOf(await search(unknown));
    expect(code).toBe(1);
    expect(said.join('\n')).toMatch(/which side broke is unknown/);
  });

  it('3 when the first step measured nothing (the hub refused the method)', async () => {
    expect(exitOf(await search(async (config) => stepRun({ config, outcome: { kind: 'failed', reason: 'the hub did not accept Echo' }, planned: 0 }))).code).toBe(3);
  });
});

describe('a search ended by a cause other than load', () => {
  const closedPort = (config: Parameters<StepRunner>[0]) => stepRun({ config, outcome: { kind: 'failed', code: 'noConnection', reason: 'no connection could be opened.' }, planned: 0, totals: { connectionsFailed: 100, connectionsOpened: 0 }, run: { connectCauses: { refused: 100 } } });
  const crashed = (config: Parameters<StepRunner>[0]) => stepRun({
    config, underOneSecond: 300, outcome: { kind: 'failed', code: 'allClosed', reason: 'every connection was closed by 1 s and Reconnect is off' }, totals: { disconnects: 100 },
    run: { errorSamples: [{ kind: 'closed', count: 100, message: 'Connection closed during the run: WebSocket closed with status code: 1006 (no reason given).' }] },
  });

  it('3, no capacity, when the set-up ends it (a closed port at the first step)', async () => {
    const result = await search(async (config) => closedPort(config));
    expect(result.finding).toMatchObject({ kind: 'fault', cause: 'unreachable', limitedBy: 'setup', brokeStep: 1 });
    expect(result.steps).toHaveLength(1);
    const { code, said } = exitOf(result);
    expect(code).toBe(3);
    expect(said[0]).toMatch(/^live-bench: no capacity: step 1 failed for a cause other than load \(unreachable\): Nothing accepted the connection/);
  });

  it('1, no capacity, never "found", when the hub crashed mid-search after steps that held', async () => {
    const result = await search(async (config) => (plannedSendRate(config) > 500 ? crashed(config) : stepRun({ config })));
    expect(result.finding).toMatchObject({ kind: 'fault', cause: 'hubCrashed', limitedBy: 'service', heldStep: 2, brokeStep: 3 });
    expect(result.steps).toHaveLength(3);
    expect(exitOf(result).code).toBe(1);
  });

  it('1, the service\'s, when nothing answers at a step after earlier steps connected: the hub went away', async () => {
    const result = await search(async (config) => (plannedSendRate(config) > 500 ? closedPort(config) : stepRun({ config })));
    expect(result.finding).toMatchObject({ kind: 'fault', cause: 'unreachable', limitedBy: 'service', brokeStep: 3 });
    expect(exitOf(result).code).toBe(1);
  });
});

describe('a break that is not settled', () => {
  it('1 when the break held when run again (unconfirmed)', async () => {
    let runs = 0;
    const result = await search(async (config) => {
      runs += 1;
      // The ramp's third step breaks once; its confirming run (the fourth) holds.
      return plannedSendRate(config) > 500 && runs === 3 ? late(config) : stepRun({ config });
    });
    expect(result.finding).toMatchObject({ kind: 'found', confirmed: false });
    const { code, said } = exitOf(result);
    expect(code).toBe(1);
    expect(said.join('\n')).toMatch(/the break was not confirmed: the same load held when run again at step 4/);
  });
});

describe('a step that waits says so', () => {
  it('with what is open and for how long', () => {
    expect(waitLine(3, 'connecting', 0, 400, 0, 10_200)).toBe('step 3: connecting, 0 of 400 open after 10 s');
    expect(waitLine(2, 'draining', 18, 20, 2, 5_000)).toBe('step 2: draining, 18 of 20 open, 2 failed after 5 s');
  });
});

describe('a service that refuses connects at a load', () => {
  it('broke under that load: a break named with its status, not a fault', async () => {
    const refusing = (config: Parameters<StepRunner>[0]) => stepRun({
      config, underOneSecond: 500, totals: { connectionsFailed: 50, connectionsOpened: 50 }, run: {
        connectCauses: { httpStatus: 50 },
        errorSamples: [{ kind: 'transport', count: 50, message: 'WebSockets failed: Error: WebSocket failed to connect. (the socket said: Unexpected server response: 503)' }],
      },
    });
    const result = await search(async (config) => (plannedSendRate(config) > 500 ? refusing(config) : stepRun({ config })));
    expect(result.finding).toMatchObject({ kind: 'found', limitedBy: 'service', heldStep: 2 });
    const broke = result.steps.find((s) => s.index === result.finding.brokeStep)!;
    expect(broke.judgement.reasons[0]).toBe('The service refused 50 connects of 100 with HTTP 503 on the WebSocket upgrade.');
  });
});
