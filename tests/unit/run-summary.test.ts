/**
 * One summary model (core/report/run-summary.ts): the runner's summary and the HTML report word
 * every figure the same way, from the same phrases (the page's RunSummary.svelte renders them too:
 * tests/dom/run-summary.test.ts).
 */
import { describe, expect, it } from 'vitest';
import { runSummary } from '../../core/report/run-summary.ts';
import { reportHtml } from '../../core/report/html.ts';
import { clientSchedule } from '../../core/client/schedule.ts';
import { summaryText } from '../../cli/report.ts';
import type { RunResult } from '../../core/result/result.ts';
import { finishedRun } from '../support/finished-run.ts';

const escaped = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&#39;');

async function busyRun(): Promise<RunResult> {
  const run = await finishedRun();
  return {
    ...run,
    totals: { ...run.totals, stale: 3, foreign: 7, backedUp: 2, negativeLatencies: 5, connectionsFailed: 2, disconnects: 3, reconnects: 3 },
    errorCounts: { ...run.errorCounts, negotiate: 2, closed: 3 },
    errorSamples: [{ kind: 'negotiate', message: 'WebSockets (json) to http://fake/signalrbench: refused <here>', count: 2 }, { kind: 'closed', message: 'the server closed it', count: 3 }],
  };
}

describe('the run summary model', () => {
  it('words the figures once: stale, foreign, backed-up slots and clocks apart only when there are any', async () => {
    const run = await busyRun();
    const summary = runSummary({ ...run, schedule: clientSchedule({ points: run.points, missedSlots: run.totals.missedSlots, sent: run.totals.sent }) });
    expect(summary.stale).toBe('too late to check 3');
    expect(summary.foreign).toBe('foreign 7 (another run or client on this hub: not counted as arrivals)');
    expect(summary.client).toEqual([expect.stringMatching(/^worst lag while sending /), `sends that missed their slot ${run.totals.missedSlots}`, 'slots not sent because a connection was backed up 2', 'receptions before their planned time (clocks apart) 5']);
    const quiet = await finishedRun();
    const plain = runSummary({ ...quiet, schedule: clientSchedule({ points: quiet.points, missedSlots: 0, sent: quiet.totals.sent }) });
    expect([plain.stale, plain.foreign, plain.resent]).toEqual([null, null, null]);
    expect(plain.client).toHaveLength(2);
  });

  it('words the connections, their connect time and the errors once; a connect time nobody measured is said, never 0', async () => {
    const run = await busyRun();
    const summary = runSummary({ ...run, schedule: clientSchedule({ points: run.points, missedSlots: run.totals.missedSlots, sent: run.totals.sent }) });
    expect(summary.connections).toBe(`${run.totals.connectionsOpened} opened, 2 failed, 3 lost during the run, 3 reconnected`);
    expect(summary.connectTime).toEqual([expect.stringMatching(/^p50 \d/), expect.stringMatching(/^p99 \d/), expect.stringMatching(/^max \d/)]);
    expect(summary.errors).toBe('5 (negotiate 2, closed 3)');
    expect(summary.errorSamples.map((s) => `${s.head}: ${s.message}`)).toEqual(['negotiate ×2: WebSockets (json) to http://fake/signalrbench: refused <here>', 'closed ×3: the server closed it']);
    const quiet = await finishedRun();
    const none = runSummary({ ...quiet, connectTimes: { ...quiet.connectTimes, count: 0 }, totals: { ...quiet.totals, connectionsOpened: 0 }, schedule: clientSchedule({ points: quiet.points, missedSlots: 0, sent: 0 }) });
    expect(none.connectTime).toEqual(['no connection opened']);
    expect(none.connections).toBe('0 opened, 0 failed');
    expect([none.errors, none.errorSamples]).toEqual(['0', []]);
  });

  it('the runner\'s summary and the HTML report carry the same phrases', async () => {
    const busy = await busyRun();
    const run = { ...busy, totals: { ...busy.totals, unsolicited: 3 } };
    const summary = runSummary({ ...run, schedule: clientSchedule({ points: run.points, missedSlots: run.totals.missedSlots, sent: run.totals.sent }) });
    const text = summaryText(run);
    const html = reportHtml({ title: 'r', runs: [{ id: 'a', name: 'r', status: 'finished', savedAt: run.startedAt, toolVersion: '0', signalrClientVersion: '0', comparisonId: null, result: run }], generatedAt: new Date(0) });
    const samples = summary.errorSamples.map((s) => `${s.head}: ${s.message}`);
    // The report's words, without its markup (a sample's head is in bold).
    const htmlText = html.replace(/<[^>]+>/g, '');
    for (const phrase of [summary.fates, ...summary.messageFacts, summary.unsolicited!, ...summary.bytes, ...summary.latency, summary.uncorrected, ...summary.client, summary.connections, ...summary.connectTime, summary.errors, ...samples]) {
      expect(text, phrase).toContain(phrase);
      expect(htmlText, phrase).toContain(escaped(phrase));
    }
  });
});
