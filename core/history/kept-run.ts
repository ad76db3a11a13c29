/**
 * A run as the dashboard keeps it: the run document (core/result/result.ts) plus what the history
 * needs (id, name, status, versions, verdict), and the JSON files a run or a comparison is
 * exported to and imported from. Pure: the IndexedDB store, the importer and the report use it.
 *
 * An exported run is a plain run document with one extra field, `kept`: every tool that reads run
 * documents (the headless runner's --json output included) reads it, and importing it gives back
 * the same run.
 */
import { capacityFromValue, type CapacityResult } from '../capacity/index.ts';
import { withLost } from '../accounting/index.ts';
import { runVerdict, type OutcomeKind } from '../outcome/index.ts';
import { parseRunResult, type RunResult } from '../result/index.ts';
import { defaultRunName } from '../run-config/index.ts';
import { BenchError } from '../errors/index.ts';
import { HISTORY_WORDS } from './words.ts';

export const COMPARISON_FORMAT = 'signalr-live-bench/comparison';
export const COMPARISON_VERSION = 1;

/** The run's outcome (core/outcome/outcome.ts): running while being written; interrupted when the
 *  tab closed or crashed mid-run and the record holds what it had. */
export type KeptStatus = OutcomeKind;

export interface KeptRunMeta {
  id: string;
  name: string;
  status: KeptStatus;
  /** ISO 8601 time of the last write. */
  savedAt: string;
  /** This tool's version and the @microsoft/signalr version that measured the run. */
  toolVersion: string;
  signalrClientVersion: string;
  /** Shared by the runs of one comparison, or the steps of one capacity search; null for a single run. */
  comparisonId: string | null;
  /** A step of a capacity search: the search as it stood when this step was judged (every step
   *  so far, the finding). Absent for other runs, and in runs kept before capacity searches. */
  capacity?: CapacityResult;
}

export interface KeptRun extends KeptRunMeta {
  result: RunResult;
}

/** A kept run without its per-second series (the server's included: its record keeps no points
 *  here): what the history lists, cheap to read and write. */
export interface KeptRunHead extends KeptRunMeta {
  result: Omit<RunResult, 'points' | 'histograms'>;
  /** Seconds in the series. */
  seconds: number;
}

export function headOf(run: KeptRun): KeptRunHead {
  const { points, histograms: _histograms, server, ...rest } = run.result;
  return { ...run, result: server ? { ...rest, server: { ...server, points: [] } } : rest, seconds: points.length };
}

/** A run document with the history's fields, as exported. */
/** The page's export carries the versions in `kept`; the runner's --json, which keeps no history
 *  fields, carries them beside the run's figures. */
export type ExportedRun = RunResult & { kept?: KeptRunMeta; toolVersion?: string; signalrClientVersion?: string };

export interface ExportedComparison {
  format: typeof COMPARISON_FORMAT;
  version: typeof COMPARISON_VERSION;
  name: string;
  /** ISO 8601. */
  exportedAt: string;
  runs: ExportedRun[];
}

/** A record's time without a write after which a "running" record is taken as cut off, in ms,
 *  where the browser cannot tell whether its page is still alive (no Web Locks). Runs write once
 *  a second; 5 s leaves room for a busy tab. */
export const STALE_RUNNING_MS = 5_000;

/** A run document cut off mid-run, as it reads from then on: interrupted, never drained, no verdict. */
export function interruptedResult<T extends Pick<RunResult, 'outcome' | 'verdict' | 'fates' | 'config' | 'latency'>>(result: T): T {
  const outcome = { kind: 'interrupted' as const };
  const fates = withLost(result.fates, false);
  return { ...result, outcome, fates, verdict: runVerdict({ outcome, fates, durationSec: result.config.durationSec, p99Us: result.latency.count > 0 ? result.latency.p99Us : null, lostWorkers: 0 }) };
}

/** A fresh id: time first, so ids sort by start; random after, so two tabs never collide. */
export function newRunId(now: Date, random: () => number = Math.random): string {
  return `${now.toISOString().replace(/[-:.]/g, '')}-${Math.floor(random() * 36 ** 6).toString(36).padStart(6, '0')}`;
}

/** A finished run document as a kept run (the headless runner's report, for one). */
export function keptRunOf(result: RunResult, versions: Pick<KeptRunMeta, 'toolVersion' | 'signalrClientVersion'>, now: Date, random: () => number = Math.random): KeptRun {
  return {
    id: newRunId(now, random),
    name: defaultRunName(result.config),
    status: result.outcome.kind,
    savedAt: now.toISOString(),
    toolVersion: versions.toolVersion,
    signalrClientVersion: versions.signalrClientVersion,
    comparisonId: null,
    result,
  };
}

export function exportRun(run: KeptRun): ExportedRun {
  const { result, ...meta } = run;
  return { ...result, kept: meta };
}

export function exportComparison(name: string, runs: readonly KeptRun[], exportedAt: Date): ExportedComparison {
  return { format: COMPARISON_FORMAT, version: COMPARISON_VERSION, name, exportedAt: exportedAt.toISOString(), runs: runs.map(exportRun) };
}

/**
 * Reads a file the dashboard or the headless runner wrote: one run or a comparison. Throws an
 * Error that says what is wrong with anything else. A run without history fields (the runner's
 * --json output) gets a fresh id and its default name; its outcome is the document's own.
 */
export function importRuns(text: string, now: Date, random: () => number = Math.random): KeptRun[] {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new BenchError('parse', HISTORY_WORDS.notJson({ error }));
  }
  const doc = value as Partial<ExportedComparison> | null;
  if (doc && doc.format === COMPARISON_FORMAT) {
    if (doc.version !== COMPARISON_VERSION) {
      throw new BenchError('parse', HISTORY_WORDS.comparisonVersion({ version: String(doc.version), reads: COMPARISON_VERSION }));
    }
    if (!Array.isArray(doc.runs) || doc.runs.length === 0) throw new BenchError('parse', HISTORY_WORDS.comparisonEmpty());
    return doc.runs.map((run, index) => {
      try {
        return fromExported(parseRunResult(JSON.stringify(run)) as ExportedRun, now, random);
      } catch (error) {
        throw new BenchError('parse', HISTORY_WORDS.comparisonRunUnreadable({ run: index + 1, error }));
      }
    });
  }
  return [fromExported(parseRunResult(text) as ExportedRun, now, random)];
}

function fromExported(doc: ExportedRun, now: Date, random: () => number): KeptRun {
  const { kept, toolVersion, signalrClientVersion, ...read } = doc;
  // A run exported while it was being written never finished.
  const cutOff = read.outcome.kind === 'running' || read.outcome.kind === 'interrupted' || kept?.status === 'running' || kept?.status === 'interrupted';
  const result = cutOff ? interruptedResult(read) : read;
  return {
    id: typeof kept?.id === 'string' && kept.id !== '' ? kept.id : newRunId(now, random),
    name: typeof kept?.name === 'string' && kept.name.trim() !== '' ? kept.name : defaultRunName(result.config),
    status: result.outcome.kind,
    savedAt: typeof kept?.savedAt === 'string' ? kept.savedAt : now.toISOString(),
    toolVersion: kept?.toolVersion ?? (typeof toolVersion === 'string' ? toolVersion : 'unknown'),
    signalrClientVersion: kept?.signalrClientVersion ?? (typeof signalrClientVersion === 'string' ? signalrClientVersion : 'unknown'),
    comparisonId: kept?.comparisonId ?? null,
    ...(kept?.capacity ? { capacity: capacityFromValue(kept.capacity) } : {}),
    result,
  };
}

/**
 * A "running" record whose page is gone was cut off by a reload or a crash. `alive` says whether
 * its page still runs it (Web Locks); where that is unknown (null), a record nobody has written
 * for STALE_RUNNING_MS is taken as cut off.
 */
export function settleCutOff<T extends KeptRunMeta & { result: Pick<RunResult, 'outcome' | 'verdict' | 'fates' | 'config' | 'latency'> }>(run: T, nowMs: number, alive: boolean | null): T {
  if (run.status !== 'running') return run;
  if (alive === true || (alive === null && nowMs - Date.parse(run.savedAt) < STALE_RUNNING_MS)) return run;
  return { ...run, status: 'interrupted', result: interruptedResult(run.result) };
}
