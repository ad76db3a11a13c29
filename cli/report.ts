/** What the headless runner prints: one progress line a second, and the final summary. */
import { clientSchedule } from '../core/client-schedule.ts';
import { dropPlanText, dropsText } from '../core/drop-report.ts';
import { fatesText, unaccountedOf } from '../core/fates.ts';
import { formatBytes, formatCount, formatMs, formatShare } from '../core/format.ts';
import { outcomeText } from '../core/run-outcome.ts';
import type { RunAggregator } from '../core/run-aggregator.ts';
import type { RunResult } from '../core/run-result.ts';
import { recentRates } from '../core/recent-rates.ts';
import { judgeTiers, tierLoad } from '../core/tier-view.ts';
import type { EditionId } from '../core/guide/index.ts';
import { serverLines } from '../core/server-metrics/summary.ts';
import type { ServerMetricsRecord } from '../core/server-metrics/series.ts';

/** The server's latest CPU and connections for the progress line: "server CPU 23% 50 conns"; "–" while unknown. */
export function serverProgress(record: ServerMetricsRecord): string {
  const last = record.points.at(-1);
  const cpu = last?.cpuPercent;
  const conns = last?.connections;
  return `server CPU ${cpu === null || cpu === undefined ? '–' : `${Math.round(cpu)}%`} ${conns === null || conns === undefined ? '–' : formatCount(conns)} conns`;
}

export function progressLine(aggregator: RunAggregator, phase: string, connections: number): string {
  const last = aggregator.points().at(-1);
  const totals = aggregator.totals();
  const inFlight = unaccountedOf(aggregator.fates());
  const errors = Object.values(aggregator.errorCounts()).reduce((a, b) => a + b, 0);
  const latency = last && last.latency.count > 0 ? `p50 ${formatMs(last.latency.p50Us)}  p99 ${formatMs(last.latency.p99Us)}` : 'no latency yet';
  const judged = aggregator.judgedShare();
  return [
    `${String(last?.second ?? 0).padStart(4)} s ${phase.padEnd(10)}`,
    `open ${formatCount(aggregator.connectionsOpen())} of ${formatCount(connections)}`,
    `in ${formatCount(last?.sent ?? 0)}/s  out ${formatCount(last?.received ?? 0)}/s`,
    latency,
    `in flight ${formatCount(inFlight)}`,
    `under 1 s ${judged === null ? '–' : formatShare(judged)}`,
    `lag ${(last?.eventLoopLagMs ?? 0).toFixed(0)} ms`,
    `missed ${formatCount(totals.missedSlots)}`,
    ...(last?.reconnects || last?.dropped ? [`dropped ${formatCount(last.dropped ?? 0)}/s  back ${formatCount(last.reconnects ?? 0)}/s`] : []),
    `errors ${formatCount(errors)}`,
  ].join('  ');
}

export function summaryText(result: RunResult): string {
  const { config, totals, latency } = result;
  const lines = [
    `${config.scenario} over ${config.transport} (${config.protocol}) to ${config.endpointUrl}`,
    `${formatCount(config.connections)} connections, ${formatCount(config.messageBytes)} B every ${formatCount(config.sendIntervalMs)} ms for ${config.durationSec} s`,
    `Connections: ${formatCount(totals.connectionsOpened)} opened, ${formatCount(totals.connectionsFailed)} failed, ${formatCount(totals.disconnects)} lost during the run, ${formatCount(totals.reconnects)} reconnected; connect p50 ${formatMs(result.connectTimes.p50Us)}, p99 ${formatMs(result.connectTimes.p99Us)}`,
    ...(result.drops ? [`Drops: ${dropPlanText(result.drops.settings)}`, `Reconnects: ${dropsText(result.drops)}`] : []),
    `Outcome: ${outcomeText(result.outcome, config.durationSec)}`,
    `Planned receptions: ${fatesText(result.fates)}`,
    `Messages: sent ${formatCount(totals.sent)}, received ${formatCount(totals.received)}, duplicated ${formatCount(totals.duplicated)}`,
    `Bytes (encoded): sent ${formatBytes(totals.sentBytes)}, received ${formatBytes(totals.receivedBytes)}`,
    latency.count > 0
      ? `Latency from planned send time: p50 ${formatMs(latency.p50Us)}, p90 ${formatMs(latency.p90Us)}, p99 ${formatMs(latency.p99Us)}, p99.9 ${formatMs(latency.p999Us)}, max ${formatMs(latency.maxUs)} (from actual send time: p99 ${formatMs(result.uncorrectedLatency.p99Us)})`
      : 'Latency: no message was received.',
    clientLine(result),
    ...serverLines(result),
    ...tierLines(result, 'current'),
    ...tierLines(result, '2019'),
  ];
  lines.push(`Verdict: ${result.verdict.sentence}`);
  for (const sample of result.errorSamples) lines.push(`Error (${sample.kind}) x${formatCount(sample.count)}: ${sample.message}`);
  for (const failure of result.workerFailures) lines.push(failure);
  return lines.join('\n');
}

function clientLine(result: RunResult): string {
  // The one rule and window (core/client-schedule.ts) the summary's "Limit" line also uses.
  const schedule = clientSchedule({ points: result.points, missedSlots: result.totals.missedSlots, sent: result.totals.sent });
  const backedUp = result.totals.backedUp > 0 ? `, slots not sent because a connection was backed up ${formatCount(result.totals.backedUp)}` : '';
  const skew = result.totals.negativeLatencies > 0 ? `, receptions before their planned time (clocks apart) ${formatCount(result.totals.negativeLatencies)}` : '';
  return `Client: worst lag while sending ${schedule.lagMs === null ? '–' : `${schedule.lagMs.toFixed(1)} ms`}, sends that missed their slot ${formatCount(result.totals.missedSlots)}${backedUp}${skew}` +
    (schedule.kept === false ? `. This client could not keep the schedule (it ${schedule.reasons.join(' and ')}): the figures include its own delay. Use more workers or fewer connections per machine.` : '.');
}

function tierLines(result: RunResult, editionId: EditionId): string[] {
  const rates = recentRates(result.points);
  const judged = judgeTiers(result.config, editionId, tierLoad(result.config, result.totals.connectionsOpened, rates.inboundPerSec, rates.outboundPerSec));
  if (judged.error) return [`Guide (${editionId} edition): ${judged.headline}`];
  const rows = judged.judgements.find((j) => j.tier === judged.defaultTier)?.rows ?? [];
  const head = judged.fittingTier ? `smallest fitting tier ${judged.fittingTier}` : `no tier fits; compared with ${judged.defaultTier}`;
  return [
    `Guide (${editionId} edition), ${head}: ${judged.headline}`,
    ...rows.map((row) => `  ${row.label}: ${row.text}${row.flag ? ` [published cell flagged: ${row.flag.reason}]` : ''}`),
  ];
}
