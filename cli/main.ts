/**
 * The headless runner: the dashboard's engine in Node worker threads, for runs past one
 * browser's connection limits and for smoke tests in CI pipelines.
 */
import { constants } from 'node:fs';
import { access, stat } from 'node:fs/promises';
import path from 'node:path';
import { systemClock, systemTimers } from '../core/clocks/index.ts';
import { RunCoordinator } from '../core/execution/index.ts';
import { outcomeText, lostEnginesReason } from '../core/outcome/index.ts';
import { runResult, diagnosisOf, type RunResult } from '../core/result/index.ts';
import { credentialsSummary, hubInstances, instancesText, scenarioLabel, connectingText } from '../core/run-config/index.ts';
import { keptRunOf, VERSIONS } from '../core/history/index.ts';
import { reportHtml } from '../core/report/index.ts';
import { runAgent } from './agent.ts';
import { fleetRunPorts } from '../core/fleet/index.ts';
import { LEAD_USAGE, splitLeadArgs } from './lead-args.ts';
import { startLead } from './lead.ts';
import { findCapacity } from './capacity.ts';
import { parseCliArgs, USAGE, type Thresholds } from './args.ts';
import { checkClientLimits, loadOfRun, readClientLimits } from './client-limits.ts';
import { progressLine, serverProgress, stallNotice, summaryText } from './report.ts';
import { enginePort, runsInThreads } from './engine-ports.ts';
import { chooseEngines, enginesText } from './engine-kind.ts';
import { engineProcessesEnded, engineProcessIds } from './process-port.ts';
import { brokenThresholds } from './thresholds.ts';
import { checkThresholds, lossRuleReason, thresholdLines, type ThresholdCheck } from '../core/thresholds/index.ts';
import { heapProbe, startMemoryLog } from './memory-log.ts';
import { healthChecks } from './health-check.ts';
import { consoleOutput, EXIT, exitCodeOf, writeResultFiles, type Output, type ResultFile } from './output.ts';
import { errorMessageOf } from '../core/errors/index.ts';
import { serverScrapers } from './server-metrics.ts';
import { sameInstanceRefusals } from './instance-check.ts';
import { scrubbedOutput } from './auth-args.ts';
import { firstToken, refreshTokens } from './token-command.ts';
import { profileCredentialProblems } from './profile-args.ts';
import { RUN_WORDS } from './run-words.ts';
import { serveDashboard } from './serve.ts';
import { versionLine } from './version.ts';

export { EXIT, type Output };

/** A run with no connection open after this long says so, once, while it keeps trying
 *  (before the engine gives up on a hub that does not answer, FIRST_ANSWER_MS). */
const STALL_NOTICE_MS = 3_000;

export { crashText, runCli } from './output.ts';

export async function main(argv: string[], io: Output = consoleOutput): Promise<number> {
  if (argv[0] === 'serve') return serveDashboard(argv.slice(1), io);
  if (argv.includes('--version')) {
    io.out(versionLine());
    return EXIT.passed;
  }
  if (argv.some((arg) => arg === '--agent' || arg.startsWith('--agent='))) return runAgent(argv, io);
  // A headless lead (cli/lead.ts): its own options come out first; the rest describe the run.
  const split = splitLeadArgs(argv);
  const lead = split.ok ? split.lead : null;
  if (!split.ok && split.help) {
    io.out(`${LEAD_USAGE}\n\n${USAGE}`);
    return EXIT.passed;
  }
  const parsed = parseCliArgs(split.rest);
  if (parsed.ok === 'help') {
    io.out(lead ? `${LEAD_USAGE}\n\n${USAGE}` : USAGE);
    return EXIT.passed;
  }
  if (!parsed.ok || !split.ok) {
    for (const error of [...(split.ok ? [] : split.errors), ...(parsed.ok ? [] : parsed.errors)]) io.err(`live-bench: ${error}`);
    io.err(RUN_WORDS.nothingRun({ fix: 'options' }));
    return EXIT.badInput;
  }
  const { thresholds, jsonPath, htmlPath, memoryLogPath, serverMetricsUrls, quiet } = parsed.options;
  // --access-token-command: the first token before anything connects, then fresh ones before
  // each expires, to the run's connections (the agents' too) from their next request on.
  const tokenCommand = parsed.options.tokenCommand;
  let scrubbing = parsed.options.credentials;
  let freshToken: (token: string) => void = () => {};
  let stopRefreshing = () => {};
  if (tokenCommand) {
    const first = await firstToken(tokenCommand, io);
    if ('error' in first) {
      io.err(`live-bench: ${first.error}.`);
      io.err(RUN_WORDS.nothingRun({}));
      return EXIT.badInput;
    }
    parsed.options.credentials = { ...parsed.options.credentials, accessTokens: [first.token] };
    // A profile that delivers to users needs the token's user: known only now.
    const profile = parsed.options.config.hubProfile;
    const userRefusals = profile ? profileCredentialProblems(parsed.options.hubProfileFile ?? 'the profile', profile, [first.token]) : [];
    if (userRefusals.length > 0) {
      for (const refusal of userRefusals) io.err(RUN_WORDS.tokenCommandUser({ refusal }));
      io.err(RUN_WORDS.nothingRun({}));
      return EXIT.badInput;
    }
    // Every token it gave stays scrubbed from every line, the replaced ones too.
    scrubbing = { ...parsed.options.credentials, accessTokens: [first.token] };
    stopRefreshing = refreshTokens(tokenCommand, first.token, io, (token) => {
      scrubbing.accessTokens.push(token);
      parsed.options.credentials = { ...parsed.options.credentials, accessTokens: [token] };
      freshToken(token);
    });
  }
  // From here every line passes the one scrub, whoever wrote it.
  io = scrubbedOutput(io, scrubbing);
  // One instance under two names that only DNS tells apart: refused before anything starts.
  const sameInstance = await sameInstanceRefusals(hubInstances(parsed.options.config), serverMetricsUrls);
  if (sameInstance.length > 0) {
    for (const refusal of sameInstance) io.err(`live-bench: ${refusal}`);
    io.err(RUN_WORDS.nothingRun({ fix: 'instances' }));
    return EXIT.badInput;
  }
  // `--json -`: standard output carries the JSON alone (for `| jq`); every other word goes to stderr.
  const jsonOut = io.out;
  if (jsonPath === '-') io = { out: io.err, err: io.err };
  const pathErrors = await unwritablePaths([['--json', jsonPath === '-' ? null : jsonPath], ['--html', htmlPath], ['--memory-log', memoryLogPath]]);
  if (pathErrors.length > 0) {
    for (const error of pathErrors) io.err(`live-bench: ${error}`);
    io.err(RUN_WORDS.nothingRun({ fix: 'paths' }));
    return EXIT.badInput;
  }
  // The runner's own limits before it connects: a run they cannot hold is refused with what to type.
  // A lead that runs no connection itself leaves them to its agents, each of which checks its own.
  const clientLimits = readClientLimits();
  // Threads or processes, and how many (a capacity search and a lead's own engines keep threads unless asked).
  // A capacity search's processes are counted for its largest step (each step takes what it needs, cli/capacity.ts).
  const openFilesSoft = clientLimits.openFiles?.soft ?? null;
  const { capacity } = parsed.options;
  const choice = lead || (capacity && parsed.options.engines !== 'processes')
    ? { kind: parsed.options.engines ?? 'threads', count: parsed.options.config.workers, reason: 'asked with --engines processes' } as const
    : chooseEngines({ connections: capacity?.ramp === 'connections' ? capacity.max : parsed.options.config.connections, workers: parsed.options.config.workers, asked: parsed.options.engines, openFilesSoft });
  const config = { ...parsed.options.config, workers: choice.count };
  const limits = lead && !lead.includeLocal ? { warnings: [], refusals: [] } : checkClientLimits(clientLimits, loadOfRun(config, parsed.options.capacity, parsed.options.workersGiven, undefined, choice));
  for (const warning of [...parsed.options.warnings, ...limits.warnings]) io.err(`live-bench: warning: ${warning}`);
  if (limits.refusals.length > 0) {
    for (const refusal of limits.refusals) io.err(`live-bench: ${refusal}`);
    io.err(RUN_WORDS.nothingRun({ fix: 'limits' }));
    return EXIT.badInput;
  }
  if (capacity) return findCapacity(parsed.options, io, jsonOut, openFilesSoft);
  // With --lead: the session opened, the agents come, their part planned (an exit code if not).
  let led;
  try {
    led = lead ? await startLead(lead, config, parsed.options.credentials, io) : null;
  } catch (error) {
    io.err(`live-bench: ${errorMessageOf(error)}`);
    return exitCodeOf(error);
  }
  const localWorkers = led && !led.remote.includeLocal ? 0 : config.workers;
  // One engine runs in this thread: its heap is the main thread's, logged as such.
  // Engine processes have no probe: the log sums their resident memory with the runner's.
  const probes = memoryLogPath && runsInThreads(config.workers, choice.kind) ? Array.from({ length: localWorkers }, heapProbe) : [];
  const local = Array.from({ length: localWorkers }, (_, index) => enginePort(index, config.workers, choice.kind, probes[index]?.threadEnd));
  // The agents' threads after the lead's own engines, with the longer lead time "go" needs to cross the control hub.
  const { ports, goLeadMs, capacities } = fleetRunPorts(local, led?.remote);
  const stopMemoryLog = memoryLogPath ? startMemoryLog(memoryLogPath, probes.map((p) => p.probe), undefined, undefined, engineProcessIds) : async () => {};
  // Read beside the run, never in its way: a failure is said once and the run goes on.
  const scraper = serverScrapers(serverMetricsUrls, io);
  let printedSecond = 0;
  let firstErrorShown = false;
  let notTriedShown = false;
  const coordinator: RunCoordinator = new RunCoordinator(config, ports, systemClock, systemTimers, { credentials: parsed.options.credentials, goLeadMs, capacities, onUpdate: () => {
    const a = coordinator.aggregator;
    watchForStall();
    // The first failure's reason at once: "errors 20" alone says nothing about what to fix.
    const first = a.errorSamples()[0];
    if (!firstErrorShown && first) {
      firstErrorShown = true;
      io.err(`live-bench: first error (${first.kind}): ${first.message}`);
    }
    // Connecting cut short (a hub that stopped answering, or nothing could open): said once, as it happens.
    const notTried = notTriedShown ? undefined : a.errorSamples().find((sample) => / connections were not tried: /.test(sample.message));
    if (notTried) {
      notTriedShown = true;
      if (notTried !== first) io.err(`live-bench: ${notTried.message}`);
    }
    const last = a.points().at(-1);
    if (!quiet && last && last.second > printedSecond) {
      printedSecond = last.second;
      io.err(progressLine(a, coordinator.phase, config.connections) + (scraper ? `  ${serverProgress(scraper.record())}` : ''));
    }
  } });
  // Counted from the first report of connects under way, not from the run's start: engines that
  // take seconds to start (processes, 12,500 connections each to build) are the client's time,
  // not a hub that does not answer.
  let stallTimer: ReturnType<typeof setTimeout> | undefined;
  const watchForStall = () => {
    const a = coordinator.aggregator;
    if (stallTimer || (a.connectionsConnecting() === 0 && a.errorSamples().length === 0)) return;
    stallTimer = setTimeout(() => {
      if (coordinator.phase !== 'connecting' || coordinator.aggregator.connectionsOpen() > 0) return;
      io.err(stallNotice(coordinator.aggregator.errorSamples()[0], config.endpointUrl, STALL_NOTICE_MS));
    }, STALL_NOTICE_MS);
  };
  // The first Ctrl+C or SIGTERM ends the run early and keeps what was measured; a second one quits.
  const interrupt = (signal: NodeJS.Signals) => {
    io.err(RUN_WORDS.interrupted({ signal, search: false }));
    process.once('SIGINT', () => process.exit(130));
    process.once('SIGTERM', () => process.exit(143));
    coordinator.stop();
  };
  process.once('SIGINT', interrupt);
  process.once('SIGTERM', interrupt);
  const startedAt = new Date();
  const secrets = credentialsSummary(parsed.options.credentials);
  const engines = led ? `${led.remote.agents.length} agent(s) with ${led.remote.ports.length} thread(s)${localWorkers > 0 ? ` and ${localWorkers} engine(s) of the lead` : ''}` : enginesText(choice);
  io.err(`live-bench: ${config.hubProfile ? scenarioLabel(config) : config.scenario}, ${config.connections} connections over ${connectingText(config)} to ${instancesText(config)}, ${engines}${secrets ? ` (${secrets})` : ''}`);
  scraper?.start();
  freshToken = (token) => coordinator.freshTokens([token]);
  coordinator.start();
  await coordinator.finished();
  stopRefreshing();
  await scraper?.stop();
  clearTimeout(stallTimer);
  process.off('SIGINT', interrupt);
  process.off('SIGTERM', interrupt);
  await stopMemoryLog();
  coordinator.terminate();
  await engineProcessesEnded();
  // The agents' closing clock round (their drift is in the verdict), then the session ends.
  const agents = led ? await led.end(led.remote.agents) : undefined;

  const measured = runResult(coordinator, startedAt, `node ${process.version}`, agents, scraper?.record());
  // A run that did not pass asks the hubs how they are: their word is evidence for the diagnosis.
  const health = measured.verdict.status === 'pass' ? [] : await healthChecks(config);
  const result = health.length > 0 ? runResult(coordinator, startedAt, `node ${process.version}`, agents, scraper?.record(), undefined, { health }) : measured;
  // Each threshold's result, in the summary (✓ / ✗, as k6 prints them) and in the JSON beside the run's figures.
  const checks = checkThresholds(result, thresholds.checks);
  // The tool's and the SignalR client's versions beside the figures (the page's export keeps them in `kept`).
  const document = { ...result, ...VERSIONS, ...(checks.length > 0 ? { thresholds: checks } : {}) };
  io.out([summaryText(result), ...thresholdLines(checks)].join('\n'));
  if (jsonPath === '-') jsonOut(JSON.stringify(document));
  // Each file is written even when another fails; a failure is said, and the run does not pass.
  const writes: ResultFile[] = [
    ['JSON result', jsonPath === '-' ? null : jsonPath, () => JSON.stringify(document, null, 2)],
    ['HTML report', htmlPath, () => {
      const kept = keptRunOf(result, VERSIONS, new Date());
      return reportHtml({ title: kept.name, runs: [kept], generatedAt: new Date() });
    }],
  ];
  const writeFailed = !(await writeResultFiles(writes, io, RUN_WORDS.runFiguresAbove()));
  return exitCode(result, thresholds, checks, writeFailed, io);
}

function exitCode(result: RunResult, thresholds: Thresholds, checks: readonly ThresholdCheck[], writeFailed: boolean, io: Output): number {
  // A run that planned nothing measured nothing (3); one that lost every connection after "go"
  // ended early as failed, and is not a pass (1), like a stopped one.
  // A set-up cause (a receive method the hub never calls, a token refused) measured nothing about
  // load either, whatever was planned: 3, like a run that planned nothing (core/diagnosis).
  if (result.outcome.kind === 'failed' && (result.fates.planned === 0 || diagnosisOf(result).side === 'setup')) {
    io.err(`live-bench: nothing could be measured: ${result.outcome.reason ?? 'see the errors above'}`);
    return EXIT.nothingMeasured;
  }
  const reasons = brokenThresholds(checks).map((line) => `threshold broken: ${line}`);
  // Loss fails the run on its own, so --no-guide-rule cannot turn a run that lost messages into a pass.
  const loss = lossRuleReason(result, thresholds.checks);
  if (loss) reasons.push(loss);
  // A failed engine took its share of the load with it, whatever the verdict is set to decide.
  const lostEngines = lostEnginesReason(result.workerFailures.length, result.workers);
  if (lostEngines) reasons.push(lostEngines);
  if (result.outcome.kind === 'stopped') reasons.push(`the run was ${outcomeText(result.outcome, result.config.durationSec)}: an incomplete run is not a pass.`);
  else if (result.outcome.kind === 'failed') reasons.push(`the run ${outcomeText(result.outcome, result.config.durationSec)}`);
  else if (thresholds.guideRule && result.verdict.status !== 'pass') reasons.push(RUN_WORDS.guideVerdictFailed({ verdict: result.verdict.sentence }));
  if (writeFailed) reasons.push(RUN_WORDS.resultFileUnwritten());
  for (const reason of reasons) io.err(`live-bench: ${reason}`);
  return reasons.length > 0 ? EXIT.notPassed : EXIT.passed;
}

/** Every output path that cannot be written, worded: checked before the run, not after it. */
async function unwritablePaths(paths: [option: string, file: string | null][]): Promise<string[]> {
  const errors: string[] = [];
  for (const [option, file] of paths) {
    if (!file) continue;
    const dir = path.dirname(path.resolve(file));
    try {
      const existing = await stat(file).catch(() => null);
      if (existing?.isDirectory()) throw new Error('it is a directory');
      await access(existing ? file : dir, constants.W_OK);
    } catch (error) {
      const why = error instanceof Error && 'code' in error && error.code === 'ENOENT' ? RUN_WORDS.noFolder({ dir }) : error instanceof Error ? error.message : String(error);
      errors.push(RUN_WORDS.unwritable({ option, file, why }));
    }
  }
  return errors;
}
