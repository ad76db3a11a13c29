/**
 * The headless runner: the dashboard's engine in Node worker threads, for runs past one
 * browser's connection limits and for smoke tests in CI pipelines.
 */
import { writeFile } from 'node:fs/promises';
import { systemClock, systemTimers } from '../core/clock.ts';
import { RunCoordinator } from '../core/run-coordinator.ts';
import { keptRunOf } from '../core/kept-run.ts';
import { reportHtml } from '../core/report-html.ts';
import { runResult } from '../core/run-result.ts';
import { runAgent } from './agent.ts';
import { VERSIONS } from '../core/versions.ts';
import { parseCliArgs, USAGE } from './args.ts';
import { progressLine, summaryText } from './report.ts';
import { threadPort } from './thread-port.ts';
import { brokenThresholds } from './thresholds.ts';
import { heapProbe, startMemoryLog } from './memory-log.ts';

export interface Output {
  out(line: string): void;
  err(line: string): void;
}

const consoleOutput: Output = { out: (line) => console.log(line), err: (line) => console.error(line) };

export const EXIT = { passed: 0, thresholdBroken: 1, badInput: 2, noConnection: 3 } as const;

export async function main(argv: string[], io: Output = consoleOutput): Promise<number> {
  if (argv.some((arg) => arg === '--agent' || arg.startsWith('--agent='))) return runAgent(argv, io);
  const parsed = parseCliArgs(argv);
  if (parsed.ok === 'help') {
    io.out(USAGE);
    return EXIT.passed;
  }
  if (!parsed.ok) {
    for (const error of parsed.errors) io.err(`live-bench: ${error}`);
    io.err('live-bench: nothing was run. Fix the options above (--help lists them all).');
    return EXIT.badInput;
  }
  const { config, thresholds, jsonPath, htmlPath, memoryLogPath, quiet } = parsed.options;
  const threadScript = new URL('./engine-thread.js', import.meta.url);
  const probes = memoryLogPath ? Array.from({ length: config.workers }, heapProbe) : [];
  const ports = Array.from({ length: config.workers }, (_, index) => threadPort(threadScript, index, probes[index]?.threadEnd));
  const stopMemoryLog = memoryLogPath ? startMemoryLog(memoryLogPath, probes.map((p) => p.probe)) : async () => {};
  let printedSecond = 0;
  const coordinator: RunCoordinator = new RunCoordinator(config, ports, systemClock, systemTimers, { onUpdate: () => {
    const last = coordinator.aggregator.points().at(-1);
    if (!quiet && last && last.second > printedSecond) {
      printedSecond = last.second;
      io.err(progressLine(coordinator.aggregator, coordinator.phase));
    }
  } });
  // The first Ctrl+C ends the run early and keeps what was measured; a second one quits.
  const interrupt = () => {
    io.err('live-bench: stopping; draining messages in flight (Ctrl+C again to quit at once).');
    process.once('SIGINT', () => process.exit(130));
    coordinator.stop();
  };
  process.once('SIGINT', interrupt);
  const startedAt = new Date();
  io.err(`live-bench: ${config.scenario}, ${config.connections} connections over ${config.transport} (${config.protocol}) to ${config.endpointUrl}, ${config.workers} worker thread(s)`);
  coordinator.start();
  await coordinator.finished();
  process.off('SIGINT', interrupt);
  await stopMemoryLog();
  coordinator.terminate();

  const result = runResult(coordinator, startedAt, `node ${process.version}`);
  io.out(summaryText(result));
  if (jsonPath === '-') io.out(JSON.stringify(result));
  else if (jsonPath) await writeFile(jsonPath, JSON.stringify(result, null, 2));
  if (htmlPath) {
    const kept = keptRunOf(result, VERSIONS, new Date());
    await writeFile(htmlPath, reportHtml({ title: kept.name, runs: [kept], generatedAt: new Date() }));
  }

  if (result.totals.connectionsOpened === 0) {
    io.err('live-bench: no connection could be opened; the errors above say why.');
    return EXIT.noConnection;
  }
  const broken = brokenThresholds(result, thresholds);
  for (const line of broken) io.err(`live-bench: threshold broken: ${line}`);
  return broken.length > 0 ? EXIT.thresholdBroken : EXIT.passed;
}
