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
import { CONNECTIONS_PER_ENGINE, defaultEngineCount } from './engine-count.ts';

/** File descriptors the runner holds besides its connections (stdio, the event loop, worker
 *  threads, files it writes), and the negotiate requests' sockets while connections open:
 *  measured at about 27 with one engine (120 connections opened under `ulimit -n 150`). */
export const FD_HEADROOM = 64;

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
}

/** The connections the limits hold, against the load: what to refuse, what to warn about. */
export function checkClientLimits(limits: ClientLimits, load: LoadToCheck): LimitCheck {
  const refusals: string[] = [];
  const warnings: string[] = [];
  const largest = Math.max(load.connections, load.maxConnections ?? 0);
  const { openFiles, portRange } = limits;
  if (openFiles && Number.isFinite(openFiles.soft)) {
    const fits = Math.max(0, openFiles.soft - FD_HEADROOM);
    const raise = raiseAdvice(openFiles, largest + FD_HEADROOM);
    if (load.connections > openFiles.soft) {
      refusals.push(`${formatCount(load.connections)} connections need at least as many open files, but this runner may open ${formatCount(openFiles.soft)} (its soft limit, "Max open files"): every connection past that would fail with EMFILE. ${raise}`);
    } else if (load.connections > fits) {
      warnings.push(`${formatCount(load.connections)} connections are close to this runner's limit of ${formatCount(openFiles.soft)} open files (about ${formatCount(FD_HEADROOM)} go to the runner itself): some may fail with EMFILE, and the run will be judged client-limited. ${raise}`);
    } else if (largest > fits) {
      warnings.push(`Steps above about ${formatCount(fits)} connections will run out of this runner's ${formatCount(openFiles.soft)} open files (EMFILE): they will be judged client-limited, not the service's. ${raise}`);
    }
  }
  if (portRange) {
    const ports = portCount(portRange);
    const advice = `Widen the range (sysctl -w net.ipv4.ip_local_port_range="1024 65000") or spread the connections over more agents (live-bench --agent on other machines).`;
    if (load.connections > ports) {
      refusals.push(`${formatCount(load.connections)} connections to one hub need as many ephemeral ports, but this machine has ${formatCount(ports)} (net.ipv4.ip_local_port_range ${portRange.low}-${portRange.high}): the rest would fail with EADDRNOTAVAIL. ${advice}`);
    } else if (largest > ports * 0.9) {
      warnings.push(`${formatCount(largest)} connections to one hub are close to this machine's ${formatCount(ports)} ephemeral ports (net.ipv4.ip_local_port_range ${portRange.low}-${portRange.high}): connects past them fail with EADDRNOTAVAIL and are judged client-limited. ${advice}`);
    }
  }
  if (load.engines) {
    const advised = defaultEngineCount(load.connections, load.engines.cores);
    if (advised > load.engines.workers) {
      warnings.push(`${formatCount(load.connections)} connections on ${formatCount(load.engines.workers)} engine${load.engines.workers === 1 ? '' : 's'} is over ${formatCount(CONNECTIONS_PER_ENGINE)} per engine while this machine has ${formatCount(load.engines.cores)} cores: an engine that falls behind is judged client-limited. Give it --workers ${advised}.`);
    }
  }
  return { refusals, warnings };
}

/** What to type: raise the soft limit up to the hard one, or beyond it with more agents. */
function raiseAdvice(limit: OpenFilesLimit, needed: number): string {
  const target = Math.max(65_535, needed);
  if (limit.hard >= target) return `Raise it in the shell that starts the runner: ulimit -n ${target}; or spread the connections over more agents.`;
  if (limit.hard >= needed) return `Raise it in the shell that starts the runner: ulimit -n ${limit.hard} (its hard limit); or spread the connections over more agents.`;
  return `Its hard limit is ${formatCount(limit.hard)}: raise it (LimitNOFILE in a systemd unit, nofile in /etc/security/limits.conf) and then ulimit -n ${target}, or spread the connections over more agents (live-bench --agent on other machines).`;
}

/**
 * The connections a run, or a capacity search's first and largest steps, will open; with the
 * engines it was given when --workers was (a connections ramp without it scales them per step).
 */
export function loadOfRun(config: { connections: number; workers: number }, capacity: { ramp: string; start: number; max: number } | null, workersGiven = false, cores = availableParallelism()): LoadToCheck {
  if (capacity?.ramp === 'connections') return { connections: capacity.start, maxConnections: capacity.max };
  return { connections: config.connections, ...(workersGiven ? { engines: { workers: config.workers, cores } } : {}) };
}
