import { describe, expect, it } from 'vitest';
import { interruptedResult, type KeptRun } from '../../core/history/kept-run.ts';
import { reportHtml } from '../../core/report/html.ts';
import { runLabels } from '../../core/charts/run-legend.ts';
import { lineChartSvg, niceCeiling } from '../../core/charts/svg-chart.ts';
import type { RunConfig } from '../../core/run/config.ts';
import { finishedRun } from '../support/finished-run.ts';

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
    expect(sideBySide).toMatch(/<strong>p99<\/strong> \(lower is better\): fast</);
    expect(sideBySide).toMatch(/<strong>missed slots<\/strong> \(lower is better\): a tie/);
    expect(sideBySide.match(/class="win"/g)!.length).toBeGreaterThan(3);
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
