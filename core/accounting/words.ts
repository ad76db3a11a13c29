/**
 * The accounting room's words: why a planned message was never sent, as the fates' line says it
 * (fates.ts fatesText). Keyed by the reasons fates.ts counts. Pure.
 */

export const ACCOUNTING_WORDS = {
  /** Each reason a slot that came due was not sent, in a few words. */
  notSent: {
    backedUp: 'backed up (the connection held its limit of unsent messages)',
    reconnecting: 'connection reconnecting',
    writeFailed: 'write failed',
    disconnected: 'connection closed or never opened',
    clientBehind: 'the client fell behind its schedule and never sent them',
    receiverAbsent: 'the receiver never connected or never joined its group',
    workerLost: 'the worker or agent that was to send them was lost mid-run',
    runStopped: 'the run was stopped early for the failure it names, before they were sent',
  },
};
