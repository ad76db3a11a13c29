import { describe, expect, it } from 'vitest';
import { comparisonCsv, runCsv } from '../../core/report/csv.ts';
import { emptyFates } from '../../core/accounting/fates.ts';
import { type RunResult } from '../../core/result/result.ts';
import { upgradeRunResult } from '../../core/result/upgrade.ts';

const versions = { toolVersion: '0.2.0', signalrClientVersion: '10.0.11' };
const latency = (count: number, us: number) => ({ count, p50Us: us, p90Us: us, p99Us: us * 2, p999Us: us * 3, maxUs: us * 4, meanUs: us });

describe('runCsv', () => {
  it('writes one row per second with units in the headers, and leaves latency empty when nothing arrived', () => {
    const result = {
      points: [
        { second: 1, sent: 0, received: 0, sentBytes: 0, receivedBytes: 0, fates: { ...emptyFates(), planned: 10, underOneSecond: 7, late: 1, lost: 1, overCount: 0, notSent: { ...emptyFates().notSent, backedUp: 1 } }, latency: latency(0, 0), connectionsOpen: 10, eventLoopLagMs: 1.25, maxSendLagMs: 0 },
        { second: 2, sent: 10, received: 9, sentBytes: 20_480, receivedBytes: 18_432, fates: { ...emptyFates(), planned: 10, underOneSecond: 9 }, latency: latency(9, 1_500), connectionsOpen: 10, eventLoopLagMs: 0.5, maxSendLagMs: 2, reconnects: 3, dropped: 0 },
      ],
    } as unknown as RunResult;
    expect(runCsv(upgradeRunResult(result), versions).split('\n')).toEqual([
      'second,sent_per_s,received_per_s,sent_bytes_per_s,received_bytes_per_s,planned,under_1s,later,after_drain,lost,not_sent_backed_up,not_sent_reconnecting,not_sent_write_failed,not_sent_disconnected,not_sent_client_behind,not_sent_receiver_absent,not_sent_worker_lost,not_sent_run_stopped,over_count,p50_ms,p90_ms,p99_ms,p999_ms,max_ms,connections_open,event_loop_lag_ms,max_send_lag_ms,reconnects_per_s,dropped_per_s,server_cpu_percent,server_connections,server_deliveries_per_s,server_gc_pause_ms_per_s,server_thread_pool_queue,tool_version,signalr_client_version',
      // The buckets of the receptions planned in each second sum to its planned count; lost is
      // empty (not counted), never 0, while a run has not drained.
      // A second of a version 2 document without drop counts reads 0 (the upgrade at parse fills
      // them); a run without server metrics has empty server cells (unknown), never 0.
      '1,0,0,0,0,10,7,1,0,1,1,0,0,0,0,0,0,0,0,,,,,,10,1.3,0.0,0,0,,,,,,0.2.0,10.0.11',
      '2,10,9,20480,18432,10,9,0,0,,0,0,0,0,0,0,0,0,,1.500,1.500,3.000,4.500,6.000,10,0.5,2.0,3,0,,,,,,0.2.0,10.0.11',
      '',
    ]);
  });

  it('puts the server\'s figures of the same second beside the client\'s, empty where the server had none', () => {
    const point = { second: 1, sent: 4, received: 4, sentBytes: 8, receivedBytes: 8, fates: emptyFates(), latency: latency(4, 1_000), connectionsOpen: 2, eventLoopLagMs: 0, maxSendLagMs: 0 };
    const serverSecond = { second: 2, cpuPercent: 71.25, connections: 2, deliveriesPerSec: 4, gcPauseMsPerSec: 0.5, threadPoolQueue: 3, workingSetBytes: 1, kestrelConnections: 2, kestrelQueued: 0 };
    const result = {
      points: [point, { ...point, second: 2 }],
      server: { url: 'http://h/metrics', problem: null, failedScrapes: 0, deliveries: 4, points: [serverSecond] },
    } as unknown as RunResult;
    const lines = runCsv(result, versions).trim().split('\n');
    expect(lines[1]).toMatch(/,,,,,,0\.2\.0,10\.0\.11$/);
    expect(lines[2]).toMatch(/,71\.3,2,4\.0,0\.50,3,0\.2\.0,10\.0\.11$/);
  });
});

describe('comparisonCsv', () => {
  it('writes every run\'s seconds with the run\'s name first, quoting names that need it', () => {
    const point = { second: 1, sent: 4, received: 4, sentBytes: 8, receivedBytes: 8, fates: emptyFates(), latency: latency(4, 1_000), connectionsOpen: 2, eventLoopLagMs: 0, maxSendLagMs: 0 };
    const run = (second: number) => ({ points: [{ ...point, second }] }) as unknown as RunResult;
    const lines = comparisonCsv([{ label: 'WebSockets + JSON', result: run(1), versions }, { label: 'LP, "slow"', result: run(2), versions: { toolVersion: '0.1.0', signalrClientVersion: '10.0.11' } }]).trim().split('\n');
    expect(lines[0]).toMatch(/^run,second,sent_per_s,/);
    expect(lines[1]).toMatch(/^WebSockets \+ JSON,1,4,4,/);
    expect(lines[2]).toMatch(/^"LP, ""slow""",2,4,4,/);
    // Each run's row names the version that measured it.
    expect(lines[0]).toMatch(/,tool_version,signalr_client_version$/);
    expect(lines[1]).toMatch(/,0\.2\.0,10\.0\.11$/);
    expect(lines[2]).toMatch(/,0\.1\.0,10\.0\.11$/);
    expect(lines).toHaveLength(3);
  });
});
