/** Stateful reconnect as the hub granted it, in words, and what a failed drop's verdict offers as the fix. */
import { describe, expect, it } from 'vitest';
import { dropPlanText, plannedDropOf, resentText, statefulStateOf } from '../../core/drops/drop-report.ts';
import { dropSettingsOf } from '../../core/drops/drop-schedule.ts';
import { emptyFates } from '../../core/accounting/fates.ts';
import { runVerdict } from '../../core/outcome/outcome.ts';

const asked = { dropAtSec: 5, reconnect: true, statefulReconnect: true };

describe('stateful reconnect, granted or not', () => {
  it('is on only when the hub granted it; a hub that never did is named', () => {
    expect(statefulStateOf(asked, { granted: 10, opened: 10 })).toBe('on');
    expect(statefulStateOf(asked, { granted: 4, opened: 10 })).toBe('partly');
    expect(statefulStateOf(asked, { granted: 0, opened: 10 })).toBe('refused');
    expect(statefulStateOf(asked, undefined)).toBe('asked');
    expect(statefulStateOf({ ...asked, statefulReconnect: false }, { granted: 0, opened: 10 })).toBe('off');
    const settings = dropSettingsOf(asked);
    expect(dropPlanText(settings, { granted: 10, opened: 10 }, 'http://hub/x')).toMatch(/; stateful reconnect on \(granted by the hub\)$/);
    expect(dropPlanText(settings, { granted: 0, opened: 10 }, 'http://hub/x')).toMatch(/; stateful reconnect asked for, never granted by the hub at http:\/\/hub\/x \(its negotiate answer lacks useStatefulReconnect/);
    expect(dropPlanText(settings, { granted: 0, opened: 10 }, 'http://hub/x')).not.toMatch(/stateful reconnect on/);
  });

  it('is not offered as the fix when the hub refused it', () => {
    const fates = { ...emptyFates(), planned: 100, underOneSecond: 90, lost: 10 };
    const verdict = (granted: number) => runVerdict({ outcome: { kind: 'finished' }, fates, durationSec: 10, p99Us: 5_000, lostWorkers: 0, endpointUrl: 'http://hub/x',
      plannedDrop: plannedDropOf(asked, { duplicated: 0, statefulGranted: granted, connectionsOpened: 10 }) });
    const refused = verdict(0);
    expect(refused.status).toBe('fail');
    expect(refused.sentence).toContain('The hub at http://hub/x never granted stateful reconnect');
    expect(refused.sentence).not.toMatch(/Stateful reconnect, or a shorter reconnect/);
    expect(verdict(10).sentence).toMatch(/Stateful reconnect was granted and did not bridge every gap/);
    const reconnectOnly = { dropAtSec: 5, reconnect: true };
    const off = runVerdict({ outcome: { kind: 'finished' }, fates, durationSec: 10, p99Us: 5_000, lostWorkers: 0, plannedDrop: plannedDropOf(reconnectOnly, { duplicated: 0, statefulGranted: 0, connectionsOpened: 10 }) });
    expect(off.sentence).toMatch(/Stateful reconnect, or a shorter reconnect, is what saves them/);
  });

  it('says what was resent, apart from the figures; nothing when nothing was', () => {
    expect(resentText({ resentSent: 0, resentSentBytes: 0, resentReceived: 0, resentReceivedBytes: 0 })).toBeNull();
    expect(resentText({ resentSent: 65, resentSentBytes: 133_900, resentReceived: 171, resentReceivedBytes: 352_700 })).toMatch(/^stateful reconnect resent 65 message\(s\) \(.+\) from this client and 171 \(.+\) from the hub, which the client discarded as copies/);
  });
});
