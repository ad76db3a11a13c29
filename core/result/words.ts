/**
 * The result room's words: why a file is not a run this version can read, and how the server
 * stalled as a run's limit says it. result.ts and limit.ts name the case and its values; only
 * this file writes prose. Pure.
 */
import { formatCount } from '../format.ts';

const plural = (n: number, one: string) => `${formatCount(n)} ${one}${n === 1 ? '' : 's'}`;

export const RESULT_WORDS = {
  notJson: (p: { reason: string }) => `This is not JSON (${p.reason}). Choose a file that SignalR Live Bench wrote.`,
  notARun: (p: { format: unknown; expected: string }) =>
    `This JSON is not a SignalR Live Bench run (its "format" is ${JSON.stringify(p.format)}, expected "${p.expected}").`,
  formatOne: () => 'This run was written by an earlier version (format 1), whose verdict counted only the messages that arrived. Its figures cannot be judged by the current rule: run it again.',
  unreadableVersion: (p: { version: unknown; readable: readonly number[] }) =>
    `This run was written in format version ${String(p.version)}; this version of the tool reads versions ${p.readable.slice(0, -1).join(', ')} and ${p.readable.at(-1)}.`,
  missingField: (p: { key: string }) => `This run file has no "${p.key}": it is incomplete or damaged.`,
  serverWithoutPoints: () => 'This run file\'s "server" metrics have no list of points: it is damaged. Remove its "server" field to import the rest.',
  /** The hub stopped answering connects while the connections ramped up (a stall, as the limit says it). */
  stoppedAnsweringConnects: (p: { notAnswered: number }) =>
    `stopped answering connects mid-ramp (${plural(p.notAnswered, 'connection')} not opened for it)`,
  /** The control hub stopped relaying agents' reports that came again once it was back. */
  stoppedRelaying: (p: { threads: number }) =>
    `stopped relaying the reports of ${plural(p.threads, 'agent thread')} (as the control hub; the agents answered once it was back)`,
};
