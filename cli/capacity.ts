/**
 * `live-bench --find-capacity`: a capacity search (core/capacity/) whose steps are ordinary runs
 * of the runner's own machinery, fresh worker threads and a RunCoordinator per step. One line per
 * step, then the answer in the guide's terms; --json writes the search with every step, --html a
 * report with the search and the runs of the steps that held and broke.
 */
import { systemClock, systemTimers } from '../core/clocks/index.ts';
import {
  answerLines,
  loadText,
  capacitySection,
  capacityReportTitle,
  heldFigure,
  CapacitySearch,
  stepByIndex,
  limitedByText,
  judgedLoadOf,
  type CapacityResult,
  type CapacityStep,
} from '../core/capacity/index.ts';
import { formatCount, formatMs, formatShare } from '../core/format.ts';
import { keptRunOf, VERSIONS } from '../core/history/index.ts';
import { reportHtml } from '../core/report/index.ts';
import { RunCoordinator } from '../core/execution/index.ts';
import { runResult, type RunResult } from '../core/result/index.ts';
import { scenarioLabel, connectingText, instancesText } from '../core/run-config/index.ts';
import type { CliOptions } from './args.ts';
import { EXIT, writeResultFiles, type Output, type ResultFile } from './output.ts';
import { serverScraper } from './server-metrics.ts';
import { enginePort } from './engine-ports.ts';
import { engineProcessesEnded } from './process-port.ts';
import { stepEngines } from './engine-kind.ts';
import { healthChecks } from './health-check.ts';
import { RUN_WORDS } from './run-words.ts';
import { SEARCH_WORDS } from './search-words.ts';

/**
 * @param jsonOut where `--json -` writes the search (standard output, when `io.out` was sent to stderr).
 * @param openFilesSoft the runner's soft limit of open files: with --engines processes each step
 *   runs at least as many processes as its connections need at one process's share of it.
 */
export async function findCapacity(options: CliOptions, io: Output, jsonOut: (line: string) => void = io.out, openFilesSoft: number | null = null): Promise<number> {
  const { config: base, jsonPath, htmlPath } = options;
  const settings = options.capacity!;
  const client = `node ${process.version}`;
  const runs = new Map<number, RunResult>();
  let current: RunCoordinator | null = null;
  const search: CapacitySearch = new CapacitySearch(base, settings, async (planned, step) => {
    if (search.stopped) return null;
    const kind = options.engines ?? 'threads';
    const config = { ...planned, workers: stepEngines(planned, settings.ramp, options.workersGiven, kind, openFilesSoft) };
    const ports = Array.from({ length: config.workers }, (_, index) => enginePort(index, config.workers, kind));
    const coordinator = new RunCoordinator(config, ports, systemClock, systemTimers, { credentials: options.credentials });
    // Each step reads the server's metrics afresh, so its judgement can name the server's load.
    const scraper = serverScraper(options.serverMetricsUrl, io);
    current = coordinator;
    const startedAt = new Date();
    scraper?.start();
    coordinator.start();
    const waiting = waitNotices(coordinator, step.index, io);
    await coordinator.finished();
    clearInterval(waiting);
    await scraper?.stop();
    coordinator.terminate();
    await engineProcessesEnded();
    current = null;
    const measured = runResult(coordinator, startedAt, client, undefined, scraper?.record());
    // A step that did not pass asks the hubs how they are: evidence for its diagnosis.
    const health = measured.verdict.status === 'pass' ? [] : await healthChecks(config);
    const run = health.length > 0 ? runResult(coordinator, startedAt, client, undefined, scraper?.record(), undefined, { health }) : measured;
    runs.set(step.index, run);
    return run;
  }, {
    client: { name: client, connectionCap: null },
    clock: systemClock,
    timers: systemTimers,
    onStep: (step, result) => io.err(stepLine(result, step)),
  });
  const interrupt = (signal: NodeJS.Signals) => {
    io.err(RUN_WORDS.interrupted({ signal, search: true }));
    process.once('SIGINT', () => process.exit(130));
    process.once('SIGTERM', () => process.exit(143));
    search.stop();
    current?.stop();
  };
  process.once('SIGINT', interrupt);
  process.once('SIGTERM', interrupt);
  io.err(SEARCH_WORDS.start({ scenario: base.hubProfile ? scenarioLabel(base) : base.scenario, connecting: connectingText(base), instances: instancesText(base), ramp: settings.ramp, start: formatCount(settings.start), max: formatCount(settings.max), step: formatCount(settings.step), stepSec: settings.stepSec, settleSec: settings.settleSec, bisectSteps: settings.bisectSteps }));
  const result = await search.run();
  process.off('SIGINT', interrupt);
  process.off('SIGTERM', interrupt);

  for (const line of answerLines(result)) io.out(line);
  if (jsonPath === '-') jsonOut(JSON.stringify({ ...result, ...VERSIONS }));
  const writeFailed = !(await writeOutputs(result, runs, jsonPath, htmlPath, io));
  return searchExitCode(result, writeFailed, io);
}

/** A step that waits says so every this often, so a search never sits silent. */
export const WAIT_NOTICE_MS = 5_000;

/** "step 3: connecting, 0 of 400 open after 10 s", every 5 s while a step connects or drains. */
function waitNotices(coordinator: RunCoordinator, index: number, io: Output): ReturnType<typeof setInterval> {
  const startedMs = Date.now();
  return setInterval(() => {
    const phase = coordinator.phase;
    if (phase !== 'connecting' && phase !== 'draining') return;
    io.err(waitLine(index, phase, coordinator.aggregator.connectionsOpen(), coordinator.config.connections, coordinator.aggregator.totals().connectionsFailed, Date.now() - startedMs));
  }, WAIT_NOTICE_MS);
}

export function waitLine(index: number, phase: 'connecting' | 'draining', open: number, connections: number, failed: number, elapsedMs: number): string {
  const failedText = failed > 0 ? `, ${formatCount(failed)} failed` : '';
  return `step ${index}: ${phase}, ${formatCount(open)} of ${formatCount(connections)} open${failedText} after ${formatCount(Math.round(elapsedMs / 1_000))} s`;
}

/** "step 3 ramp: 600 msg/s (…)  received 598/s  p99 12.0 ms  under 1 s 100.00%  …  held". */
export function stepLine(result: CapacityResult, step: CapacityStep): string {
  const verdict = step.judgement.passed === true ? 'held' : step.judgement.passed === false ? `broke, ${limitedByText(step.judgement.limitedBy)}: ${step.judgement.reasons[0]}` : `not judged: ${step.judgement.reasons[0]}`;
  return [
    `step ${step.index} ${step.phase.padEnd(6)} ${loadText(result, step)}`,
    `open ${formatCount(step.connectionsOpened)}`,
    `held ${formatCount(heldFigure(step))}/s`,
    step.latency.count > 0 ? `p99 ${formatMs(step.latency.p99Us)}` : 'nothing arrived',
    `under 1 s ${step.verdict.share === null ? '–' : formatShare(step.verdict.share)}`,
    `delivery ${step.verdict.delivery === null ? '–' : formatShare(step.verdict.delivery)}`,
    `lag ${formatCount(step.health.maxEventLoopLagMs)} ms`,
    `missed ${formatCount(step.health.missedSlots)}`,
    verdict,
  ].join('  ');
}

/** Writes each requested file; false when one could not be written (said on stderr). */
async function writeOutputs(result: CapacityResult, runs: Map<number, RunResult>, jsonPath: string | null, htmlPath: string | null, io: Output): Promise<boolean> {
  const shown = [result.finding.heldStep, result.finding.brokeStep].map((index) => (index === null ? null : runs.get(index))).filter((run): run is RunResult => !!run);
  const writes: ResultFile[] = [
    // The search's document with the versions that made it, as a run's (cli/main.ts).
    ['JSON result', jsonPath === '-' ? null : jsonPath, () => JSON.stringify({ ...result, ...VERSIONS }, null, 2)],
    ['HTML report', htmlPath, () => {
      const kept = shown.map((run, i) => ({ ...keptRunOf(run, VERSIONS, new Date()), name: i === 0 && result.finding.heldStep !== null ? `Step ${result.finding.heldStep}: held` : `Step ${result.finding.brokeStep}: broke` }));
      return reportHtml({ title: capacityReportTitle(result), runs: kept, sections: [capacitySection(result)], generatedAt: new Date() });
    }],
  ];
  return writeResultFiles(writes, io, SEARCH_WORDS.stepsAbove());
}

/**
 * 0 found (or held up to the maximum), its break confirmed; 1 the first step broke (whichever
 * side), the client broke first, which side broke is unknown, the break was not confirmed (or its
 * confirming run failed for the other side), the service failed for a cause other than load, or
 * the search was stopped; 3 nothing was measured: the first step measured nothing, or a set-up
 * cause (a closed port, a token, a profile that does not match) ended the search.
 */
export function searchExitCode(result: CapacityResult, writeFailed: boolean, io: Output): number {
  const { finding } = result;
  const first = result.steps[0];
  const broken = stepByIndex(result, finding.brokeStep);
  if (finding.kind === 'fault') {
    const diagnosis = broken?.judgement.diagnosis;
    io.err(SEARCH_WORDS.fault({ step: finding.brokeStep, cause: diagnosis?.cause ?? finding.cause, sentence: diagnosis?.sentence ?? '' }));
    if (writeFailed) io.err(`live-bench: ${RUN_WORDS.resultFileUnwritten()}`);
    return finding.limitedBy === 'setup' ? EXIT.nothingMeasured : EXIT.notPassed;
  }
  if (first && first.judgement.passed === null && first.outcome.kind === 'failed') {
    io.err(SEARCH_WORDS.firstMeasuredNothing());
    return EXIT.nothingMeasured;
  }
  const reasons: string[] = [];
  if (finding.kind === 'firstStepFailed') reasons.push(SEARCH_WORDS.firstBroke({ limitedBy: finding.limitedBy }));
  if (finding.kind === 'found' && finding.limitedBy === 'client') reasons.push(SEARCH_WORDS.clientFirst());
  if (finding.kind === 'found' && finding.limitedBy === 'unknown') reasons.push(SEARCH_WORDS.sideUnknown());
  const confirming = result.steps.find((s) => s.phase === 'confirm' && broken && s.load === broken.load);
  if (finding.kind === 'found' && finding.confirmed === null && !result.steps.some((s) => s.judgement.passed === null)) reasons.push(SEARCH_WORDS.neverConfirmed({ step: finding.brokeStep }));
  if (finding.confirmed === false && confirming) reasons.push(SEARCH_WORDS.notConfirmed({ step: confirming.index, load: loadText(result, confirming) }));
  else if (finding.confirmed === true && confirming && broken && confirming.judgement.limitedBy !== broken.judgement.limitedBy) reasons.push(SEARCH_WORDS.sidesDiffer({ confirmStep: confirming.index, confirmBroke: limitedByText(confirming.judgement.limitedBy), step: broken.index, broke: limitedByText(broken.judgement.limitedBy) }));
  if (finding.brokeStep !== null && result.steps.some((s) => s.judgement.passed === null)) reasons.push(SEARCH_WORDS.stoppedBeforeConfirm());
  else if (finding.kind === 'found' && result.steps.some((s) => s.index > finding.brokeStep! && judgedLoadOf(s).unreachable)) reasons.push(SEARCH_WORDS.unreachableAfterBreak());
  if (finding.kind === 'unjudged') reasons.push(SEARCH_WORDS.unjudged({ reason: stepByIndex(result, result.steps.at(-1)?.index ?? null)?.judgement.reasons[0] ?? 'no step ran' }));
  if (writeFailed) reasons.push(RUN_WORDS.resultFileUnwritten());
  for (const reason of reasons) io.err(`live-bench: ${reason}`);
  return reasons.length > 0 ? EXIT.notPassed : EXIT.passed;
}
