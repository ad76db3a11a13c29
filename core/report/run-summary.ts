/**
 * A run's summary as one model of figures and phrases (connections and their connect time, the
 * messages, latency, errors and the client's health), which the runner's summary (cli/report.ts),
 * the HTML report (run-report.ts) and the page (RunSummary.svelte) each lay out in their own way
 * (lines joined with ", " in a terminal, " · " on the page and in the report): a figure is worded
 * once, here, so the three never drift apart. Unknown figures read "–" (formatMs of null), never 0.
 * Pure.
 */
import { fatesText } from '../accounting/index.ts';
import { type ErrorSample } from '../execution/index.ts';
import { type RunResult } from '../result/index.ts';
import { type InstanceFigures } from '../run-config/index.ts';
import type { ClientSchedule } from '../client/index.ts';
import { resentText } from '../drops/index.ts';
import { formatBytes, formatCount, formatMs, formatShare } from '../format.ts';
import { REPORT_WORDS as W } from './words.ts';

/** A run's figures as a kept run (RunResult) or the page's live view has them. */
export type SummaryInput = Pick<RunResult, 'fates' | 'totals' | 'latency' | 'uncorrectedLatency' | 'connectTimes' | 'errorCounts' | 'errorSamples'> & {
  /** The client's schedule by the one rule (core/client/schedule.ts). */
  schedule: ClientSchedule;
  /** Per hub instance, with several (core/run-config/hub-instances.ts); absent for one. */
  instances?: InstanceFigures[];
};

/** One hub instance's figures, worded: "http://a/signalrbench", "10 planned, 10 opened, 0 failed", … */
export interface InstanceSummary {
  endpointUrl: string;
  connections: string;
  /** The receptions planned for its connections: "40 planned: 40 in under 1 s (100.00%), 0 later, 0 not arrived". */
  receptions: string;
}

export interface RunSummaryModel {
  /** What became of every planned reception (core/accounting/fates.ts). */
  fates: string;
  /** "sent 1,000", "received 990", "duplicated 0". */
  messages: [sent: string, received: string, duplicated: string];
  /** "too late to check 3": receptions beyond the duplicate-detection window; null when none. */
  stale: string | null;
  /** Another run's messages on the same hub, counted apart; null when none. */
  foreign: string | null;
  /** Receptions whose text the hub cut or changed (counted as received too); null when none. */
  altered: string | null;
  /** Every message figure in the order said: messages, then the altered, stale, foreign and
   *  unsolicited ones when there are any. What the runner, the report and the page print as one line. */
  messageFacts: string[];
  /** "10 opened, 2 failed", and ", 3 lost during the run, 3 reconnected" when any was lost. */
  connections: string;
  /** Time to open a connection: "p50 12.0 ms", "p99 30.0 ms", "max 41.0 ms"; ["no connection opened"]
   *  when none did (unknown, never 0). */
  connectTime: string[];
  /** Failures by kind: "3 (negotiate 2, connect 1)", or "0". */
  errors: string;
  /** Each distinct failure: "negotiate ×2" (head) and its message, said "negotiate ×2: message". */
  errorSamples: { head: string; message: string }[];
  /** Calls of the receive method that were not the tool's (a welcome message, another client's
   *  line), counted apart; null when none. */
  unsolicited: string | null;
  /** Bytes the transport carried: "sent 2.0 MB", "received 1.9 MB". */
  bytes: [sent: string, received: string];
  /** Stateful reconnect's second copies; null when none (core/drops/drop-report.ts). */
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
  /** Each hub instance's share beside the totals (they sum to them); null for one instance. */
  instances: InstanceSummary[] | null;
}

/** One distinct failure, said "negotiate ×2: message" wherever it is shown (the failed run's box too). */
export function errorSampleText(sample: ErrorSample): { head: string; message: string } {
  return { head: `${sample.kind} ×${formatCount(sample.count)}`, message: sample.message };
}

export function runSummary({ fates, totals, latency, uncorrectedLatency, connectTimes, errorCounts, errorSamples, schedule, instances }: SummaryInput): RunSummaryModel {
  const kinds = Object.entries(errorCounts).filter(([, n]) => n > 0);
  const errorTotal = kinds.reduce((sum, [, n]) => sum + n, 0);
  const messages: [string, string, string] = [`sent ${formatCount(totals.sent)}`, `received ${formatCount(totals.received)}`, `duplicated ${formatCount(totals.duplicated)}`];
  const stale = totals.stale > 0 ? `too late to check ${formatCount(totals.stale)}` : null;
  const foreign = totals.foreign ? W.foreign({ count: formatCount(totals.foreign) }) : null;
  const unsolicited = totals.unsolicited ? W.unsolicited({ count: formatCount(totals.unsolicited) }) : null;
  const altered = totals.altered ? W.altered({ count: formatCount(totals.altered) }) : null;
  return {
    fates: fatesText(fates),
    messages,
    stale,
    foreign,
    altered,
    connections:
      `${formatCount(totals.connectionsOpened)} opened, ${formatCount(totals.connectionsFailed)} failed` +
      (totals.disconnects > 0 ? `, ${formatCount(totals.disconnects)} lost during the run, ${formatCount(totals.reconnects)} reconnected` : ''),
    connectTime: connectTimes.count === 0
      ? ['no connection opened']
      : [`p50 ${formatMs(connectTimes.p50Us)}`, `p99 ${formatMs(connectTimes.p99Us)}`, `max ${formatMs(connectTimes.maxUs)}`],
    errors: errorTotal === 0 ? '0' : `${formatCount(errorTotal)} (${kinds.map(([kind, n]) => `${kind} ${formatCount(n)}`).join(', ')})`,
    errorSamples: errorSamples.map(errorSampleText),
    unsolicited,
    messageFacts: [...messages, altered, stale, foreign, unsolicited].filter((fact): fact is string => fact !== null),
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
    instances: instances && instances.length > 1 ? instances.map(instanceSummary) : null,
  };
}

/** "Not arrived" is lost and never sent together: per instance the two are not told apart (core/run-config/hub-instances.ts). */
function instanceSummary(instance: InstanceFigures): InstanceSummary {
  const arrived = instance.underOneSecond + instance.late + instance.afterDrain;
  const share = instance.planned > 0 ? ` (${formatShare(instance.underOneSecond / instance.planned)})` : '';
  return {
    endpointUrl: instance.endpointUrl,
    connections: `${formatCount(instance.connectionsPlanned)} planned, ${formatCount(instance.connectionsOpened)} opened, ${formatCount(instance.connectionsFailed)} failed`,
    receptions: instance.planned === 0
      ? 'no reception planned'
      : [
        `${formatCount(instance.planned)} receptions planned: ${formatCount(instance.underOneSecond)} in under 1 s${share}`,
        `${formatCount(instance.late)} later`,
        ...(instance.afterDrain > 0 ? [`${formatCount(instance.afterDrain)} after the drain`] : []),
        instance.notArrived === null
          ? `${formatCount(Math.max(0, instance.planned - arrived))} not arrived yet`
          : `${formatCount(instance.notArrived)} not arrived (lost or never sent)`,
      ].join(', ') + (instance.p99Us === undefined ? '' : `; p99 ${formatMs(instance.p99Us)}`),
  };
}
