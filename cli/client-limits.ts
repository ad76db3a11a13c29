/**
 * The runner's own limits, read before it connects: open files (every connection is a socket,
 * one file descriptor) and the ephemeral ports for one destination (every connection to the hub
 * takes one). A run that cannot fit is refused with what to type; one that may not fit, or a
 * capacity search whose later steps will not, is warned about: those steps are then judged
 * client-limited by their EMFILE/EADDRNOTAVAIL failures (core/client/connect-causes.ts), never the
 * service's. Linux only (read from /proc); elsewhere nothing is checked. The parsing is pure.
 */
import { readFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { formatCount } from '../core/format.ts';
import { CONNECTIONS_PER_ENGINE, defaultEngineCount, MAX_ENGINES } from './engine-count.ts';
import { LIMITS_WORDS } from './limits-words.ts';

/** File descriptors the runner holds besides its connections (stdio, the event loop, worker
 *  threads, files it writes), and the negotiate requests' sockets while connections open:
 *  measured at about 27 with one engine (120 connections opened under `ulimit -n 150`). */
export const FD_HEADROOM = 64;

/** Connections one process holds within its soft limit of open files (null: unknown, no limit). */
export function connectionsOneProcessFits(openFilesSoft: number | null): number {
  return openFilesSoft === null || !Number.isFinite(openFilesSoft) ? Number.POSITIVE_INFINITY : Math.max(1, openFilesSoft - FD_HEADROOM);
}

export interface OpenFilesLimit {
  soft: number;
  hard: number;
}

export interface PortRange {
  low: number;
  high: number;
}

export interface ClientLimits {
  /** null when it could not be read (not Linux). */
  openFiles: OpenFilesLimit | null;
  portRange: PortRange | null;
}

/** "Max open files            1024                 524288               files" → {1024, 524288}; "unlimited" is Infinity. */
export function parseOpenFilesLimit(limitsText: string): OpenFilesLimit | null {
  const match = /^Max open files\s+(\S+)\s+(\S+)/m.exec(limitsText);
  if (!match) return null;
  const value = (raw: string) => (raw === 'unlimited' ? Number.POSITIVE_INFINITY : Number(raw));
  const soft = value(match[1]!);
  const hard = value(match[2]!);
  return Number.isNaN(soft) || Number.isNaN(hard) ? null : { soft, hard };
}

/** "32768\t60999\n" → {32768, 60999}. */
export function parsePortRange(text: string): PortRange | null {
  const match = /^\s*(\d+)\s+(\d+)\s*$/.exec(text);
  if (!match) return null;
  const low = Number(match[1]);
  const high = Number(match[2]);
  return low > 0 && high >= low ? { low, high } : null;
}

export function portCount(range: PortRange): number {
  return range.high - range.low + 1;
}

/** This process's limits; null where they cannot be read. */
export function readClientLimits(read: (path: string) => string = (path) => readFileSync(path, 'utf8')): ClientLimits {
  const attempt = <T>(path: string, parse: (text: string) => T | null): T | null => {
    try {
      return parse(read(path));
    } catch {
      return null;
    }
  };
  return { openFiles: attempt('/proc/self/limits', parseOpenFilesLimit), portRange: attempt('/proc/sys/net/ipv4/ip_local_port_range', parsePortRange) };
}

export interface LimitCheck {
  /** The run cannot fit: refuse it (exit 2), each saying what to type. */
  refusals: string[];
  /** It may not fit, or later steps will not: said before connecting. */
  warnings: string[];
}

export interface LoadToCheck {
  /** Connections of the run, or of a capacity search's first step. */
  connections: number;
  /** A capacity search's largest step, when above `connections`. */
  maxConnections?: number;
  /** Engines the run was given with --workers, and this machine's cores: one engine past its
   *  share of connections on a machine with idle cores is worth a word. Absent: not checked. */
  engines?: { workers: number; cores: number };
  /** Engine processes sharing the connections, each with open files of its own (cli/engine-kind.ts);
   *  absent: one process (the runner and its threads) holds them all. */
  processes?: number;
  /** Hub instances the connections are spread over round-robin (ephemeral ports are per
   *  destination address and port); absent: one. */
  instances?: number;
}

/** The connections the limits hold, against the load: what to refuse, what to warn about. */
export function checkClientLimits(limits: ClientLimits, load: LoadToCheck): LimitCheck {
  const refusals: string[] = [];
  const warnings: string[] = [];
  const largest = Math.max(load.connections, load.maxConnections ?? 0);
  const { openFiles, portRange } = limits;
  if (openFiles && Number.isFinite(openFiles.soft)) {
    const processes = load.processes ?? 1;
    // Per process: its share of the connections, the largest one of an even split.
    const share = Math.ceil(load.connections / processes);
    const fits = connectionsOneProcessFits(openFiles.soft);
    const raise = raiseAdvice(openFiles, Math.ceil(largest / processes) + FD_HEADROOM, processes === 1);
    if (processes > MAX_ENGINES) {
      refusals.push(LIMITS_WORDS.tooManyProcesses({ connections: formatCount(load.connections), processes: formatCount(processes), fits: formatCount(fits), soft: formatCount(openFiles.soft), maxEngines: MAX_ENGINES, raise }));
    } else if (share > openFiles.soft) {
      refusals.push(LIMITS_WORDS.overOpenFiles({ share: formatCount(processes === 1 ? load.connections : share), processes, processesText: formatCount(processes), soft: formatCount(openFiles.soft), raise }));
    } else if (share > fits) {
      warnings.push(LIMITS_WORDS.nearOpenFiles({ share: formatCount(share), processes, processesText: formatCount(processes), soft: formatCount(openFiles.soft), headroom: formatCount(FD_HEADROOM), raise }));
    } else if (largest > fits * processes) {
      warnings.push(LIMITS_WORDS.stepsOverOpenFiles({ fits: formatCount(fits * processes), soft: formatCount(openFiles.soft), raise }));
    }
  }
  if (portRange) {
    const ports = portCount(portRange);
    const instances = Math.max(1, load.instances ?? 1);
    // Round-robin: the first instance takes the most.
    const toOne = (connections: number) => Math.ceil(connections / instances);
    const toWhom = LIMITS_WORDS.toWhom({ instances });
    if (toOne(load.connections) > ports) {
      refusals.push(LIMITS_WORDS.overPorts({ connections: formatCount(toOne(load.connections)), toWhom, ports: formatCount(ports), low: portRange.low, high: portRange.high }));
    } else if (toOne(largest) > ports * 0.9) {
      warnings.push(LIMITS_WORDS.nearPorts({ connections: formatCount(toOne(largest)), toWhom, ports: formatCount(ports), low: portRange.low, high: portRange.high }));
    }
  }
  if (load.engines) {
    const advised = defaultEngineCount(load.connections, load.engines.cores);
    if (advised > load.engines.workers) {
      warnings.push(LIMITS_WORDS.fewEngines({ connections: formatCount(load.connections), workers: load.engines.workers, workersText: formatCount(load.engines.workers), perEngine: formatCount(CONNECTIONS_PER_ENGINE), cores: formatCount(load.engines.cores), advised }));
    }
  }
  return { refusals, warnings };
}

/** What to type: raise the soft limit up to the hard one, or beyond it with engine processes or more agents. */
function raiseAdvice(limit: OpenFilesLimit, needed: number, oneProcess: boolean): string {
  const target = Math.max(65_535, needed);
  const split = LIMITS_WORDS.raiseSplit({ oneProcess });
  if (limit.hard >= target) return LIMITS_WORDS.raiseTo({ target, split });
  if (limit.hard >= needed) return LIMITS_WORDS.raiseToHard({ hard: limit.hard, split });
  return LIMITS_WORDS.raiseHard({ hard: formatCount(limit.hard), target, split });
}

/**
 * The connections a run, or a capacity search's first and largest steps, will open; with the
 * engines it was given when --workers was (a connections ramp without it scales them per step),
 * the engine processes they are split over (`engines`, cli/engine-kind.ts) and the hub instances.
 */
export function loadOfRun(config: { connections: number; workers: number; endpointUrls?: readonly string[] }, capacity: { ramp: string; start: number; max: number } | null, workersGiven = false, cores = availableParallelism(), engines?: { kind: string; count: number }): LoadToCheck {
  const spread = {
    ...(engines?.kind === 'processes' ? { processes: engines.count } : {}),
    ...(config.endpointUrls && config.endpointUrls.length > 1 ? { instances: config.endpointUrls.length } : {}),
  };
  if (capacity?.ramp === 'connections') return { connections: capacity.start, maxConnections: capacity.max, ...spread };
  return { connections: config.connections, ...(workersGiven && engines?.kind !== 'processes' ? { engines: { workers: config.workers, cores } } : {}), ...spread };
}
