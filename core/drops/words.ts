/**
 * The words of planned drops: the reconnect policies' names, the problems of drop settings (each
 * saying what to do), and a run's drops and stateful reconnect said in a line. drop-schedule.ts
 * and drop-report.ts decide which and with what figures, already formatted; only this file
 * writes prose, so the page, the runner and the reports say it alike. Pure.
 */

/** The reconnect policies, named (drop-schedule.ts's RECONNECT_POLICY_LABELS checks every policy has one). */
export const POLICY_LABELS = {
  default: "SignalR's default (0, 2, 10, 30 s, then gives up)",
  fixed: 'fixed 1 s, for up to 60 s',
  jittered: 'jittered exponential (0.5 s doubling to 10 s, random 50–100%), for up to 60 s',
};

export const DROP_WORDS = {
  // The drop settings' problems (plan.ts).
  everyWithoutAt: () => 'Drop every needs a first drop: set Drop at (the second of the sends at which connections drop) too.',
  atAfterSends: (p: { atSec: number; durationSec: number }) => `Drop at (${p.atSec} s) must be within the sends (duration ${p.durationSec} s): nothing would be dropped. Lower it or lengthen the run.`,
  atInWarmup: (p: { atSec: number; warmupSec: number | undefined }) => `Drop at (${p.atSec} s) falls inside the warm-up (${p.warmupSec} s), whose messages are left out of every figure: the drop's cost would not be counted. Set Drop at to ${p.warmupSec} s or later, or shorten the warm-up.`,
  needsReconnect: () => 'A planned drop needs Reconnect on: without it no dropped connection comes back, and nothing about reconnecting can be measured. Turn Reconnect on (--reconnect).',
  statefulNotWebSockets: (p: { transport: string }) => `Stateful reconnect works over WebSockets only (the SignalR client ignores it for ${p.transport}). Choose WebSockets, or turn stateful reconnect off.`,
  statefulNeedsReconnect: () => 'Stateful reconnect needs Reconnect on: a drop it cannot bridge falls back to an ordinary reconnect. Turn Reconnect on (--reconnect).',

  // Stateful reconnect in words (report.ts).
  statefulOff: () => 'stateful reconnect off',
  statefulOn: () => 'stateful reconnect on (granted by the hub)',
  statefulPartly: (p: { granted: string; opened: string }) => `stateful reconnect granted by the hub to ${p.granted} of ${p.opened} connections`,
  statefulRefused: (p: { url: string }) => `stateful reconnect asked for, never granted by the hub at ${p.url} (its negotiate answer lacks useStatefulReconnect: in ASP.NET Core the hub's endpoint needs AllowStatefulReconnects), so it was off`,
  statefulAsked: () => 'stateful reconnect asked for (whether the hub granted it was not recorded)',
  /** What came back of the connections lost, the first part of a run's drops in words. */
  backCounts: (p: { lost: string; back: string; reconnected: string; resumed: string; neverBack: string }) => `${p.lost} lost, ${p.back} back (${p.reconnected} reconnected, ${p.resumed} resumed by stateful reconnect), ${p.neverBack} never back`,
  resent: (p: { sent: string; sentBytes: string; received: string; receivedBytes: string }) => `stateful reconnect resent ${p.sent} message(s) (${p.sentBytes}) from this client and ${p.received} (${p.receivedBytes}) from the hub, which the client discarded as copies; the message and byte figures count each message once`,
};
