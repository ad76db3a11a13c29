/** The run's current rates for the tier panel: the mean of the last few seconds that carried
 *  traffic, so one uneven second does not swing the comparison. */
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
  const busy = points.filter((p) => p.sent > 0 || p.received > 0).slice(-windowSec);
  const mean = (pick: (p: SecondPoint) => number) => (busy.length === 0 ? 0 : busy.reduce((sum, p) => sum + pick(p), 0) / busy.length);
  return {
    inboundPerSec: mean((p) => p.sent),
    outboundPerSec: mean((p) => p.received),
    inboundBytesPerSec: mean((p) => p.sentBytes),
    outboundBytesPerSec: mean((p) => p.receivedBytes),
  };
}
