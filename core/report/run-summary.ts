/**
 * A run's summary as one model of figures and phrases, which the runner's summary (cli/report.ts),
 * the HTML report (run-report.ts) and the page (RunSummary.svelte) each lay out in their own way
 * (lines joined with ", " in a terminal, " · " on the page and in the report): a figure is worded
 * once, here, so the three never drift apart. Unknown figures read "–" (formatMs of null), never 0.
 * Pure.
 */
import { fatesText, type Fates, type WorkerTotals } from '../run/index.ts';
import type { LatencySummary } from '../latency/index.ts';
import type { ClientSchedule } from '../client/index.ts';
import { resentText } from '../drops/index.ts';
import { formatBytes, formatCount, formatMs } from '../format.ts';

export interface SummaryInput {
  fates: Fates;
  totals: WorkerTotals;
  latency: LatencySummary;
  uncorrectedLatency: LatencySummary;
  /** The client's schedule by the one rule (core/client/schedule.ts). */
  schedule: ClientSchedule;
}

export interface RunSummaryModel {
  /** What became of every planned reception (core/run/fates.ts). */
  fates: string;
  /** "sent 1,000", "received 990", "duplicated 0". */
  messages: [sent: string, received: string, duplicated: string];
  /** "too late to check 3": receptions beyond the duplicate-detection window; null when none. */
  stale: string | null;
  /** Another run's messages on the same hub, counted apart; null when none. */
  foreign: string | null;
  /** Calls of the receive method that were not the tool's (a welcome message, another client's
   *  line), counted apart; null when none. */
  unsolicited: string | null;
  /** Encoded bytes: "sent 2.0 MB", "received 1.9 MB". */
  bytes: [sent: string, received: string];
  /** Stateful reconnect's second copies; null when none (core/drops/report.ts). */
  resent: string | null;
  /** True when any message arrived: the latency figures are measured. */
  latencyKnown: boolean;
  /** Latency from the planned send time: "p50 1.00 ms" … "max 9.00 ms". */
  latency: string[];
  /** "from actual send time: p99 1.20 ms". */
  uncorrected: string;
  /** The client's own health: worst lag, missed slots, and backed-up slots and clocks apart when any. */
  client: string[];
  /** Why the client could not keep its schedule ("was 150 ms late", …); null when it kept it or nobody can tell. */
  clientBehind: string | null;
}

export function runSummary({ fates, totals, latency, uncorrectedLatency, schedule }: SummaryInput): RunSummaryModel {
  return {
    fates: fatesText(fates),
    messages: [`sent ${formatCount(totals.sent)}`, `received ${formatCount(totals.received)}`, `duplicated ${formatCount(totals.duplicated)}`],
    stale: totals.stale > 0 ? `too late to check ${formatCount(totals.stale)}` : null,
    foreign: totals.foreign ? `foreign ${formatCount(totals.foreign)} (another run or client on this hub: not counted as arrivals)` : null,
    unsolicited: totals.unsolicited ? `unsolicited ${formatCount(totals.unsolicited)} (the hub's own messages or another client's, not the tool's: not counted as arrivals)` : null,
    bytes: [`sent ${formatBytes(totals.sentBytes)}`, `received ${formatBytes(totals.receivedBytes)}`],
    resent: resentText(totals),
    latencyKnown: latency.count > 0,
    latency: [`p50 ${formatMs(latency.p50Us)}`, `p90 ${formatMs(latency.p90Us)}`, `p99 ${formatMs(latency.p99Us)}`, `p99.9 ${formatMs(latency.p999Us)}`, `max ${formatMs(latency.maxUs)}`],
    uncorrected: `from actual send time: p99 ${formatMs(uncorrectedLatency.p99Us)}`,
    client: [
      `worst lag while sending ${schedule.lagMs === null ? '–' : `${schedule.lagMs.toFixed(1)} ms`}`,
      `sends that missed their slot ${formatCount(totals.missedSlots)}`,
      ...(totals.backedUp > 0 ? [`slots not sent because a connection was backed up ${formatCount(totals.backedUp)}`] : []),
      ...(totals.negativeLatencies > 0 ? [`receptions before their planned time (clocks apart) ${formatCount(totals.negativeLatencies)}`] : []),
    ],
    clientBehind: schedule.kept === false ? schedule.reasons.join(' and ') : null,
  };
}
