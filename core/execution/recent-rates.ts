/** The run's current rates for the tier panel and the summary: the mean over wall-clock seconds of
 *  sending, a second in which nothing was sent or received counting 0. A hub that stops answering
 *  reads 0 within a second, not the last rate it managed; a run's mean is what it carried over
 *  the time it sent, not over the seconds that happened to carry something. */
import type { SecondPoint } from './aggregator.ts';

/** Seconds averaged. Default 5. */
export const RECENT_WINDOW_SEC = 5;

export interface RecentRates {
  inboundPerSec: number;
  outboundPerSec: number;
  inboundBytesPerSec: number;
  outboundBytesPerSec: number;
}

/**
 * The mean of the last `windowSec` whole seconds of sending. Sending starts in the first second
 * with a send (partial: left out once there are whole seconds) and ends `sendingSec` seconds
 * later, inside a partial second also left out; before then the latest closed second is the end.
 * Without `sendingSec` (a finished run kept without it) sending ends in the last second with a
 * send. Every second in between counts, silent ones as 0.
 */
export function recentRates(points: readonly SecondPoint[], windowSec = RECENT_WINDOW_SEC, sendingSec?: number): RecentRates {
  const seconds = sendingSeconds(points, sendingSec);
  const span = seconds.slice(-windowSec);
  const mean = (pick: (p: SecondPoint) => number) => (span.length === 0 ? 0 : span.reduce((sum, p) => sum + pick(p), 0) / span.length);
  return {
    inboundPerSec: mean((p) => p.sent),
    outboundPerSec: mean((p) => p.received),
    inboundBytesPerSec: mean((p) => p.sentBytes),
    outboundBytesPerSec: mean((p) => p.receivedBytes),
  };
}

/** The seconds of sending a run planned by the time it ended: its duration, or up to and
 *  including the partial second of a stop. A failed run ended when its last connection closed,
 *  whatever it had planned: undefined, so its sending ends in its last second with a send (its
 *  planned seconds after that hold only slots never sent, and would divide its rates by time it
 *  never ran). */
export function sendingSecOf(durationSec: number, outcome: { kind: string; stoppedAtSec?: number }): number | undefined {
  if (outcome.kind === 'failed') return undefined;
  return outcome.kind === 'stopped' ? Math.min(durationSec, (outcome.stoppedAtSec ?? 0) + 1) : durationSec;
}

/** The whole run's mean rates: over every whole second it planned sends in (without its plan,
 *  up to its last second with a send). */
export function runRates(run: { points: readonly SecondPoint[]; config?: { durationSec: number }; outcome?: { kind: string; stoppedAtSec?: number } }): RecentRates {
  const sendingSec = run.config && run.outcome ? sendingSecOf(run.config.durationSec, run.outcome) : undefined;
  return recentRates(run.points, Number.MAX_SAFE_INTEGER, sendingSec);
}

/** The whole seconds of sending (see recentRates), silent ones included. */
function sendingSeconds(points: readonly SecondPoint[], sendingSec: number | undefined): readonly SecondPoint[] {
  const first = points.findIndex((p) => p.sent > 0);
  if (first < 0) return [];
  let last = points.length - 1;
  let endIsPartial: boolean;
  if (sendingSec === undefined) {
    while (points[last]!.sent === 0) last--;
    endIsPartial = true;
  } else {
    const endSecond = points[first]!.second + sendingSec;
    while (last > first && points[last]!.second > endSecond) last--;
    endIsPartial = points[last]!.second >= endSecond;
  }
  const all = points.slice(first, last + 1);
  // Only what there is early in a run: one or two seconds, partial or not.
  if (all.length <= 2) return all.length === 2 && !endIsPartial ? all.slice(1) : all;
  return endIsPartial ? all.slice(1, -1) : all.slice(1);
}

/** The most connections the run held open in any second: the tier's connection row reads it once
 *  a run is over, since a run whose connections closed at its end (a hub killed) still held them. */
export function connectionsHeld(points: readonly SecondPoint[], openNow: number): number {
  return points.reduce((most, p) => Math.max(most, p.connectionsOpen), openNow);
}
