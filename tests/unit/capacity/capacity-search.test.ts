import { describe, expect, it } from 'vitest';
import { CapacitySearch, type StepRunner } from '../../../core/capacity/capacity-search.ts';
import { answerLines, capacityAnswer } from '../../../core/capacity/answer.ts';
import { parseCapacityResult } from '../../../core/capacity/capacity-result.ts';
import { capacityCsv, capacityReportTitle, capacitySection } from '../../../core/capacity/capacity-export.ts';
import { reportHtml } from '../../../core/report/html.ts';
import { plannedSendRate, type CapacitySettings } from '../../../core/capacity/settings.ts';
import type { RunConfig } from '../../../core/run-config/config.ts';
import { FakeTime } from '../../support/fake-time.ts';
import { testConfig } from '../../support/finished-run.ts';
import { stepRun } from '../../support/step-run.ts';

const base = testConfig({ connections: 100, workers: 2, sendIntervalMs: 1_000, messageBytes: 2_048, durationSec: 4 });
const rate = (over: Partial<CapacitySettings> = {}): CapacitySettings => ({ ramp: 'rate', start: 200, step: 200, max: 2_000, stepSec: 4, settleSec: 1, bisectSteps: 2, ...over });

/** A service that holds `capacity` msg/s; above it, 5% of receptions come late. `clientBreaksAt` makes the client stall instead. */
function fakeService(capacity: number, clientBreaksAt = Infinity): { runner: StepRunner; configs: RunConfig[] } {
  const configs: RunConfig[] = [];
  const runner: StepRunner = async (config) => {
    configs.push(config);
    const load = config.connections === base.connections ? plannedSendRate(config) : config.connections;
    // A stalled client sends late, so its messages arrive late too.
    const over = load > capacity || load >= clientBreaksAt;
    return stepRun({ config, planned: 1_000, underOneSecond: over ? 950 : 1_000, late: over ? 50 : 0, p99Ms: over ? 1_300 : 12, lagMs: load >= clientBreaksAt ? 500 : 3 });
  };
  return { runner, configs };
}

async function search(settings: CapacitySettings, runner: StepRunner, connectionCap: number | null = null) {
  const time = new FakeTime();
  const started: number[] = [];
  const s = new CapacitySearch(base, settings, runner, { client: { name: 'test client', connectionCap }, clock: time, timers: time, onStepStart: (next) => started.push(next.load) });
  const done = s.run();
  // The pauses between steps run on the fake clock.
  for (let i = 0; i < 20; i++) await time.advanceByMs(1_000);
  return { result: await done, started };
}

describe('a capacity search', () => {
  it('ramps, stops at the first failing step, bisects twice and reports the highest load that held', async () => {
    const { runner } = fakeService(1_100);
    const { result, started } = await search(rate(), runner);
    expect(started).toEqual([200, 400, 600, 800, 1_000, 1_200, 1_100, 1_150, 1_150]);
    expect(result.finding).toMatchObject({ kind: 'found', limitedBy: 'service', confirmed: true });
    expect(result.steps.at(-1)!.phase).toBe('confirm');
    const held = result.steps.find((s) => s.index === result.finding.heldStep)!;
    expect(held.load).toBe(1_100);
    expect(result.steps.find((s) => s.index === result.finding.brokeStep)!.load).toBe(1_150);
    expect(result.running).toBe(false);
  });

  it('holds every step up to the maximum: the capacity is above it', async () => {
    const { result } = await search(rate({ max: 600 }), fakeService(10_000).runner);
    expect(result.finding).toMatchObject({ kind: 'atLeastMax', heldStep: 3, brokeStep: null });
    expect(capacityAnswer(result).headline).toContain('raise the maximum');
  });

  it('says so when even the first step broke', async () => {
    const { result, started } = await search(rate(), fakeService(100).runner);
    expect(started).toEqual([200, 200]);
    expect(result.finding).toMatchObject({ kind: 'firstStepFailed', heldStep: null, brokeStep: 1, confirmed: true });
    expect(capacityAnswer(result).headline).toMatch(/Even the first step .* broke/);
  });

  it('names a client-limited result and never calls it the service\'s capacity', async () => {
    const { result } = await search(rate(), fakeService(100_000, 800).runner);
    expect(result.finding).toMatchObject({ kind: 'found', limitedBy: 'client' });
    const answer = capacityAnswer(result);
    expect(answer.headline).toMatch(/^Client-limited: this client held/);
    expect(answer.clientNote).toMatch(/The client set this limit, not the service: .*more --workers .*runner agents on other machines/);
    expect(answerLines(result).join('\n')).not.toContain('published');
  });

  it('ramps connections at a fixed interval', async () => {
    const { runner, configs } = fakeService(350);
    const { result } = await search({ ...rate(), ramp: 'connections', start: 100, step: 100, max: 500 }, runner);
    expect(configs.map((c) => c.connections)).toEqual([100, 200, 300, 400, 350, 375, 375]);
    expect(new Set(configs.map((c) => c.sendIntervalMs))).toEqual(new Set([1_000]));
    expect(result.steps.find((s) => s.index === result.finding.heldStep)!.load).toBe(350);
  });

  it('gives every step its settle as the warm-up and its hold as the duration', async () => {
    const { runner, configs } = fakeService(300);
    await search(rate({ stepSec: 6, settleSec: 2 }), runner);
    expect(configs[0]).toMatchObject({ durationSec: 6, warmupSec: 2, connections: 100, sendIntervalMs: 500 });
  });

  it('runs no more steps once stopped, keeping the stopped step without a verdict', async () => {
    let calls = 0;
    const runner: StepRunner = async (config) => (++calls === 2 ? stepRun({ config, outcome: { kind: 'stopped', stoppedAtSec: 1 } }) : stepRun({ config }));
    const { result } = await search(rate(), runner);
    expect(calls).toBe(2);
    expect(result.finding.kind).toBe('unjudged');
    expect(capacityAnswer(result).brokeLine).toMatch(/Step 2 .* could not be judged/);
  });

  it('states the answer in the guide\'s terms for both editions', async () => {
    const { result } = await search(rate(), fakeService(1_100).runner);
    const answer = capacityAnswer(result);
    expect(answer.headline).toMatch(/^Held [\d,]+ msg\/s of 2\.0 KB echo over WebSockets \+ JSON with 100 connections at p99 12\.0 ms \(100\.00% under 1 s\)\.$/);
    expect(answer.tiers.map((t) => t.edition)).toEqual(['current', '2019']);
    // Both editions publish the same echo rate for the tier: said once, naming both.
    expect(answer.tiers[0]).toMatchObject({ tier: answer.tiers[1]!.tier, ratio: answer.tiers[1]!.ratio, published: answer.tiers[1]!.published });
    expect(answer.tierLines).toEqual([expect.stringMatching(/^That is \d+% of Unit\d+'s published echo rate \([\d,]+ msg\/s, current and 2019 editions\)\.$/)]);
    // What failed it, with the p99 only because it is itself past 1 s; then the second run's word.
    expect(answer.brokeLine).toBe('Broke at step 8 (1,149 msg/s (100 connections every 87 ms)), because of the service: 50 of 1,000 arrived 1 s or more after their planned time (p99 1.30 s) while the client kept its schedule. Confirmed: the same load broke again at step 9.');
  });

  it('exports every step: JSON read back, CSV rows, an HTML section', async () => {
    const { result } = await search(rate(), fakeService(1_100).runner);
    const read = parseCapacityResult(JSON.stringify(result));
    expect(read.steps).toHaveLength(9);
    expect(read).toEqual(result);
    const csv = capacityCsv(result).trim().split('\n');
    expect(csv).toHaveLength(10);
    expect(csv[0]).toMatch(/^step,phase,load,connections,send_interval_ms/);
    expect(csv[8]).toMatch(/^8,bisect,1150,100,87,/);
    expect(csv[9]).toMatch(/^9,confirm,1150,100,87,/);
    const html = capacitySection(result);
    expect(html).toContain('<svg');
    expect(html).toContain('broke (service-limited)');
    // One row per step, a bisect's and a confirmation's named beside its number.
    expect(html.match(/<tr><td>\d+(?: \((?:bisect|run again)\))?<\/td>/g)).toHaveLength(result.steps.length);
    expect(html).toContain('<tr><td>8 (bisect)</td>');
    // The report's title is the page's headline; the answer comes before the charts and the steps.
    const report = reportHtml({ title: capacityReportTitle(result), runs: [], sections: [html], generatedAt: new Date(0) });
    expect(report).toMatch(/<h1>Capacity search: Holds [\d,]+ msg\/s of 2\.0 KB echo/);
    expect(report.indexOf('data-testid="report-capacity-broke"')).toBeLessThan(report.indexOf('<svg'));
    expect(report).not.toMatch(/\b0 runs\b/);
  });

  it('says a break that held when run again is unconfirmed, and still takes the load below as held', async () => {
    const runner: StepRunner = async (config, step) => {
      // 600 msg/s breaks once, then holds: a hiccup, not a limit the search may trust.
      const fails = plannedSendRate(config) > 400 && step.phase !== 'confirm';
      return stepRun({ config, planned: 1_000, underOneSecond: fails ? 950 : 1_000, late: fails ? 50 : 0, p99Ms: fails ? 1_300 : 12 });
    };
    const { result, started } = await search(rate({ bisectSteps: 0 }), runner);
    expect(started).toEqual([200, 400, 600, 600]);
    expect(result.finding).toMatchObject({ kind: 'found', heldStep: 2, brokeStep: 3, confirmed: false });
    expect(capacityAnswer(result).brokeLine).toMatch(/Unconfirmed: the same load held when run again at step 4/);
  });

  it('says which side broke is unknown, never a capacity, when nothing shows it', async () => {
    const runner: StepRunner = async (config) => plannedSendRate(config) > 300
      ? stepRun({ config, outcome: { kind: 'failed', reason: 'no connection could be opened' }, planned: 0, totals: { connectionsFailed: 100, connectionsOpened: 0 }, run: { points: [], connectCauses: { other: 100 } } })
      : stepRun({ config });
    const { result } = await search(rate({ bisectSteps: 0 }), runner);
    expect(result.finding).toMatchObject({ kind: 'found', limitedBy: 'unknown', heldStep: 1 });
    const answer = capacityAnswer(result);
    expect(answer.headline).toMatch(/^Cause unknown: held/);
    expect(answer.clientNote).toMatch(/^Which side broke is unknown: 100 of 100 connections failed to open/);
    expect(answer.brokeLine).toMatch(/for a cause that is unknown/);
  });

  it('reads a document without the fields later versions added, and refuses what is not one', () => {
    const old = { format: 'signalr-live-bench/capacity', version: 1, startedAt: 'x', base, settings: rate(), steps: [], finding: { kind: 'unjudged', limitedBy: null, heldStep: null, brokeStep: null } };
    expect(parseCapacityResult(JSON.stringify(old))).toMatchObject({ connectionCap: null, running: false, client: 'unknown' });
    expect(() => parseCapacityResult('{"format":"signalr-live-bench/run"}')).toThrow(/not a SignalR Live Bench capacity search/);
    expect(() => parseCapacityResult('{')).toThrow(/not JSON/);
  });
});
