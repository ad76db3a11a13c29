/** The tier panel for the serverless scenarios: it reads their own tables (messages per second per
 *  Unit as each edition publishes them), picks the tier from them and links the guide's section. */
import { describe, expect, it } from 'vitest';
import { flushSync, mount, unmount } from 'svelte';
import TierPanel from '../../src/components/TierPanel.svelte';
import { DEFAULTS, type RunConfig } from '../../core/run-config/config.ts';

const config = (overrides: Partial<RunConfig>): RunConfig => ({ ...DEFAULTS, endpointUrl: 'http://127.0.0.1:5180/signalrbench', ...overrides });

function render(runConfig: RunConfig, measured: { inPerSec: number; outPerSec: number; open: number }) {
  const target = document.createElement('div');
  document.body.append(target);
  const component = mount(TierPanel, {
    target,
    props: {
      config: runConfig,
      measuredInboundPerSec: measured.inPerSec,
      measuredOutboundPerSec: measured.outPerSec,
      measuredInboundBytesPerSec: measured.inPerSec * runConfig.messageBytes,
      measuredOutboundBytesPerSec: measured.outPerSec * runConfig.messageBytes,
      connectionsOpen: measured.open,
      verdict: { tone: 'neutral' as const, text: 'Running: the verdict comes once the run has drained.' },
    },
  });
  flushSync();
  const find = (testId: string) => target.querySelector<HTMLElement>(`[data-testid="${testId}"]`);
  const text = (testId: string) => (find(testId)?.textContent ?? '').replace(/\s+/g, ' ').trim();
  const cell = (column: string) => (find(`tier-row-${column}`)?.querySelector('td')?.textContent ?? '').replace(/\s+/g, ' ').trim();
  const edition = (value: string) => {
    const select = find('edition-select') as HTMLSelectElement;
    select.value = value;
    select.dispatchEvent(new Event('change', { bubbles: true }));
    flushSync();
  };
  return { find, text, cell, edition, destroy: () => { unmount(component); target.remove(); } };
}

describe('TierPanel in serverless mode', () => {
  it('send to user through REST API, 500 connections each sending once a second: Unit10 by the current table (200/s per Unit), Unit2 by 2019\'s (600/s)', () => {
    const view = render(config({ scenario: 'restSendToUser', connections: 500 }), { inPerSec: 500, outPerSec: 500, open: 500 });
    expect(view.text('tier-expected')).toBe('This configuration should produce 500 msg/s in, 500 out (1 MBps in, 1 MBps out).');
    expect(view.find('tier-panel')?.dataset.fittingTier).toBe('Unit10');
    expect(view.cell('inboundMessagesPerSecond')).toBe("500 msg/s out of Unit10's 2,000 (25%)");
    expect(view.cell('outboundMessagesPerSecond')).toBe("500 msg/s out of Unit10's 2,000 (25%)");
    expect(view.text('tier-fit')).toMatch(/^Unit1's limits hold this configuration, but this run is above what the guide measured for send to user through REST API on Unit1: inbound messages 500 msg\/s out of Unit1's 200 \(250%\)/);
    const link = view.find('tier-source-link') as HTMLAnchorElement;
    expect(link.textContent).toBe('Case study › Serverless mode › Send to user through REST API');
    expect(link.href).toBe('https://learn.microsoft.com/azure/azure-signalr/signalr-concept-performance#send-to-user-through-rest-api');

    view.edition('2019');
    expect(view.find('tier-panel')?.dataset.fittingTier).toBe('Unit2');
    expect(view.cell('inboundMessagesPerSecond')).toBe("500 msg/s out of Unit2's 600 (83%)");
    view.destroy();
  });

  it('broadcast through REST API, 2 senders to 1,000 connections: Unit1, its 2 msg/s in and 2,000 out as published', () => {
    const view = render(config({ scenario: 'restBroadcast', connections: 1000 }), { inPerSec: 2, outPerSec: 2000, open: 1000 });
    expect(view.text('tier-expected')).toBe('This configuration should produce 2 msg/s in, 2,000 out (4 KBps in, 4 MBps out).');
    expect(view.find('tier-panel')?.dataset.fittingTier).toBe('Unit1');
    expect(view.cell('inboundMessagesPerSecond')).toBe("2 msg/s out of Unit1's 2 (100%)");
    expect(view.cell('outboundMessagesPerSecond')).toBe("2,000 msg/s out of Unit1's 2,000 (100%)");
    expect((view.find('tier-source-link') as HTMLAnchorElement).href).toMatch(/#broadcast-through-rest-api$/);
    view.destroy();
  });

  it('broadcast through REST API above the guide\'s 2 posts a second: no tier is vouched for, in either edition', () => {
    const view = render(config({ scenario: 'restBroadcast', connections: 1000, senders: 4 }), { inPerSec: 4, outPerSec: 4000, open: 1000 });
    expect(view.find('tier-panel')?.dataset.fittingTier).toBe('');
    expect(view.text('tier-fit')).toMatch(/No tier's published broadcast through REST API numbers cover it/);
    view.edition('2019');
    expect(view.find('tier-panel')?.dataset.fittingTier).toBe('');
    view.destroy();
  });
});
