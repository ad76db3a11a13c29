/** The run's current rates for the tier panel and the summary: the mean of the last few whole
 *  seconds of sending, so one uneven second does not swing the comparison. */
import type { SecondPoint } from './run-aggregator.ts';

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
  let busy = points.filter((p) => p.sent > 0);
  if (busy.length > 2) busy = busy.slice(1, -1);
  busy = busy.slice(-windowSec);
  const mean = (pick: (p: SecondPoint) => number) => (busy.length === 0 ? 0 : busy.reduce((sum, p) => sum + pick(p), 0) / busy.length);
  return {
    inboundPerSec: mean((p) => p.sent),
    outboundPerSec: mean((p) => p.received),
    inboundBytesPerSec: mean((p) => p.sentBytes),
    outboundBytesPerSec: mean((p) => p.receivedBytes),
  };
}
