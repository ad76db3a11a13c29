// Types of bench/peers/peers-compare.mjs, for the tests.
export interface PeerRow {
  date: string;
  step: string;
  client: 'runner' | 'control' | 'dotnet';
  sent: number;
  received: number;
  lost: number;
  missedSlots: number;
  kbPerConnection: number | null;
  connectsPerSec: number | null;
  cpuMsPerConnect: number | null;
  cpuMsPer1000: number | null;
  ratios?: Ratios;
}
export interface Ratios {
  memory: number | null;
  cpuPerMessage: number | null;
  cpuPerConnect: number | null;
  connectsPerSec: number | null;
}
export const ON_TIME_MISSED_SHARE: number;
export const RUN_TO_RUN_SPREAD: { memory: number; cpuPerMessage: number; cpuPerConnect: number; connectsPerSec: number };
export function onTime(row: Pick<PeerRow, 'missedSlots' | 'sent'>): boolean;
export function accountingHolds(row: Pick<PeerRow, 'sent' | 'received' | 'lost'>): boolean;
export function ratiosOf(row: PeerRow, peers: readonly PeerRow[]): Ratios;
export function compareWithLast(history: readonly PeerRow[], row: PeerRow, peers: readonly PeerRow[]): { last: PeerRow | null; ratios: Ratios; lines: string[]; regressions: string[] };
