/**
 * The execution room's words: why the coordinator ended a run or gave a worker up, keyed by the
 * outcome's code where the run ends with one. coordinator.ts names the case and its values; only
 * this file writes prose. Pure.
 */
import { formatCount } from '../format.ts';

export const EXECUTION_WORDS = {
  /** No worker opened a single connection; the first connect error follows when there is one. */
  noConnection: () => 'no connection could be opened.',
  /** A worker reported a fatal error and was stopped; the run carries on without it. */
  workerFailed: (p: { worker: number; message: string }) => `Worker ${p.worker} failed and was stopped: ${p.message}. Its figures up to then are kept.`,
  allClosed: (p: { atSec: number; cause: string | undefined }) =>
    `every connection was closed by ${p.atSec} s and Reconnect is off: nothing was left to measure.${p.cause ? ` ${p.cause}` : ''}`,
  neverCalled: (p: { method: string; sent: number }) =>
    `the hub never called ${p.method}: ${formatCount(p.sent)} messages were sent and none came back on it. ` +
      `Check the profile's receive.method against the client method the hub calls (e.g. Clients.All.SendAsync("ReceiveMessage", …)).`,
};
