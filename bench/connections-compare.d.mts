// Types of bench/connections-compare.mjs, for the tests.
export interface ConnectionsRow {
  date: string;
  connections: number;
  /** Absent in rows from before it was kept: threads. */
  engines?: 'threads' | 'processes';
  /** Absent in rows from before it was kept: negotiated. */
  negotiation?: 'negotiated' | 'skipped';
  /** The runner's engines; absent in rows from before it was kept: 2. */
  workers?: number;
  /** Absent in rows from before it was kept: WebSockets. */
  transport?: 'WebSockets' | 'ServerSentEvents' | 'LongPolling';
  kbPerConnection: number | null;
  rampPerSec: number | null;
  control?: { kbPerConnection: number | null; rampPerSec: number | null };
}
export const RUN_TO_RUN_SPREAD: { kbPerConnection: number; rampPerSec: number };
export function compareWithLast(
  history: readonly ConnectionsRow[],
  row: ConnectionsRow,
  spread?: { kbPerConnection: number; rampPerSec: number },
): { last: ConnectionsRow | null; lines: string[]; regressions: string[] };
export function readHistory(file?: string): ConnectionsRow[];
export function runnerRampSeconds(report: {
  sendWindow?: { runStartUs?: number; readyUs?: number; lastOpenedUs?: number };
  points: readonly { second: number; connectionsOpen: number }[];
  totals: { connectionsOpened: number };
}): number | null;
export function rampSeconds(points: readonly { second: number; connectionsOpen: number }[], opened: number): number | null;
