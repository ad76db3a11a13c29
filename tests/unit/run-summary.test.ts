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
import type { RunResult } from '../../core/run/result.ts';
import { finishedRun } from '../support/finished-run.ts';

const escaped = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&#39;');

async function busyRun(): Promise<RunResult> {
  const run = await finishedRun();
  return { ...run, totals: { ...run.totals, stale: 3, foreign: 7, backedUp: 2, negativeLatencies: 5 } };
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

  it('the runner\'s summary and the HTML report carry the same phrases', async () => {
    const run = await busyRun();
    const summary = runSummary({ ...run, schedule: clientSchedule({ points: run.points, missedSlots: run.totals.missedSlots, sent: run.totals.sent }) });
    const text = summaryText(run);
    const html = reportHtml({ title: 'r', runs: [{ id: 'a', name: 'r', status: 'finished', savedAt: run.startedAt, toolVersion: '0', signalrClientVersion: '0', comparisonId: null, result: run }], generatedAt: new Date(0) });
    for (const phrase of [summary.fates, ...summary.messages, summary.stale!, summary.foreign!, ...summary.bytes, ...summary.latency, summary.uncorrected, ...summary.client]) {
      expect(text, phrase).toContain(phrase);
      expect(html, phrase).toContain(escaped(phrase));
    }
  });
});
