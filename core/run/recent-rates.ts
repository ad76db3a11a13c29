/** The run's current rates for the tier panel and the summary: the mean of the last few whole
 *  seconds of sending, so one uneven second does not swing the comparison. */
import type { SecondPoint } from './aggregator.ts';

/** Seconds averaged. Default 5. */
export const RECENT_WINDOW_SEC = 5;

export interface RecentRates {
  inboundPerSec: number;
  outboundPerSec: number;
  inboundBytesPerSec: number;
  outboundBytesPerSec: number;
}

export function recentRates(points: readonly SecondPoint[], windowSec = RECENT_WINDOW_SEC): RecentRates {
  // The first and last seconds with sends are partial (sends start and stop inside them):
  // leave them out once there are whole seconds to average.
  const busy = lastBusy(points, windowSec);
  const mean = (pick: (p: SecondPoint) => number) => (busy.length === 0 ? 0 : busy.reduce((sum, p) => sum + pick(p), 0) / busy.length);
  return {
    inboundPerSec: mean((p) => p.sent),
    outboundPerSec: mean((p) => p.received),
    inboundBytesPerSec: mean((p) => p.sentBytes),
    outboundBytesPerSec: mean((p) => p.receivedBytes),
  };
}

/**
 * The last `windowSec` seconds with sends, without the first and last of the run's seconds with
 * sends when there are more than two. Read from the end: called every frame of an hour-long run.
 */
function lastBusy(points: readonly SecondPoint[], windowSec: number): SecondPoint[] {
  const tail: SecondPoint[] = [];
  let i = points.length - 1;
  for (; i >= 0 && tail.length < windowSec + 2; i--) if (points[i]!.sent > 0) tail.unshift(points[i]!);
  let earlier = 0;
  for (; i >= 0 && earlier < 1; i--) if (points[i]!.sent > 0) earlier++;
  let busy = tail;
  if (tail.length + earlier > 2) busy = earlier > 0 ? tail.slice(0, -1) : tail.slice(1, -1);
  return busy.slice(-windowSec);
}
