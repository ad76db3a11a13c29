/**
 * One clock for every chart of a run: seconds from the first planned send (0), the connecting
 * before it negative. A run's points and the server's readings count seconds from the start of
 * connecting (core/execution/aggregator.ts, core/server-metrics/series.ts); this moves them onto the
 * send clock the run bar counts on, so "11 of 30 s" and the charts' 11 s are the same moment.
 * Pure.
 */
import { dropTimesUs, type DropSettings } from '../drops/index.ts';

/** Seconds from the start of connecting to the first planned send; null when not known (the run
 *  never reached "go", or was kept before the start of connecting was recorded). */
export function sendOffsetSec(window: { startUs: number; runStartUs?: number } | null | undefined): number | null {
  if (!window || !window.runStartUs || window.startUs <= 0) return null;
  return (window.startUs - window.runStartUs) / 1_000_000;
}

/** A point's second (the end of the second it covers, counted from the start of connecting) on the
 *  send clock, to a tenth of a second; unchanged when the offset is unknown. */
export function onSendClock(second: number, offsetSec: number | null): number {
  return offsetSec === null ? second : Math.round((second - offsetSec) * 10) / 10;
}

/** The x range every chart of a run shares: from the first to the last second any of them has. */
export function sharedRange(...columns: readonly (readonly number[])[]): { min: number; max: number } | null {
  let min = Infinity;
  let max = -Infinity;
  for (const xs of columns) {
    if (xs.length === 0) continue;
    min = Math.min(min, xs[0]!);
    max = Math.max(max, xs[xs.length - 1]!);
  }
  if (!Number.isFinite(min)) return null;
  return max > min ? { min, max } : { min: min - 1, max: max + 1 };
}

/** "8 s", "-1.5 s", "0.7 s": a time on the send clock. */
export function formatSendClock(sec: number): string {
  return `${Number.isInteger(sec) ? sec : sec.toFixed(1)} s`;
}

/** When open connections first fell after the first send, on the send clock (whole seconds, the
 *  end of the second it fell in); null when they never did or the clock is unknown. */
export function firstLossSec(points: readonly { second: number; connectionsOpen: number }[], offsetSec: number | null): number | null {
  if (offsetSec === null) return null;
  for (let i = 1; i < points.length; i++) {
    const p = points[i]!;
    if (p.second - offsetSec > 0 && p.connectionsOpen < points[i - 1]!.connectionsOpen) return Math.max(0, Math.ceil(p.second - offsetSec));
  }
  return null;
}

/** The x range of a run's charts, client and server alike, on the send clock. */
export function runRange(points: readonly { second: number }[], serverPoints: readonly { second: number }[], offsetSec: number | null): { min: number; max: number } | null {
  const ends = (xs: readonly { second: number }[]) => (xs.length === 0 ? [] : [onSendClock(xs[0]!.second, offsetSec), onSendClock(xs[xs.length - 1]!.second, offsetSec)]);
  return sharedRange(ends(points), ends(serverPoints));
}

/** The moments a run's charts mark: each planned drop (known from the configuration, on the send
 *  clock exactly), when connections were first lost without one, and each hub restart the
 *  server's readings show. */
export function runMarkers(
  config: Pick<DropSettings, 'dropAtSec' | 'dropEverySec'> & { durationSec: number },
  lostAtSec: number | null,
  serverPoints: readonly { second: number; restarted?: boolean }[] = [],
  offsetSec: number | null = null,
): { x: number; label: string }[] {
  const drops = dropTimesUs(config, 0, config.durationSec * 1_000_000).map((us) => ({ x: us / 1_000_000, label: 'drop' }));
  const restarts = serverPoints.filter((p) => p.restarted).map((p) => ({ x: onSendClock(p.second, offsetSec), label: 'hub restarted' }));
  return [...(drops.length === 0 && lostAtSec !== null ? [{ x: lostAtSec, label: 'connections lost' }] : drops), ...restarts];
}
