/** What the headless runner prints: one progress line a second, and the final summary. */
import { dropPlanText, dropsText } from '../core/drops/index.ts';
import { unaccountedOf } from '../core/accounting/index.ts';
import { recentRates, type RunAggregator } from '../core/execution/index.ts';
import { outcomeText } from '../core/outcome/index.ts';
import { diagnosisOf, type RunResult } from '../core/result/index.ts';
import { instancesText, scenarioLabel, connectingText, FIRST_ANSWER_MS } from '../core/run-config/index.ts';
import { diagnosisLines } from '../core/diagnosis/index.ts';
import { clientSchedule, connectCauseOf } from '../core/client/index.ts';
import { clockEndText, clockStartText } from '../core/clocks/index.ts';
import { formatCount, formatMs, formatShare } from '../core/format.ts';
import { judgeTiers, tierLoad } from '../core/tiers/index.ts';
import type { EditionId } from '../core/guide/index.ts';
import { runSummary, serverLines } from '../core/report/index.ts';
import type { ServerMetricsRecord } from '../core/server-metrics/index.ts';
import { RUN_WORDS } from './run-words.ts';

/**
 * The runner's word while no connection has opened yet, `afterMs` after the connects began, from the
 * evidence so far: refused connects are said to be refused (nothing listens there), not a
 * stalled hub, read as the engine reads them (core/client/connect-causes.ts); other failures
 * point at the first error; no answer at all is a hub that may be stalled, which the engine
 * gives up on FIRST_ANSWER_MS after its first connect.
 */
export function stallNotice(firstError: { message: string } | undefined, endpointUrl: string, afterMs: number): string {
  const opened = RUN_WORDS.noneOpened({ seconds: afterMs / 1_000 });
  if (firstError && connectCauseOf(firstError.message) === 'refused') return RUN_WORDS.connectsRefused({ opened, url: endpointUrl });
  if (firstError) return RUN_WORDS.connectsFail({ opened, url: endpointUrl });
  return RUN_WORDS.connectsWaiting({ opened, url: endpointUrl, giveUpSeconds: FIRST_ANSWER_MS / 1_000 });
}

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
  const inFlight = aggregator.unaccounted();
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
    ...(last?.reconnects || last?.dropped ? [`dropped ${formatCount(last.dropped)}/s  back ${formatCount(last.reconnects)}/s`] : []),
    ...(totals.foreign > 0 ? [`foreign ${formatCount(totals.foreign)}`] : []),
    ...(totals.unsolicited > 0 ? [`unsolicited ${formatCount(totals.unsolicited)}`] : []),
    ...(totals.altered > 0 ? [`altered ${formatCount(totals.altered)}`] : []),
    `errors ${formatCount(errors)}`,
  ].join('  ');
}

export function summaryText(result: RunResult): string {
  const { config, totals } = result;
  // The one rule and window (core/client/schedule.ts) the summary's "Limit" line also uses.
  const schedule = clientSchedule({ points: result.points, missedSlots: totals.missedSlots, sent: totals.sent });
  const summary = runSummary({ ...result, schedule });
  const lines = [
    `${config.hubProfile ? scenarioLabel(config) : config.scenario} over ${connectingText(config)} to ${instancesText(config)}`,
    `${formatCount(config.connections)} connections, ${formatCount(config.messageBytes)} B every ${formatCount(config.sendIntervalMs)} ms for ${config.durationSec} s`,
    `Connections: ${summary.connections}; connect time ${summary.connectTime.join(', ')}`,
    ...(result.drops ? [`Drops: ${dropPlanText(result.drops.settings, result.drops.stateful, config.endpointUrl)}`, `Reconnects: ${dropsText(result.drops)}`] : []),
    `Outcome: ${outcomeText(result.outcome, config.durationSec)}`,
    `Planned receptions: ${summary.fates}`,
    ...(summary.instances ?? []).map((instance, k) => `  instance ${k + 1}, ${instance.endpointUrl}: connections ${instance.connections}; ${instance.receptions}`),
    `Messages: ${summary.messageFacts.join(', ')}`,
    `Bytes the transport carried: ${summary.bytes.join(', ')}`,
    ...(summary.resent ? [`Resent: ${summary.resent}`] : []),
    // Unknown figures read "–" (formatMs of null), never 0.
    `Latency from planned send time: ${summary.latency.join(', ')} ${summary.latencyKnown ? `(${summary.uncorrected})` : '(no message was received)'}`,
    `Client: ${summary.client.join(', ')}` +
      (summary.clientBehind ? RUN_WORDS.clientBehind({ behind: summary.clientBehind }) : '.'),
    ...agentLines(result),
    ...serverLines(result),
    ...tierLines(result, 'current'),
    ...tierLines(result, '2019'),
  ];
  lines.push(`Verdict: ${result.verdict.sentence}`, ...diagnosisLines(diagnosisOf(result)), `Errors: ${summary.errors}`);
  for (const sample of summary.errorSamples) lines.push(`Error: ${sample.head}: ${sample.message}`);
  for (const failure of result.workerFailures) lines.push(failure);
  return lines.join('\n');
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
    ...unsolicitedTierLine(result, editionId, rates.inboundPerSec, rates.outboundPerSec),
  ];
}

/**
 * The hub's own messages (a welcome, another client's line) are traffic the service carried
 * too: the tier lines above count the tool's messages only, so when there were others the
 * service's real outbound rate is said beside them, with the tier it would need.
 */
function unsolicitedTierLine(result: RunResult, editionId: EditionId, inboundPerSec: number, outboundPerSec: number): string[] {
  const measuredSec = Math.max(1, result.config.durationSec - result.config.warmupSec);
  const unsolicitedPerSec = result.totals.unsolicited / measuredSec;
  if (unsolicitedPerSec <= 0) return [];
  const total = outboundPerSec + unsolicitedPerSec;
  const judged = judgeTiers(result.config, editionId, tierLoad(result.config, result.totals.connectionsOpened, inboundPerSec, total));
  const tier = judged.error ? '' : RUN_WORDS.hubOwnTier({ fittingTier: judged.fittingTier });
  const ratio = outboundPerSec > 0 ? ` (${(unsolicitedPerSec / outboundPerSec).toFixed(unsolicitedPerSec >= 10 * outboundPerSec ? 0 : 1)} for each of the tool's)` : '';
  return [RUN_WORDS.hubOwnMessages({ perSec: formatCount(unsolicitedPerSec), ratio, total: formatCount(total), tier })];
}

/** A led run's agents, as the page's summary lists them: threads, and the clock at the start and
 *  the end (core/clocks clockStartText, clockEndText); lost ones say so. */
function agentLines(result: RunResult): string[] {
  const agents = result.agents ?? [];
  if (agents.length === 0) return [];
  return [
    `Agents: ${agents.length}`,
    ...agents.map((agent) => {
      const lost = agent.lost || result.workers.slice(agent.firstWorkerIndex, agent.firstWorkerIndex + agent.threads).some((w) => w.lost);
      return `  ${agent.name}${lost ? ' (lost)' : ''}: ${agent.kind}, ${agent.threads} thread(s); clock at the start ${clockStartText(agent)}, at the end ${clockEndText(agent)}`;
    }),
  ];
}
