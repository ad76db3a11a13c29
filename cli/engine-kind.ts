/**
 * Whether the runner's engines are worker threads or child processes, and how many: `--engines
 * threads|processes`. Threads share the runner's one table of open files, and every connection
 * is a file: the open-files limit is per process, and a container's hard limit cannot be raised
 * from inside (bench/RESULTS.md: 20,000 here). Processes each have their own table, so a runner
 * whose engines are processes holds as many connections as its processes' limits add up to. By
 * default the engines are threads (less memory and CPU: one bundle, one IPC-free transport),
 * unless the connections do not fit one process's open files. Pure: the limit is passed in.
 */
import { formatCount } from '../core/format.ts';
import { connectionsOneProcessFits } from './client-limits.ts';
import { stepEngineCount } from './engine-count.ts';
import { ARGS_WORDS } from './args-words.ts';

export type EngineKind = 'threads' | 'processes';
export const ENGINE_KINDS: readonly EngineKind[] = ['threads', 'processes'];

/** --engines as given (undefined: not given, null); a wrong word is added to `errors`. */
export function engineKindOption(value: string | undefined, errors: string[]): EngineKind | null {
  if (value === undefined) return null;
  const kind = ENGINE_KINDS.find((k) => k === value) ?? null;
  if (kind === null) errors.push(ARGS_WORDS.engines({ value }));
  return kind;
}

export interface EngineChoice {
  kind: EngineKind;
  count: number;
  /** Why the engines are processes, for the start line; null for threads. */
  reason: string | null;
}

export interface EngineRequest {
  connections: number;
  /** --workers, or its default (cli/engine-count.ts). */
  workers: number;
  /** --engines, when given. */
  asked: EngineKind | null;
  /** The runner's soft limit of open files, which its child processes inherit; null when unknown. */
  openFilesSoft: number | null;
}

/**
 * Threads unless asked otherwise or the connections do not fit one process; processes number at
 * least what the connections need at one process's fit (more than MAX_ENGINES, cli/engine-count.ts:
 * client-limits.ts refuses the run, no split fits).
 */
export function chooseEngines({ connections, workers, asked, openFilesSoft }: EngineRequest): EngineChoice {
  const fits = connectionsOneProcessFits(openFilesSoft);
  const needed = Math.ceil(connections / fits);
  if (asked === 'threads' || (asked === null && needed <= 1)) return { kind: 'threads', count: workers, reason: null };
  const count = Math.max(workers, needed);
  const need = `one process may open ${formatCount(openFilesSoft ?? 0)} files: ${formatCount(connections)} connections need ${needed}`;
  const reason = asked === 'processes'
    ? `asked with --engines processes${needed > workers ? `; ${need}` : ''}`
    : `${need}${count > needed ? `, ${count} with --workers` : ''}`;
  return { kind: 'processes', count, reason };
}

/** "2 engine processes (one process may open 20,000 files, …)", "2 worker threads", or the runner's own thread. */
export function enginesText(choice: EngineChoice): string {
  if (choice.kind === 'processes') return `${choice.count} engine process${choice.count === 1 ? '' : 'es'} (${choice.reason})`;
  return choice.count > 1 ? `${choice.count} worker threads` : 'the engine in the runner\'s own thread';
}

/**
 * The engines of one capacity step (cli/capacity.ts): the step's count by cli/engine-count.ts,
 * and with --engines processes at least as many processes as its connections need, so a step
 * past one process's open files is not cut short by EMFILE (the client's limit, not the service's).
 */
export function stepEngines(step: { connections: number; workers: number }, ramp: 'connections' | 'rate', workersGiven: boolean, kind: EngineKind, openFilesSoft: number | null, cores?: number): number {
  const workers = stepEngineCount(step, ramp, workersGiven, cores);
  return kind === 'processes' ? chooseEngines({ connections: step.connections, workers, asked: kind, openFilesSoft }).count : workers;
}
