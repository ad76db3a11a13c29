/** Presentation mode: the run's big numbers with which p99 they are, its state, the tier and the verdict, in light or dark;
 *  a comparison's runs side by side with core/compare's verdict, the combination under way as one line. */
import { describe, expect, it } from 'vitest';
import { flushSync, mount, unmount } from 'svelte';
import PresentationView from '../../src/components/PresentationView.svelte';
import { RunController, type RunView } from '../../src/lib/run-controller.svelte.ts';
import { finishedRun } from '../support/finished-run.ts';
import { viewOfResult } from '../../src/lib/kept-view.ts';
import type { ComparisonStatus } from '../../src/lib/comparison-controller.svelte.ts';
import { explainLimit } from '../../core/server-metrics/attribution.ts';
import { keptRunOf, type KeptRun } from '../../core/history/index.ts';
import { comparisonVerdict, evidenceLine } from '../../core/compare/index.ts';
import { runLabels } from '../../core/charts/index.ts';

async function present(patch: (view: RunView) => RunView, comparison: ComparisonStatus | null = null, points?: RunController['points']) {
  const result = await finishedRun({ connections: 4, sendIntervalMs: 100 }, { deliveryDelayMs: 12 });
  const run = new RunController();
  run.config = result.config;
  run.points = points ?? result.points;
  run.view = patch({ ...viewOfResult(result), connectionsOpen: 4 });
  let closed = false;
  const target = document.createElement('div');
  document.body.append(target);
  const component = mount(PresentationView, { target, props: { run, comparison, onclose: () => (closed = true) } });
  flushSync();
  const text = (testId: string) => (target.querySelector(`[data-testid="${testId}"]`)?.textContent ?? '').replace(/\s+/g, ' ').trim();
  return { target, text, closed: () => closed, done: () => unmount(component) };
}

describe('PresentationView', () => {
  it('at the end: the run\'s mean rate and the run\'s p99 (the verdict\'s), the outcome, the fitting tier and the verdict', async () => {
    const view = await present((v) => v);
    expect(view.text('present-connections')).toBe('4');
    // 4 connections every 100 ms: 40 messages a second, the mean of the run's whole seconds.
    expect(view.text('present-rate')).toBe('40');
    expect(view.text('present-p99-label')).toBe('p99 of the run');
    expect(view.text('present-p99')).toMatch(/^12\.\d+ ms$/);
    expect(view.text('present-tier')).toMatch(/Unit1, the smallest tier that fits/);
    expect(view.text('present-verdict')).toMatch(/^Pass: 100\.00% of [\d,]+ planned receptions arrived in under 1 s/);
    expect(view.text('present-status')).toMatch(/^Finished/);
    // The live charts, scaled to the run: Unit1's 1,000 msg/s and the guide's 1 s are far above
    // 40 msg/s and 12 ms, so they are said, not drawn (drawn, they would flatten the run's lines).
    expect(view.target.querySelector('[data-testid=present-chart-rate]')).not.toBeNull();
    expect(view.text('present-chart-rate')).toContain("Unit1's published rate: 1,000 msg/s, far above");
    expect(view.text('present-chart-rate-legend')).not.toContain('published rate');
    expect(view.text('present-chart-p99')).toContain("the guide's limit, 1 s, far above");
    expect(view.text('present-chart-p99-legend')).not.toContain("guide's 1 s");
    view.done();
  });

  it('says which side set the limit, in the summary\'s words, once the run has seconds to show', async () => {
    const limit = explainLimit({ serverPeakCpuPercent: 96, clientLagMs: 2, missedSlots: 0, sent: 1_000 });
    const view = await present((v) => ({ ...v, limit }));
    const shown = view.target.querySelector<HTMLElement>('[data-testid=present-limit]')!;
    expect(shown.dataset.limit).toBe('server');
    expect(view.text('present-limit')).toBe('The server was at 96% CPU while the client kept its schedule: the service is the limit.');
    view.done();
    const before = await present((v) => ({ ...v, phase: 'connecting', outcome: { kind: 'running' } }), null, []);
    expect(before.target.querySelector('[data-testid=present-limit]')).toBeNull();
    before.done();
  });

  it('while running: the p99 of the last 10 s, named, with the run\'s p99 beside it, never two unnamed p99s', async () => {
    const view = await present((v) => ({ ...v, phase: 'running', outcome: { kind: 'running' }, recentLatency: { ...v.latency, p99Us: 250_000 } }));
    expect(view.text('present-p99-label')).toBe('p99, last 10 s');
    expect(view.text('present-p99')).toBe('250.0 ms');
    expect(view.text('presentation')).toMatch(/p99 of the run so far 12\.\d+ ms/);
    expect(view.text('present-status')).toMatch(/^(Running|Starting)/);
    view.done();
  });

  it('is a dialog that takes the focus, switches light and dark, and closes on Escape', async () => {
    const view = await present((v) => v);
    const root = view.target.querySelector<HTMLElement>('[data-testid=presentation]')!;
    expect(root.getAttribute('role')).toBe('dialog');
    expect(document.activeElement?.getAttribute('data-testid')).toBe('presentation-close');
    const before = root.dataset.theme;
    view.target.querySelector<HTMLButtonElement>('[data-testid=presentation-theme]')!.click();
    flushSync();
    expect(root.dataset.theme).not.toBe(before);
    window.dispatchEvent(new KeyboardEvent('keydown', { key: 'Escape' }));
    expect(view.closed()).toBe(true);
    view.done();
  });

  it('at a phone\'s width: three figure tiles and a status line, nothing else competing for the row', async () => {
    const view = await present((v) => ({ ...v, connectionsOpen: 100_000 }));
    // One tile per figure (each sized to its tile's width: see the browser test), the status a line, the status a line of its own (not a tile that could be cut off).
    expect(view.target.querySelectorAll('.tile')).toHaveLength(3);
    expect(view.target.querySelector('[data-testid=present-status]')?.classList.contains('tile')).toBe(false);
    expect(view.text('present-connections')).toBe('100,000');
    view.done();
  });

  describe('a comparison', () => {
    const versions = { toolVersion: 'test', signalrClientVersion: 'test' };
    let clock = 0;
    const kept = (result: Awaited<ReturnType<typeof finishedRun>>, status: KeptRun['status'] = result.outcome.kind): KeptRun => ({ ...keptRunOf(result, versions, new Date(Date.UTC(2026, 0, 2, 3, 4, clock++))), status });
    async function twoRuns(): Promise<[KeptRun, KeptRun]> {
      const webSockets = await finishedRun({ connections: 4, sendIntervalMs: 100, transport: 'WebSockets' }, { deliveryDelayMs: 5 });
      const longPolling = await finishedRun({ connections: 4, sendIntervalMs: 100, transport: 'LongPolling' }, { deliveryDelayMs: 40 });
      return [kept(webSockets), kept(longPolling)];
    }
    function presentCompared(props: { comparison: ComparisonStatus | null; compared: readonly KeptRun[]; latest?: KeptRun | null }, phase: RunView['phase'] = 'done') {
      const last = (props.latest ?? props.compared.at(-1))!.result;
      const run = new RunController();
      run.config = last.config;
      run.points = phase === 'connecting' ? [] : last.points;
      run.view = { ...viewOfResult(last), phase, outcome: phase === 'done' ? last.outcome : { kind: 'running' }, connectionsOpen: phase === 'connecting' ? 0 : 4 };
      const target = document.createElement('div');
      document.body.append(target);
      const component = mount(PresentationView, { target, props: { run, onclose: () => {}, ...props } });
      flushSync();
      const text = (testId: string) => (target.querySelector(`[data-testid="${testId}"]`)?.textContent ?? '').replace(/\s+/g, ' ').trim();
      return { target, text, done: () => unmount(component) };
    }

    it('while the second combination connects: the first run\'s charts and how far the comparison is, the combination under way as a line, no blank figures', async () => {
      const [first, second] = await twoRuns();
      const view = presentCompared({ comparison: { step: 2, total: 2, label: 'Long Polling + JSON', pauseLeftSec: 0 }, compared: [first], latest: { ...second, status: 'running', result: { ...second.result, points: [] } } }, 'connecting');
      expect(view.text('present-compare-verdict')).toBe('1 of 2 combinations run: the verdict comes once two have.');
      expect(view.text('present-compare-now')).toMatch(/^Comparison 2 of 2: Long Polling \+ JSON · Connecting/);
      expect(view.target.querySelector('[data-testid=present-compare]')?.getAttribute('data-running')).toBe('true');
      // The finished run's line and the running one's, named as running.
      expect(view.text('present-compare-p99-legend')).toMatch(/WebSockets.*Long Polling.*\(running\)/);
      expect(view.target.querySelectorAll('[data-testid=present-compare-run]')).toHaveLength(1);
      for (const blank of ['present-rate', 'present-p99', 'present-connections', 'present-status']) expect(view.target.querySelector(`[data-testid=${blank}]`), blank).toBeNull();
      expect(view.text('presentation')).toMatch(/^Comparison of 2 runs · Echo/);
      view.done();
    });

    it('at the first combination\'s start: the comparison\'s slide, not the run kept before it as if it ran', async () => {
      const [before, first] = await twoRuns();
      const view = presentCompared({ comparison: { step: 1, total: 2, label: 'WebSockets + JSON', pauseLeftSec: 0 }, compared: [], latest: before }, 'connecting');
      expect(view.target.querySelector('[data-testid=present-compare]')?.getAttribute('data-running')).toBe('false');
      expect(view.text('present-compare-verdict')).toBe('0 of 2 combinations run: the verdict comes once two have.');
      expect(view.text('present-compare-p99-legend')).not.toMatch(/WebSockets/);
      expect(view.target.querySelector('[data-testid=present-rate]')).toBeNull();
      view.done();
      // Its first second kept, the combination under way joins the slide.
      const joined = presentCompared({ comparison: { step: 1, total: 2, label: 'WebSockets + JSON', pauseLeftSec: 0 }, compared: [], latest: { ...first, status: 'running' } }, 'running');
      expect(joined.target.querySelector('[data-testid=present-compare]')?.getAttribute('data-running')).toBe('true');
      joined.done();
    });

    it('during the pause before the next: the verdict so far, core/compare\'s words as they are', async () => {
      const [first, second] = await twoRuns();
      const view = presentCompared({ comparison: { step: 3, total: 3, label: 'WebSockets + MessagePack', pauseLeftSec: 2 }, compared: [first, second], latest: second });
      const labels = runLabels([first, second]);
      const verdict = comparisonVerdict([{ label: labels[0]!, result: first.result }, { label: labels[1]!, result: second.result }]);
      expect(verdict.sentence).not.toBe('');
      expect(view.text('present-compare-verdict')).toBe(`So far (2 of 3): ${verdict.sentence}`);
      expect(view.text('present-compare-now')).toBe('Comparison 3 of 3: WebSockets + MessagePack starts in 2 s');
      view.done();
    });

    it('after it: the verdict as the headline, each run\'s deciding figures, the load they shared', async () => {
      const [first, second] = await twoRuns();
      const view = presentCompared({ comparison: null, compared: [first, second], latest: second });
      const labels = runLabels([first, second]);
      const verdict = comparisonVerdict([{ label: labels[0]!, result: first.result }, { label: labels[1]!, result: second.result }]);
      expect(view.text('present-compare-verdict')).toBe(verdict.sentence);
      expect(view.target.querySelector('[data-testid=present-compare-verdict]')?.getAttribute('data-best')).toBe(verdict.bestIndexes.join(','));
      expect(view.text('present-compare-now')).toMatch(/^The same load for every run: /);
      const rows = [...view.target.querySelectorAll('[data-testid=present-compare-run]')].map((row) => row.textContent!.replace(/\s+/g, ' ').trim());
      expect(rows).toHaveLength(2);
      expect(rows[0]).toMatch(/^WebSockets.*p99 \d+\.\d+ ms.*received msg\/s 40.*delivered 100\.00%.*lost 0/);
      // What each p99 rests on, in core/compare's words.
      expect(rows[1]).toContain(evidenceLine(labels[1]!, verdict.evidence[1]!));
      expect(view.target.querySelector('[data-testid=present-compare-verdict]')?.getAttribute('data-kind')).toBe(verdict.kind);
      for (const chart of ['present-compare-p99', 'present-compare-rate']) expect(view.target.querySelector(`[data-testid=${chart}]`), chart).not.toBeNull();
      view.done();
    });

    it('once another run has started since: that run\'s own slide, not the old comparison', async () => {
      const [first, second] = await twoRuns();
      const later = kept(second.result, 'running');
      const view = presentCompared({ comparison: null, compared: [first, second], latest: later }, 'running');
      expect(view.target.querySelector('[data-testid=present-compare]')).toBeNull();
      expect(view.target.querySelector('[data-testid=present-rate]')).not.toBeNull();
      view.done();
    });

    it('kept, from History: the runs side by side with the verdict, nothing running', async () => {
      const [first, second] = await twoRuns();
      const view = presentCompared({ comparison: null, compared: [first, second] });
      expect(view.target.querySelector('[data-testid=present-compare]')?.getAttribute('data-runs')).toBe('2');
      const labels = runLabels([first, second]);
      expect(view.text('present-compare-verdict')).toBe(comparisonVerdict([{ label: labels[0]!, result: first.result }, { label: labels[1]!, result: second.result }]).sentence);
      expect(view.target.querySelector('[data-testid=present-compare-now]')).not.toBeNull();
      view.done();
    });
  });
});
