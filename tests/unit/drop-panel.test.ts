import { describe, expect, it } from 'vitest';
import { dropPanelShown, dropPanelTitle, type RunDrops } from '../../core/drops/drop-report.ts';
import { DROP_DEFAULTS } from '../../core/drops/drop-schedule.ts';
import { emptyDropTotals } from '../../core/drops/totals.ts';

const none = { count: 0, p50Us: null, p90Us: null, p99Us: null, p999Us: null, maxUs: null, meanUs: null };

function drops(dropAtSec: number | null, totals: Partial<ReturnType<typeof emptyDropTotals>>): RunDrops {
  return { settings: { ...DROP_DEFAULTS, dropAtSec }, plannedPerDrop: 0, totals: { ...emptyDropTotals(), ...totals }, neverBack: 0, reconnectTimes: none as unknown as RunDrops['reconnectTimes'], peakReconnectsPerSec: 0 };
}

describe('the drop panel', () => {
  it('shows a planned drop, whatever it cost', () => {
    expect(dropPanelShown(drops(5, {}))).toBe(true);
    expect(dropPanelTitle(drops(5, { dropped: 10 }))).toBe('Drop and reconnect');
  });

  it('shows connections lost without a plan only when some came back', () => {
    expect(dropPanelShown(drops(null, { dropped: 10, reconnected: 4 }))).toBe(true);
    expect(dropPanelShown(drops(null, { dropped: 10, resumed: 1 }))).toBe(true);
    expect(dropPanelTitle(drops(null, { dropped: 10, reconnected: 4 }))).toMatch(/no drop planned/);
  });

  it('leaves out a hub killed mid-run: lost for good, no drop planned (the diagnosis names it)', () => {
    expect(dropPanelShown(drops(null, { dropped: 10 }))).toBe(false);
    expect(dropPanelShown(null)).toBe(false);
  });
});
