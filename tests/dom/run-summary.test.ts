/** The summary says in words when the client, not the hub, is the limit. */
import { describe, expect, it } from 'vitest';
import { mount, unmount, flushSync } from 'svelte';
import RunSummary from '../../src/components/RunSummary.svelte';
import type { RunView } from '../../src/lib/run-controller.svelte.ts';
import { emptyErrorCounts, emptyTotals } from '../../core/execution/worker-messages.ts';
import { emptyFates, type Fates } from '../../core/accounting/fates.ts';
import { runVerdict, type RunOutcome } from '../../core/outcome/outcome.ts';
import { clientSchedule } from '../../core/client/schedule.ts';
import { explainLimit } from '../../core/server-metrics/attribution.ts';
import { emptyServerRecord, type ServerSecond } from '../../core/server-metrics/series.ts';
import { importRuns } from '../../core/history/kept-run.ts';
import { viewOfResult } from '../../src/lib/kept-view.ts';
import { finishedRun } from '../support/finished-run.ts';
import { runSummary } from '../../core/report/run-summary.ts';
import { reportHtml } from '../../core/report/html.ts';
import { summaryText } from '../../cli/report.ts';

const latency = { count: 100, p50Us: 900, p90Us: 1_500, p99Us: 4_000, p999Us: 9_000, maxUs: 12_000, meanUs: 1_000 };

const allInTime: Fates = { ...emptyFates(), planned: 100, underOneSecond: 100, lost: 0 };

function view(overrides: Partial<RunView>, outcome: RunOutcome = { kind: 'finished' }, fates: Fates = allInTime): RunView {
  return {
    phase: 'done',
    outcome,
    verdict: runVerdict({ outcome, fates, durationSec: 30, p99Us: latency.p99Us, lostWorkers: 0 }),
    judgedShare: null,
    fates,
    totals: { ...emptyTotals(), sent: 100, received: 100, connectionsOpened: 10 },
    connectionsOpen: 0,
    connectTimes: latency,
    latency,
    uncorrectedLatency: latency,
    errorCounts: emptyErrorCounts(),
    errorSamples: [],
    workerFailures: [],
    schedule: clientSchedule({ points: [{ second: 1, maxSendLagMs: 1, eventLoopLagMs: 2, fates: { planned: 100 } }], missedSlots: 0, sent: 100 }),
    workers: [{ workerIndex: 0, maxEventLoopLagMs: 2, maxSendLagMs: 1, missedSlots: 0, connectionsOpen: 10, lost: false }],
    agents: [],
    server: null,
    limit: explainLimit({ serverPeakCpuPercent: null, clientLagMs: 2, missedSlots: 0, sent: 0 }),
    sendStartUs: 0,
    sendEndUs: 0,
    sendOffsetSec: null,
    connectionsLostAtSec: null,
    recentLatency: null,
    ...overrides,
  };
}

function render(runView: RunView): { text: string; target: HTMLElement; destroy: () => void } {
  const target = document.createElement('div');
  const component = mount(RunSummary, { target, props: { view: runView, durationSec: 30 } });
  flushSync();
  return { text: (target.textContent ?? '').replace(/\s+/g, ' '), target, destroy: () => unmount(component) };
}

describe('RunSummary', () => {
  it('says nothing against the client when it kept its schedule', () => {
    const { text, destroy } = render(view({}));
    expect(text).toContain('Planned receptions: 100 planned: 100 in under 1 s (100.00%), 0 later, 0 lost, 0 never sent; delivery 100.00%.');
    expect(text).toContain('messages sent 100 · received 100');
    expect(text).not.toContain('could not keep the schedule');
    destroy();
  });

  it('a hub killed mid-run: the outcome says finished, the verdict a red Fail with what was lost', () => {
    const fates: Fates = { ...emptyFates(), planned: 200, underOneSecond: 56, notSent: { ...emptyFates().notSent, disconnected: 100 }, lost: 44 };
    const { text, target, destroy } = render(view({}, { kind: 'finished' }, fates));
    expect(target.querySelector('[data-testid=summary-outcome]')!.textContent).toBe('finished');
    const verdict = target.querySelector<HTMLElement>('[data-testid=summary-verdict]')!;
    expect(verdict.classList.contains('bad')).toBe(true);
    expect(verdict.textContent).toMatch(/^Fail: only 28\.00% of 200 planned receptions arrived in under 1 s \(delivery 28\.00%: 44 lost, 100 never sent/);
    expect(text).toContain('100 never sent (connection closed or never opened 100)');
    destroy();
  });

  it('over two hub instances: a row per instance beside the totals, the one that lost receptions marked', () => {
    const fates: Fates = { ...emptyFates(), planned: 200, underOneSecond: 160, lost: 40 };
    const instance = (endpointUrl: string, underOneSecond: number, notArrived: number) => ({ endpointUrl, connectionsPlanned: 5, connectionsOpened: 5, connectionsFailed: 0, planned: 100, underOneSecond, late: 0, afterDrain: 0, notArrived });
    const { target, destroy } = render(view({ instances: [instance('http://a.test/signalrbench', 100, 0), instance('http://b.test/signalrbench', 60, 40)] }, { kind: 'finished' }, fates));
    const rows = [...target.querySelectorAll<HTMLTableRowElement>('[data-testid=summary-instances] tbody tr')];
    expect(rows.map((row) => [...row.cells].map((cell) => cell.textContent))).toEqual([
      ['1: http://a.test/signalrbench', '5 planned, 5 opened, 0 failed', '100 receptions planned: 100 in under 1 s (100.00%), 0 later, 0 not arrived (lost or never sent)'],
      ['2: http://b.test/signalrbench', '5 planned, 5 opened, 0 failed', '100 receptions planned: 60 in under 1 s (60.00%), 0 later, 40 not arrived (lost or never sent)'],
    ]);
    expect(rows.map((row) => row.classList.contains('bad'))).toEqual([false, true]);
    destroy();
    const single = render(view({}));
    expect(single.target.querySelector('[data-testid=summary-instances]')).toBeNull();
    single.destroy();
  });

  it('a stopped run reads "stopped at 10 of 30 s" with no verdict, never a pass', () => {
    const { target, destroy } = render(view({}, { kind: 'stopped', stoppedAtSec: 10 }));
    expect(target.querySelector('[data-testid=summary-outcome]')!.textContent).toBe('stopped at 10 of 30 s');
    const verdict = target.querySelector<HTMLElement>('[data-testid=summary-verdict]')!;
    expect(verdict.classList.contains('good')).toBe(false);
    expect(verdict.textContent).toMatch(/^Stopped at 10 of 30 s: no verdict/);
    destroy();
  });

  it('while losses are unknown they read "not counted yet", never 0', () => {
    const outcome: RunOutcome = { kind: 'interrupted' };
    const { text, target, destroy } = render(view({}, outcome, { ...emptyFates(), planned: 100, underOneSecond: 60 }));
    expect(text).toContain('40 in flight (lost not counted yet)');
    expect(target.querySelector<HTMLElement>('[data-testid=summary]')!.dataset.lost).toBe('');
    destroy();
  });

  it('blames the client in words when sends missed their slots', () => {
    const { text, target, destroy } = render(view({
      totals: { ...view({}).totals, missedSlots: 12 },
      schedule: clientSchedule({ points: [{ second: 1, maxSendLagMs: 410, eventLoopLagMs: 340, fates: { planned: 100 } }], missedSlots: 12, sent: 100 }),
      workers: [
        { workerIndex: 0, maxEventLoopLagMs: 3, maxSendLagMs: 1, missedSlots: 0, connectionsOpen: 5, lost: false },
        { workerIndex: 1, maxEventLoopLagMs: 340, maxSendLagMs: 410, missedSlots: 12, connectionsOpen: 5, lost: false },
      ],
    }));
    expect(text).toContain('sends that missed their slot 12');
    expect(text).toContain('This browser could not keep the schedule');
    // Which worker lagged, in the per-worker table.
    const rows = [...target.querySelectorAll('[data-testid=worker-health] tbody tr')];
    expect(rows.map((row) => [...row.querySelectorAll('td')].map((td) => td.textContent))).toEqual([
      ['1', '5', '3.0 ms', '1.0 ms', '0'],
      ['2', '5', '340.0 ms', '410.0 ms', '12'],
    ]);
    expect(rows.map((row) => row.classList.contains('bad'))).toEqual([false, true]);
    destroy();
  });

  it('names the agents whose threads are workers of the run, and a lost one', () => {
    const health = (workerIndex: number, lost = false) => ({ workerIndex, maxEventLoopLagMs: 1, maxSendLagMs: 1, missedSlots: 0, connectionsOpen: lost ? 0 : 5, lost });
    const { target, destroy } = render(view({
      workers: [health(0), health(1), health(2, true)],
      agents: [{ name: 'rack-2', kind: 'node', client: 'node v20', firstWorkerIndex: 1, threads: 2, clockOffsetUs: 120, clockUncertaintyUs: 80, lost: true }],
    }));
    const labels = [...target.querySelectorAll('[data-testid=worker-health] tbody tr td:first-child')].map((td) => td.textContent);
    expect(labels).toEqual(['1', '2: rack-2, thread 1', '3: rack-2, thread 2 (lost)']);
    destroy();
  });

  it('lists the run\'s agents with the clock offset measured at its start and at its end (with the drift), and one whose clock was unknown', () => {
    const health = (workerIndex: number) => ({ workerIndex, maxEventLoopLagMs: 1, maxSendLagMs: 1, missedSlots: 0, connectionsOpen: 5, lost: false });
    const { target, destroy } = render(view({
      workers: [health(0), health(1), health(2), health(3)],
      agents: [
        { name: 'rack-2', kind: 'node', client: 'node v20', firstWorkerIndex: 1, threads: 2, clockOffsetUs: -20_150, clockUncertaintyUs: 150, clockMeasuredAtUs: 1_700_000_000_000_000,
          clockEnd: { offsetUs: -19_150, uncertaintyUs: 200, measuredAtUs: 1_700_000_040_000_000 }, lost: false },
        { name: 'lab', kind: 'browser', client: 'Chrome', firstWorkerIndex: 3, threads: 1, clockOffsetUs: null, clockUncertaintyUs: null, clockMeasuredAtUs: null, clockEnd: null, lost: false },
      ],
      clocks: { boundUs: 1_350, undecidable: 3, negative: 0, maxNegativeUs: null, rounds: 1 },
    }));
    const rows = [...target.querySelectorAll('[data-testid=run-agents] tbody tr')];
    expect(rows.map((row) => [...row.querySelectorAll('td')].map((td) => td.textContent))).toEqual([
      ['rack-2', 'node', '2–3', '-20.1 ms ± 0.15 ms', '-19.1 ms ± 0.20 ms (drift +25.0 µs/s)'],
      ['lab', 'browser', '4', 'unknown: no answer, ran on its own clock', 'no answer: drift unknown'],
    ]);
    expect(target.querySelector('[data-testid=summary-clocks]')?.textContent?.replace(/\s+/g, ' ').trim()).toBe('Clocks: latencies across agents known to ± 1.35 ms; 3 reception(s) undecidable (within that of the 1 s line).');
    expect(rows.map((row) => row.classList.contains('bad'))).toEqual([false, true]);
    destroy();
  });

  it('shows failures with their kind and count', () => {
    const { text, destroy } = render(view({
      errorCounts: { ...emptyErrorCounts(), negotiate: 3 },
      errorSamples: [{ kind: 'negotiate', message: 'WebSockets (json) to http://x/signalrbench: refused', count: 3 }],
    }));
    expect(text).toContain('errors 3 (negotiate 3)');
    expect(text).toContain('negotiate ×3: WebSockets (json) to http://x/signalrbench: refused');
    destroy();
  });
});

describe('RunSummary, the runner and the report say the same', () => {
  it('the connections, their connect time, the errors and every message figure, from the one summary model', async () => {
    const run = await finishedRun();
    const result = {
      ...run,
      totals: { ...run.totals, connectionsFailed: 2, disconnects: 3, reconnects: 3, unsolicited: 7 },
      errorCounts: { ...run.errorCounts, negotiate: 2, closed: 3 },
      errorSamples: [{ kind: 'negotiate' as const, message: 'WebSockets (json) to http://fake/signalrbench: refused', count: 2 }, { kind: 'closed' as const, message: 'the server closed it', count: 3 }],
    };
    const summary = runSummary({ ...result, schedule: clientSchedule({ points: result.points, missedSlots: result.totals.missedSlots, sent: result.totals.sent }) });
    const page = render(viewOfResult(result));
    const cli = summaryText(result);
    const report = reportHtml({ title: 'r', runs: [{ id: 'a', name: 'r', status: 'finished', savedAt: result.startedAt, toolVersion: '0', signalrClientVersion: '0', comparisonId: null, result }], generatedAt: new Date(0) }).replace(/<[^>]+>/g, '').replace(/&#39;/g, "'").replace(/&quot;/g, '"').replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&amp;/g, '&');
    const samples = summary.errorSamples.map((s) => `${s.head}: ${s.message}`);
    expect(samples).toEqual(['negotiate ×2: WebSockets (json) to http://fake/signalrbench: refused', 'closed ×3: the server closed it']);
    expect(summary.messageFacts).toContain(summary.unsolicited);
    for (const phrase of [summary.connections, ...summary.connectTime, summary.errors, ...samples, ...summary.messageFacts]) {
      expect(page.text, phrase).toContain(phrase);
      expect(cli, phrase).toContain(phrase);
      expect(report, phrase).toContain(phrase);
    }
    // The page and the report lay the connect line out alike.
    const line = `${summary.connectTime.join(' · ')} · ${summary.connections}`;
    expect(page.text).toContain(`Connect time: ${line}`);
    expect(report).toContain(line);
    expect(page.text).toContain(`errors ${summary.errors}`);
    page.destroy();
  });
});

describe('RunSummary: which side set the limit', () => {
  it('a kept run from before server metrics imports and reads "unknown" on the server side; with them, the server is named', async () => {
    const old = await finishedRun();
    // What an older version wrote: no "server" field. It still imports.
    const [imported] = importRuns(JSON.stringify(old), new Date('2026-01-03T00:00:00Z'));
    expect(imported!.result.server).toBeUndefined();
    const before = render(viewOfResult(imported!.result));
    const limit = before.target.querySelector<HTMLElement>('[data-testid=summary-limit]')!;
    expect(limit.dataset.limit).toBe('unknown');
    expect(limit.textContent).toContain('the server\'s load is unknown');
    before.destroy();

    const sending = old.points.find((p) => p.fates.planned > 0)!.second;
    const busy: ServerSecond = { second: sending, cpuPercent: 96, connections: 4, deliveriesPerSec: 40, gcPauseMsPerSec: 0, threadPoolQueue: 0, workingSetBytes: 1, kestrelConnections: 4, kestrelQueued: 0 };
    const withServer = { ...old, server: { ...emptyServerRecord('http://fake/metrics'), points: [busy] } };
    const after = render(viewOfResult(withServer));
    expect(after.target.querySelector('[data-testid=summary-limit]')!.textContent).toBe('The server was at 96% CPU while the client kept its schedule: the service is the limit.');
    after.destroy();
  });

  it('says receivers absent, an accounting error and another run\'s messages in words', () => {
    const fates: Fates = { ...emptyFates(), planned: 1_000, underOneSecond: 900, notSent: { ...emptyFates().notSent, receiverAbsent: 100, writeFailed: 2 }, lost: 0, overCount: 2 };
    const { text, target, destroy } = render(view({ totals: { ...emptyTotals(), sent: 100, received: 900, foreign: 250 } }, { kind: 'finished' }, fates));
    expect(text).toContain('the receiver never connected or never joined its group 100');
    expect(text).toContain('accounting error: 2 counted beyond the plan');
    expect(text).toContain('foreign 250 (another run or client on this hub: not counted as arrivals)');
    expect(text).toMatch(/Fail: accounting error: 2 receptions were counted beyond the plan/);
    const summary = target.querySelector<HTMLElement>('[data-testid=summary]')!;
    expect(summary.dataset).toMatchObject({ verdict: 'fail', overCount: '2', receiverAbsent: '100', foreign: '250' });
    destroy();
  });
});

describe('RunSummary with nothing arrived', () => {
  it('shows every unknown percentile as "–", never 0, also for a kept run that stored 0s', async () => {
    const empty = { count: 0, p50Us: null, p90Us: null, p99Us: null, p999Us: null, maxUs: null, meanUs: null };
    const live = render(view({ latency: empty, uncorrectedLatency: empty }));
    expect(live.text).toContain('Latency from planned send time: p50 – · p90 – · p99 – · p99.9 – · max – (no message arrived)');
    live.destroy();
    // A document written before unknown figures were null: 0 for an empty histogram.
    const result = await finishedRun({}, { deliveryDelayMs: 5, drop: () => true });
    const zeros = { count: 0, p50Us: 0, p90Us: 0, p99Us: 0, p999Us: 0, maxUs: 0, meanUs: 0 };
    const [kept] = importRuns(JSON.stringify({ ...result, latency: zeros, uncorrectedLatency: zeros }), new Date());
    const older = render(viewOfResult(kept!.result));
    expect(older.text).toContain('p50 – · p90 – · p99 – · p99.9 – · max –');
    expect(older.text).not.toContain('0.00 ms');
    older.destroy();
  });
});
