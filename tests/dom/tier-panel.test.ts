/** The tier panel picks the fitting tier, compares in words, marks flagged cells and judges latency. */
import { describe, expect, it } from 'vitest';
import { flushSync, mount, unmount } from 'svelte';
import TierPanel from '../../src/components/TierPanel.svelte';
import { DEFAULTS, type RunConfig } from '../../core/run-config/config.ts';
import { emptyFates } from '../../core/accounting/fates.ts';
import { runVerdict, verdictDisplay, type RunOutcome, type VerdictDisplay } from '../../core/outcome/outcome.ts';

const shown = (outcome: RunOutcome, planned: number, underOneSecond: number, judgedShare: number | null = null) =>
  verdictDisplay(runVerdict({ outcome, fates: { ...emptyFates(), planned, underOneSecond }, durationSec: 30, p99Us: 4_000, lostWorkers: 0 }), outcome.kind === 'running', judgedShare);

type Props = {
  config: RunConfig;
  measuredInboundPerSec: number;
  measuredOutboundPerSec: number;
  measuredInboundBytesPerSec: number;
  measuredOutboundBytesPerSec: number;
  connectionsOpen: number;
  verdict: VerdictDisplay;
};

const config = (overrides: Partial<RunConfig>): RunConfig => ({ ...DEFAULTS, endpointUrl: 'http://127.0.0.1:5180/signalrbench', ...overrides });

function render(overrides: Partial<Props>) {
  const props: Props = {
    config: config({ connections: 1000 }),
    measuredInboundPerSec: 1000,
    measuredOutboundPerSec: 1000,
    measuredInboundBytesPerSec: 2_048_000,
    measuredOutboundBytesPerSec: 2_048_000,
    connectionsOpen: 1000,
    verdict: { tone: 'neutral', text: 'Running: the verdict comes once the run has drained.' },
    ...overrides,
  };
  const target = document.createElement('div');
  document.body.append(target);
  const component = mount(TierPanel, { target, props });
  flushSync();
  const find = (testId: string) => target.querySelector<HTMLElement>(`[data-testid="${testId}"]`);
  const text = (testId: string) => (find(testId)?.textContent ?? '').replace(/\s+/g, ' ').trim();
  /** The words of a comparison row (its cell, without the row's label). */
  const cell = (column: string) => (find(`tier-row-${column}`)?.querySelector('td')?.textContent ?? '').replace(/\s+/g, ' ').trim();
  const choose = (testId: string, value: string) => {
    const select = find(testId) as HTMLSelectElement;
    select.value = value;
    select.dispatchEvent(new Event('change', { bubbles: true }));
    flushSync();
  };
  return {
    find,
    text,
    cell,
    choose,
    destroy: () => {
      unmount(component);
      target.remove();
    },
  };
}

describe('TierPanel', () => {
  it('selects Unit1 for 1,000 echo connections and reads measured against published', () => {
    const { find, text, cell, destroy } = render({});
    expect((find('tier-select') as HTMLSelectElement).value).toBe('Unit1');
    expect(cell('outboundMessagesPerSecond')).toBe("1,000 msg/s out of Unit1's 1,000 (100%)");
    expect(cell('inboundBytesPerSecond')).toBe("2 MBps out of Unit1's 2 MBps (100%)");
    expect(text('tier-expected')).toBe('This configuration should produce 1,000 msg/s in, 1,000 out (2 MBps in, 2 MBps out).');
    expect(find('tier-flag')).toBeNull();
    destroy();
  });

  it('marks the flagged cells of 2019 big group Unit1 with the reason as the title', () => {
    // 100 connections in 10 groups of 10, 40 senders: Unit1 fits, whose bandwidth cells are flagged.
    const { find, choose, destroy } = render({ config: config({ scenario: 'bigGroup', connections: 100 }), connectionsOpen: 100, measuredInboundPerSec: 10, measuredOutboundPerSec: 100 });
    choose('edition-select', '2019');
    expect((find('tier-select') as HTMLSelectElement).value).toBe('Unit1');
    const inbound = find('tier-row-inboundBytesPerSecond');
    const mark = inbound?.querySelector('[data-testid="tier-flag"]');
    expect(mark?.textContent).toBe('⚑');
    expect(mark?.getAttribute('title')).toMatch(/20 inbound messages\/s x 2,048 B = 40,960 B\/s .* published 80 KBps/);
    expect(find('tier-row-outboundBytesPerSecond')?.querySelector('[data-testid="tier-flag"]')).not.toBeNull();
    expect(find('tier-row-connections')?.querySelector('[data-testid="tier-flag"]')).toBeNull();
    destroy();
  });

  it('switching editions changes the tiers offered and the fit (2,001 echo connections)', () => {
    const { find, text, choose, destroy } = render({ config: config({ connections: 2001 }), connectionsOpen: 2001 });
    expect((find('tier-select') as HTMLSelectElement).value).toBe('Unit10');
    choose('edition-select', '2019');
    const select = find('tier-select') as HTMLSelectElement;
    expect(select.value).toBe('Unit5');
    expect([...select.options].map((o) => o.textContent)).toContain('Unit2 (does not fit)');
    expect(text('tier-fit')).toContain("Unit2 does not fit: 2,001 connections exceed Unit2's 2,000.");
    destroy();
  });

  it('never says a tier fits while one of its rows is over 100%: broadcast at 4 msg/s in against Unit1\'s published 2', () => {
    // 2 senders every 500 ms: within Unit1's limits, but twice the inbound rate the guide measured.
    const { find, text, cell, destroy } = render({
      config: config({ scenario: 'broadcast', connections: 100, sendIntervalMs: 500 }),
      connectionsOpen: 100,
      measuredInboundPerSec: 4,
      measuredOutboundPerSec: 400,
    });
    const headline = text('tier-fit');
    expect(headline).toMatch(/^Unit1's limits hold this configuration, but this run is above what the guide measured for broadcast on Unit1: inbound messages 4 msg\/s out of Unit1's 2 \(200%\)/);
    // The guide measured broadcast with 2 senders at 1 msg/s on every tier: no tier's numbers cover 4 msg/s in.
    expect(headline).toMatch(/No tier's published broadcast numbers cover it/);
    expect(find('tier-fit')!.classList.contains('bad')).toBe(true);
    expect(find('tier-panel')!.dataset.fittingTier).toBe('');
    // Shown first: the smallest tier within its limits, with its row over 100% marked.
    expect((find('tier-select') as HTMLSelectElement).value).toBe('Unit1');
    expect(Number(find('tier-row-inboundMessagesPerSecond')!.dataset.ratio)).toBe(2);
    // Bandwidth is payload bytes x rate, as the guide counts it: 4 x 2,048 B.
    expect(cell('inboundBytesPerSecond')).toMatch(/^8 KBps out of/);
    expect(text('tier-wire')).toMatch(/^Wire cost: .* as the transport carried them/);
    destroy();
  });

  it('choosing a tier that does not fit says why', () => {
    const { text, cell, choose, destroy } = render({ config: config({ connections: 2001 }), connectionsOpen: 2001 });
    choose('tier-select', 'Unit2');
    expect(text('tier-not-fitting')).toBe(
      "This configuration does not fit Unit2: 2,001 connections exceed Unit2's 2,000. " +
        "inbound 4,098,048 B/s (4.002 MBps) exceeds Unit2's maximum inbound bandwidth 4,096,000 B/s (4 MBps, echo table).",
    );
    expect(cell('connections')).toBe("2,001 connections out of Unit2's 2,000 (100%)");
    destroy();
  });

  it('shows the verdict coloured, and how the run stands so far while running', () => {
    const running = render({ verdict: shown({ kind: 'running' }, 100, 95, 0.95) });
    expect(running.find('tier-verdict')?.classList.contains('warn')).toBe(true);
    expect(running.text('tier-verdict')).toMatch(/^Running: .* So far 95\.00% of the receptions planned over 1 s ago arrived in under 1 s, below the guide's 99%\.$/);
    running.destroy();
    const done = render({ verdict: shown({ kind: 'finished' }, 100, 100) });
    expect(done.find('tier-verdict')?.classList.contains('good')).toBe(true);
    expect(done.text('tier-verdict')).toMatch(/^Pass: /);
    done.destroy();
    const failed = render({ verdict: shown({ kind: 'finished' }, 100, 50) });
    expect(failed.find('tier-verdict')?.classList.contains('bad')).toBe(true);
    failed.destroy();
  });

  it('says so, without throwing, when the guide cannot express the configuration', () => {
    const { text, find, destroy } = render({ config: config({ scenario: 'sendToConnection', connections: 1, workers: 1 }) });
    expect(text('tier-error')).toMatch(/cannot express this configuration: Send to connection needs at least 2 connections/);
    expect(find('tier-expected')).toBeNull();
    expect(find('tier-row-connections')).not.toBeNull();
    destroy();
  });
});
