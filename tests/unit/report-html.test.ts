import { describe, expect, it } from 'vitest';
import { interruptedResult, type KeptRun } from '../../core/history/kept-run.ts';
import { reportHtml } from '../../core/report/html.ts';
import { runLabels } from '../../core/charts/run-legend.ts';
import { lineChartSvg, niceCeiling } from '../../core/charts/svg-chart.ts';
import type { RunConfig } from '../../core/run-config/config.ts';
import { finishedRun, testConfig } from '../support/finished-run.ts';
import { stepRun } from '../support/step-run.ts';
import { FakeTime } from '../support/fake-time.ts';
import { escapeXml } from '../../core/charts/index.ts';
import { diagnosisLines } from '../../core/diagnosis/index.ts';
import { diagnosisOf } from '../../core/result/run-evidence.ts';
import { CapacitySearch, capacityAnswer, capacitySection, capacityReportTitle, capacityStage, type StepRunner } from '../../core/capacity/index.ts';
import { plannedSendRate } from '../../core/capacity/settings.ts';

async function kept(name: string, overrides: Partial<RunConfig>, delayMs: number, status: KeptRun['status'] = 'finished'): Promise<KeptRun> {
  const finished = await finishedRun(overrides, { deliveryDelayMs: delayMs });
  const result = status === 'interrupted' ? interruptedResult(finished) : finished;
  return { id: name, name, status, savedAt: result.startedAt, toolVersion: '0.1.0', signalrClientVersion: '10.0.11', comparisonId: 'c', result };
}

const generatedAt = new Date('2026-06-07T08:09:10.000Z');

describe('reportHtml', () => {
  it('says receivers absent, an accounting error and another run\'s messages as the summary does', async () => {
    const run = await kept('absent', {}, 5);
    const fates = { ...run.result.fates, notSent: { ...run.result.fates.notSent, receiverAbsent: 40 }, overCount: 2 };
    const html = reportHtml({ title: 'Absent', runs: [{ ...run, result: { ...run.result, fates, totals: { ...run.result.totals, foreign: 7 } } }], generatedAt });
    expect(html).toContain('the receiver never connected or never joined its group 40');
    expect(html).toContain('accounting error: 2 counted beyond the plan');
    expect(html).toContain('foreign 7 (another run or client on this hub: not counted as arrivals)');
  });

  it('names a run\'s hub profile: the scenario row says it, the profile row carries it whole, escaped', async () => {
    const run = await kept('profile', {}, 5);
    const hubProfile = { name: 'chat <rooms>', join: { method: 'JoinRoom', args: ['{group}'] }, send: { method: 'SendToRoom', args: ['{group}', 'bench-{connection}', '{message}'] }, receive: { method: 'ReceiveMessage', arg: 1 }, deliver: 'group' as const };
    const html = reportHtml({ title: 'Profile', runs: [{ ...run, result: { ...run.result, config: { ...run.result.config, scenario: 'bigGroup', hubProfile } } }], generatedAt });
    expect(html).toContain('chat &lt;rooms&gt; profile: SendToRoom → ReceiveMessage, to the group (send to big groups)');
    expect(html).toContain('&quot;method&quot;:&quot;JoinRoom&quot;');
    expect(html).not.toContain('<rooms>');
  });

  it('is one self-contained document: no scripts, no external resources', async () => {
    const html = reportHtml({ title: 'Echo', runs: [await kept('a', {}, 5)], generatedAt });
    expect(html.startsWith('<!doctype html>')).toBe(true);
    expect(html).not.toMatch(/<script|<link|<img|@import|url\(/i);
    // Only the SVG namespace names a URL.
    expect(html.match(/https?:\/\/[^\s"<]+/g)?.filter((u) => u !== 'http://www.w3.org/2000/svg' && !u.startsWith('http://fake/'))).toEqual([]);
    expect(html).toContain('<svg');
  });

  it('carries the server\'s figures, the limit in words and the server\'s charts when they were read; the limit alone otherwise', async () => {
    const run = await kept('with server', {}, 5);
    const point = { second: 1, cpuPercent: 96.4, connections: 4, deliveriesPerSec: 40, gcPauseMsPerSec: 1.5, threadPoolQueue: 2, workingSetBytes: 100_000_000, kestrelConnections: 4, kestrelQueued: 0 };
    // At a second the run planned sends in: the server's peak is taken while sending.
    const sending = run.result.points.find((p) => p.fates.planned > 0)!.second;
    const withServer: KeptRun = { ...run, result: { ...run.result, server: { url: 'http://fake/metrics', problem: null, failedScrapes: 0, deliveries: 120, points: [{ ...point, second: 0, cpuPercent: null }, { ...point, second: sending }] } } };
    const html = reportHtml({ title: 'Server', runs: [withServer], generatedAt });
    expect(html).toContain('<th>Server</th><td>peak CPU 96% of all cores while sending, peak 4 hub connections, 120 deliveries counted by the hub');
    expect(html).toContain('<th>Limit</th><td>The server was at 96% CPU while the client kept its schedule: the service is the limit.</td>');
    expect(html).toContain('Server CPU (guide: keep under 70%)');
    expect(html).toContain('Deliveries per second: server and client');
    const without = reportHtml({ title: 'No server', runs: [run], generatedAt });
    expect(without).not.toContain('<th>Server</th>');
    expect(without).not.toContain('Server CPU');
    expect(without).toContain('the server&#39;s load is unknown');
  });

  it('carries the verdict, the configuration, the versions and the figures of each run', async () => {
    const run = await kept('WS run', { transport: 'WebSockets', protocol: 'messagepack', connections: 6, workers: 2 }, 7);
    const html = reportHtml({ title: 'One run', runs: [run], generatedAt });
    expect(html).toContain('<title>One run</title>');
    expect(html).toMatch(/Pass: 100\.00% of [\d,]+ planned receptions arrived in under 1 s/);
    expect(html).toContain('WebSockets + MessagePack');
    expect(html).toContain('http://fake/signalrbench');
    expect(html).toContain('@microsoft/signalr 10.0.11');
    expect(html).toContain(`received ${run.result.totals.received.toLocaleString('en-US')}`);
    expect(html).toMatch(/current edition: Unit1/);
    expect(html).toContain('2026-06-07T08:09:10.000Z');
    // One run: no side-by-side section.
    expect(html).not.toContain('Side by side');
  });

  it('puts several runs side by side: a percentile chart with one line per run, the table and the winner per column', async () => {
    const runs = [await kept('fast', {}, 3), await kept('slow', { transport: 'LongPolling' }, 30)];
    const html = reportHtml({ title: 'Transports', runs, generatedAt });
    expect(html).toContain('Side by side');
    // The load differs (the second run is over long polling, but the same load): it is named.
    expect(html).toContain('The same load for every run: Echo · 4 connections · 2,048 B every 100 ms · 3 s.');
    const sideBySide = html.slice(html.indexOf('Side by side'), html.indexOf('<section class="run">'));
    // Percentiles, p99 per second and messages per second: one line per run in each.
    expect(sideBySide.match(/<path /g)).toHaveLength(6);
    expect(sideBySide).toContain('p99 latency per second');
    expect(sideBySide).toMatch(/<strong>p50<\/strong> \(lower is better\): fast</);
    // 120 messages a run: p99 is read from too few to name a best (core/compare/p99-evidence.ts).
    expect(sideBySide).toMatch(/<strong>p99<\/strong> \(lower is better\): too few messages \(500 a run needed\)</);
    expect(sideBySide).toMatch(/<strong>missed slots<\/strong> \(lower is better\): a tie/);
    expect(sideBySide.match(/class="win"/g)!.length).toBeGreaterThanOrEqual(2);
    expect(html.match(/<section class="run">/g)).toHaveLength(2);
  });

  it('escapes what people typed, so a run name cannot break the page', async () => {
    const run = await kept('<script>alert(1)</script> & "co"', {}, 5);
    const html = reportHtml({ title: 'a < b', runs: [run, run], generatedAt });
    expect(html).not.toContain('<script>');
    expect(html).toContain('&lt;script&gt;alert(1)&lt;/script&gt; &amp; &quot;co&quot;');
    expect(html).toContain('<title>a &lt; b</title>');
  });

  it('says when a run was interrupted and that its losses were never counted', async () => {
    const html = reportHtml({ title: 'x', runs: [await kept('cut', {}, 5, 'interrupted')], generatedAt });
    expect(html).toMatch(/This run was interrupted .* losses were never counted/);
    expect(html).toContain('lost not counted');
  });

  it('numbers runs that share a name', async () => {
    const run = await kept('same', {}, 5);
    expect(runLabels([run, { ...run, name: 'other' }, run])).toEqual(['1. same', 'other', '3. same']);
  });

  it('labels runs side by side by what differs: a comparison\'s shared scenario and load are left out', async () => {
    const run = await kept('x', {}, 5);
    const named = (name: string) => ({ ...run, name });
    expect(runLabels([named('Echo · WebSockets + JSON · 10 connections'), named('Echo · Long Polling + MessagePack · 10 connections')])).toEqual(['WebSockets + JSON', 'Long Polling + MessagePack']);
    expect(runLabels([named('Echo · WebSockets + JSON · 10 connections')])).toEqual(['Echo · WebSockets + JSON · 10 connections']);
    expect(runLabels([named('baseline'), named('Echo · WebSockets + JSON · 10 connections')])).toEqual(['baseline', 'Echo · WebSockets + JSON · 10 connections']);
  });
});

describe('the report\'s diagnosis', () => {
  it('under the verdict, in the words the run\'s document carries: the side, the sentence, what to do, the evidence, the docs', async () => {
    const run = await kept('refused', { connections: 4 }, 5);
    const failed = await finishedRun({ connections: 4 }, { deliveryDelayMs: 5, failStart: new Set([0, 1, 2, 3]), failStartMessage: "Failed to complete negotiation with the server: Error: Unauthorized: Status code '401'" });
    const diagnosis = diagnosisOf(failed);
    expect(diagnosis).toMatchObject({ cause: 'authRefused', side: 'setup' });
    const html = reportHtml({ title: 'Refused', runs: [{ ...run, result: failed }], generatedAt });
    const verdictAt = html.indexOf('<p class="verdict');
    const blockAt = html.indexOf('<div class="diagnosis bad-edge" data-cause="authRefused" data-side="setup">');
    expect(verdictAt).toBeGreaterThan(0);
    expect(blockAt).toBeGreaterThan(verdictAt);
    // Answer first, as the page shows it: the verdict, the tier that fits, then why; nothing else between.
    expect(html.slice(verdictAt, blockAt)).toMatch(/^<p class="verdict [a-z]+">[^<]*<\/p>\n<p class="tier" data-testid="report-tier">Tier: [^<]*<\/p>\n$/);
    // The report's title names the one run: no second heading repeats it.
    expect(html).not.toContain('<h2>Refused</h2>');
    expect(verdictAt).toBeLessThan(html.indexOf('Report generated'));
    expect(html).toContain('<h3 class="why bad">Why: the set-up</h3>');
    expect(html).toContain(`<p class="sentence">${escapeXml(diagnosis.sentence)}</p>`);
    expect(html).toContain(`<p><strong>What to do:</strong> ${escapeXml(diagnosis.advice)}</p>`);
    for (const line of diagnosis.evidence.slice(0, 4)) expect(html).toContain(`<li>${escapeXml(line)}</li>`);
    expect(html).toContain("Explained in the project's <code>docs/diagnosis.md#auth-refused</code>");
  });

  it('the same sentence for a run kept before diagnoses were recorded (made from its document), and no "Why" heading when nothing failed', async () => {
    const run = await kept('held', {}, 5);
    const { diagnosis: _recorded, ...before } = run.result;
    const html = reportHtml({ title: 'Held', runs: [{ ...run, result: before }], generatedAt });
    expect(html).toContain('<div class="diagnosis" data-cause="held" data-side="none">');
    expect(html).toContain(`<p class="sentence">${escapeXml(run.result.diagnosis!.sentence)}</p>`);
    expect(html).not.toContain('<h3 class="why');
  });

  it('folds evidence past the first four, and names a failed run\'s cause side by side with its sentence in the runner\'s words', async () => {
    const ok = await kept('fast', {}, 3);
    const broken = await kept('broken', { transport: 'LongPolling' }, 3);
    const evidence = ['one', 'two', 'three', 'four', 'five', 'six'];
    const diagnosis = { cause: 'hubCrashed' as const, side: 'service' as const, sentence: 'The hub at http://fake/signalrbench went away mid-run: it restarted during the run. A crashed or restarted hub is not a capacity.', advice: 'Read the hub\'s log.', docs: 'docs/diagnosis.md#hub-crashed', evidence };
    const failed: KeptRun = { ...broken, status: 'failed', result: { ...broken.result, outcome: { kind: 'failed', code: 'allClosed', reason: 'every connection was closed.' }, verdict: { ...broken.result.verdict, status: 'fail' }, diagnosis } };
    const html = reportHtml({ title: 'Two', runs: [ok, failed], generatedAt });
    expect(html).toContain('<details><summary>2 more</summary><ul class="evidence"><li>five</li><li>six</li></ul></details>');
    expect(html).toContain('<span class="cause bad">hub crashed</span>');
    expect(html).toContain('<h3>Why a run failed</h3>');
    expect(html).toContain(`<li><strong>broken:</strong> ${escapeXml(diagnosisLines(diagnosis, 0)[0]!)}</li>`);
    expect(diagnosisLines(diagnosis, 0)[0]).toBe(`Why (the service): ${diagnosis.sentence}`);
    expect(html.match(/<span class="cause /g)).toHaveLength(1);
  });
});

describe('the capacity report\'s fault', () => {
  it('red, its headline and what to do (faultNote), the cause at its step; never "Held"', async () => {
    const base = testConfig({ connections: 100, workers: 2, sendIntervalMs: 1_000, messageBytes: 2_048, durationSec: 4 });
    const crashed = { cause: 'hubCrashed' as const, side: 'service' as const, sentence: 'The hub at http://fake/signalrbench went away mid-run: it restarted during the run. A crashed or restarted hub is not a capacity.', advice: 'Read the hub\'s log and its host\'s at the time of the run, then run again.', docs: 'docs/diagnosis.md#hub-crashed', evidence: [] };
    const runner: StepRunner = async (config) => (plannedSendRate(config) <= 200
      ? stepRun({ config })
      : stepRun({ config, underOneSecond: 300, outcome: { kind: 'failed', code: 'allClosed', reason: 'every connection was closed.' }, run: { diagnosis: crashed } }));
    const time = new FakeTime();
    const search = new CapacitySearch(base, { ramp: 'rate', start: 200, step: 200, max: 2_000, stepSec: 4, settleSec: 1, bisectSteps: 2 }, runner, { client: { name: 'test client', connectionCap: null }, clock: time, timers: time });
    const done = search.run();
    for (let i = 0; i < 20; i++) await time.advanceByMs(1_000);
    const result = await done;
    const answer = capacityAnswer(result);
    expect(result.finding).toMatchObject({ kind: 'fault', cause: 'hubCrashed', brokeStep: 2 });
    const html = capacitySection(result);
    // The page's sentences: the stage's title (the report's title), its red line, the card's lines.
    expect(capacityReportTitle(result)).toBe(`Capacity search: ${answer.headline}`);
    expect(html).toContain(`<p class="verdict bad" data-tone="bad" data-testid="report-capacity-broke">${escapeXml(capacityStage(result).broke)}</p>`);
    expect(html).toContain(`<p>${escapeXml(answer.headline)}</p>`);
    expect(answer.headline).toContain(crashed.sentence);
    expect(html).toContain(`<p>${escapeXml(answer.faultNote!)}</p>`);
    expect(answer.faultNote).toBe(`What to do: ${crashed.advice}`);
    expect(html).toContain('<span class="bad">fault: hub crashed</span>');
    expect(html).not.toMatch(/>Hold?s? /);
  });
});

describe('lineChartSvg', () => {
  it('draws one path per series, breaking it at missing values', () => {
    const svg = lineChartSvg({ title: 't', xLabel: 'x', yLabel: 'y', xs: [1, 2, 3, 4], series: [{ label: 'a', color: '#000', values: [1, null, 3, 4] }, { label: 'b', color: '#111', values: [2, 2, 2, 2] }] });
    const paths = [...svg.matchAll(/<path d="([^"]*)"/g)].map((m) => m[1]!);
    expect(paths).toHaveLength(2);
    expect(paths[0]!.match(/M/g)).toHaveLength(2);
    expect(paths[1]!.match(/M/g)).toHaveLength(1);
  });

  it('rounds the axis up to 1, 2 or 5 times a power of ten', () => {
    expect([0, 0.7, 3, 11, 4_500].map(niceCeiling)).toEqual([1, 1, 5, 20, 5_000]);
  });
});
