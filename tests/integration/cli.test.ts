/**
 * The headless runner as a user runs it: `node bin/live-bench.js` (built by `npm run build:cli`)
 * against the real hub-sample, its exit codes, its words, and its JSON result read back by the
 * shared import code.
 */
import { mkdtemp, readFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, inject, it } from 'vitest';
import { GO_LEAD_MS } from '../../core/execution/coordinator.ts';
import { parseRunResult } from '../../core/result/result.ts';
import { liveBench } from '../support/live-bench.ts';

const endpoint = () => `${inject('hubHttpUrl')}/signalrbench`;
const small = ['--connections', '20', '--workers', '2', '--interval-ms', '500', '--duration', '2', '--quiet'];

describe('live-bench, the headless runner', () => {
  // 20 connections, 4 sends each in 2 s at 500 ms. Big groups of 20 connections are 10 groups of 2
  // with every connection sending (at most 40 senders).
  for (const [scenario, expectedReceptions] of [['echo', 80], ['broadcast', 160], ['smallGroup', 800], ['bigGroup', 160], ['sendToConnection', 80]] as const) {
    it(`${scenario}: exits 0, prints the summary and writes a result the import code reads back`, async () => {
      const dir = await mkdtemp(path.join(os.tmpdir(), 'live-bench-'));
      const jsonPath = path.join(dir, 'result.json');
      const run = await liveBench(['--endpoint', endpoint(), '--scenario', scenario, ...small, '--json', jsonPath]);
      expect(run.stderr).not.toContain('threshold broken');
      expect(run.code).toBe(0);
      expect(run.stdout).toContain(`${scenario} over WebSockets (json)`);
      expect(run.stdout).toMatch(/Verdict: Pass/);
      if (scenario === 'broadcast' || scenario === 'bigGroup') {
        // At 500 ms each sender sends twice the rate the guide measured on every tier.
        expect(run.stdout).toMatch(/Guide \(current edition\), no tier fits; compared with Unit1: Unit1's limits hold this configuration, but this run is above what the guide measured/);
      } else {
        expect(run.stdout).toMatch(/Guide \(current edition\), smallest fitting tier Unit1: /);
      }
      const result = parseRunResult(await readFile(jsonPath, 'utf8'));
      expect(result.config.scenario).toBe(scenario);
      expect(result.outcome.kind).toBe('finished');
      expect(result.fates).toMatchObject({ planned: expectedReceptions, lost: 0 });
      expect(result.totals.received).toBe(expectedReceptions);
      expect(result.points.length).toBeGreaterThan(0);
      expect(result.client).toMatch(/^node v20/);
      // The planned send window (epoch µs): --duration 2 s, within the run's wall time.
      expect(result.sendWindow!.endUs - result.sendWindow!.startUs).toBe(2_000_000);
      expect(result.sendWindow!.startUs).toBeGreaterThan(Date.parse(result.startedAt) * 1_000);
      // The ramp's end: every engine ready, "go" out GO_LEAD_MS before the first send, after connecting began.
      expect(result.sendWindow!.readyUs).toBe(result.sendWindow!.startUs - GO_LEAD_MS * 1_000);
      expect(result.sendWindow!.readyUs).toBeGreaterThan(result.sendWindow!.runStartUs!);
      // The connects alone (the peers bench's ramp): after the set-up, the last open before the method check.
      expect(result.sendWindow!.connectsFromUs).toBeGreaterThanOrEqual(result.sendWindow!.runStartUs!);
      expect(result.sendWindow!.lastOpenedUs).toBeGreaterThan(result.sendWindow!.connectsFromUs!);
      expect(result.sendWindow!.lastOpenedUs).toBeLessThan(result.sendWindow!.readyUs!);
    });
  }

  it('writes a self-contained HTML report with --html', async () => {
    const dir = await mkdtemp(path.join(os.tmpdir(), 'live-bench-'));
    const htmlPath = path.join(dir, 'report.html');
    const run = await liveBench(['--endpoint', endpoint(), ...small, '--html', htmlPath]);
    expect(run.code).toBe(0);
    const html = await readFile(htmlPath, 'utf8');
    expect(html).toContain('<title>Echo · WebSockets + JSON · 20 connections</title>');
    expect(html).toMatch(/Pass: (100\.00|99\.\d\d)% of 80 planned receptions arrived in under 1 s/);
    expect(html).toContain('received 80');
    expect(html).toContain('@microsoft/signalr 10.0.11');
    expect(html).not.toMatch(/<script|<link /i);
  });

  it('exits 1 and says which threshold broke', async () => {
    const run = await liveBench(['--endpoint', endpoint(), ...small, '--max-p99-ms', '0.001', '--min-delivery', '1']);
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(/threshold broken: p99 was [\d.]+ ms, above the limit of 0.001 ms/);
    expect(run.stderr).not.toMatch(/threshold broken: Delivery/);
  });

  it('exits 2 on bad input, listing every problem, and runs nothing', async () => {
    const run = await liveBench(['--endpoint', 'localhost:5180', '--connections=-1', '--protocol', 'xml', '--min-delivery', '2']);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('Connections must be a whole number from 1 to 1,000,000, but is "-1"');
    expect(run.stderr).toContain('Protocol must be one of json, messagepack, but is "xml"');
    expect(run.stderr).toContain('--min-delivery must be a fraction from 0 to 1');
    expect(run.stderr).toContain('nothing was run');
    expect(run.stdout).toBe('');
  });

  it('exits 3 when no connection opens, and says why', async () => {
    const run = await liveBench(['--endpoint', 'http://127.0.0.1:9/signalrbench', '--connections', '2', '--workers', '1', '--duration', '1', '--quiet']);
    expect(run.code).toBe(3);
    expect(run.stdout).toContain('Errors: 2 (negotiate 2)');
    expect(run.stdout).toMatch(/Error: negotiate ×2: WebSockets \(json\) to http:\/\/127.0.0.1:9\/signalrbench/);
    expect(run.stdout).toContain('Connections: 0 opened, 2 failed; connect time no connection opened');
    expect(run.stderr).toContain('no connection could be opened');
  });

  it('--help lists the options and exits 0', async () => {
    const run = await liveBench(['--help']);
    expect(run.code).toBe(0);
    expect(run.stdout).toContain('--no-guide-rule');
    expect(run.stdout).toMatch(/3  nothing could be measured/);
    expect(run.stdout).toMatch(/4  the runner itself failed/);
    expect(run.stdout).toContain('--allow-loss <ratio>');
  });

  it('--memory-log writes the resident set and each thread\'s heap, with a last sample at the end', async () => {
    const dir = await mkdtemp(path.join(os.tmpdir(), 'live-bench-'));
    const csvPath = path.join(dir, 'memory.csv');
    const run = await liveBench(['--endpoint', endpoint(), ...small, '--memory-log', csvPath]);
    expect(run.code).toBe(0);
    const [header, ...rows] = (await readFile(csvPath, 'utf8')).trim().split('\n');
    expect(header).toBe('minute,rss_mb,main_heap_mb,thread0_heap_mb,thread1_heap_mb,gc_forced');
    expect(rows.length).toBeGreaterThanOrEqual(1);
    const [, rss, main, thread0, thread1, gc] = rows.at(-1)!.split(',');
    for (const mb of [rss, main, thread0, thread1]) expect(Number(mb)).toBeGreaterThan(0);
    // Not started with --expose-gc: the figures include garbage, and the file says so.
    expect(gc).toBe('no');
  });

  it('runs one engine in the runner\'s own thread by default at this size, counting every planned message', async () => {
    const dir = await mkdtemp(path.join(os.tmpdir(), 'live-bench-'));
    const jsonPath = path.join(dir, 'result.json');
    const csvPath = path.join(dir, 'memory.csv');
    const run = await liveBench(['--endpoint', endpoint(), '--connections', '20', '--interval-ms', '500', '--duration', '2', '--json', jsonPath, '--memory-log', csvPath]);
    expect(run.code).toBe(0);
    expect(run.stderr).toContain('20 connections over WebSockets (json) to');
    expect(run.stderr).toContain('the engine in the runner\'s own thread');
    const result = parseRunResult(await readFile(jsonPath, 'utf8'));
    expect(result.config.workers).toBe(1);
    expect(result.outcome.kind).toBe('finished');
    expect(result.fates).toMatchObject({ planned: 80, lost: 0 });
    expect(result.totals.received).toBe(80);
    // Its heap is the main thread's: no thread columns.
    expect((await readFile(csvPath, 'utf8')).split('\n')[0]).toBe('minute,rss_mb,main_heap_mb,gc_forced');
  });
});
