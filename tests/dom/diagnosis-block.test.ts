/**
 * A run's diagnosis on the page, as its document carries it: the side as a heading ("Why: the
 * service"; none for a run where nothing failed), the sentence, what to do, the first evidence
 * with the rest folded, and where the cause is explained. Right under the verdict in the summary
 * and the key figures, first in a failed run's box (before the client library's folded words),
 * and in the presentation's slide; a history row names the cause in a few words.
 */
import { describe, expect, it, vi } from 'vitest';
import { flushSync, mount, unmount, type Component } from 'svelte';
import DiagnosisBlock from '../../src/components/DiagnosisBlock.svelte';
import RunSummary from '../../src/components/RunSummary.svelte';
import FailedRun from '../../src/components/FailedRun.svelte';
import HeroFigures from '../../src/components/HeroFigures.svelte';
import PresentationView from '../../src/components/PresentationView.svelte';
import CompareView from '../../src/components/CompareView.svelte';
import type { KeptRun } from '../../core/history/index.ts';
import { RunController, type RunView } from '../../src/lib/run-controller.svelte.ts';
import { viewOfResult } from '../../src/lib/kept-view.ts';
import { causeWord } from '../../src/lib/history-text.ts';
import { CAUSE_IDS, CAUSE_LABELS, SIDE_LABELS, docsAnchorOf, sideOf, type CauseId, type Diagnosis } from '../../core/diagnosis/index.ts';
import { WORDS, type Facts } from '../../core/diagnosis/words.ts';
import { diagnosisOf } from '../../core/result/run-evidence.ts';
import { CapacitySearch, capacityAnswer, capacityStage, type CapacitySettings, type StepRunner } from '../../core/capacity/index.ts';
import { plannedSendRate } from '../../core/capacity/settings.ts';
import { finishedRun, testConfig } from '../support/finished-run.ts';
import { stepRun } from '../support/step-run.ts';
import { FakeTime } from '../support/fake-time.ts';

// happy-dom has no 2D canvas: the comparison's percentile chart gets a uPlot that draws nothing.
vi.mock('uplot', () => ({
  default: class {
    setData(): void {}
    setSize(): void {}
    destroy(): void {}
  },
}));

/** A diagnosis in the catalog's own words, as core/diagnosis makes it. */
function made(cause: CauseId, facts: Partial<Facts> = {}, evidence: string[] = []): Diagnosis {
  const all: Facts = { url: 'http://fake/signalrbench', transport: 'WebSockets', browser: true, ...facts };
  return { cause, side: sideOf(cause), sentence: WORDS[cause].sentence(all), advice: WORDS[cause].advice(all), docs: docsAnchorOf(cause), evidence };
}

const crashed = made('hubCrashed', { quote: '10 connections closed abruptly and its address then refused connects' }, [
  '10 connections lost during the run, 0 came back',
  'failed connects: 3 refused',
  '10 of 10 connections opened',
  'closed ×10: WebSocket closed with status code: 1006',
  'outcome: every connection was closed by 4 s',
  'of 400 planned receptions: 0 lost, 200 never sent, 0 late',
]);

function render<P extends Record<string, unknown>>(component: Component<P>, props: P) {
  const target = document.createElement('div');
  document.body.append(target);
  const mounted = mount(component, { target, props });
  flushSync();
  const text = (selector: string) => (target.querySelector(selector)?.textContent ?? '').replace(/\s+/g, ' ').trim();
  return { target, text, done: () => unmount(mounted) };
}

describe('DiagnosisBlock', () => {
  it('a service cause: "Why: the service" in red, the sentence, what to do, four evidence lines and the rest behind "more", the docs named', () => {
    const block = render(DiagnosisBlock, { diagnosis: crashed });
    const root = block.target.querySelector<HTMLElement>('[data-testid=diagnosis]')!;
    expect(root.dataset.cause).toBe('hubCrashed');
    expect(root.dataset.side).toBe('service');
    expect(root.classList.contains('tone-bad')).toBe(true);
    expect(block.text('[data-testid=diagnosis-heading]')).toBe('Why: the service');
    expect(block.target.querySelector('[data-testid=diagnosis-heading]')!.tagName).toBe('H3');
    expect(block.text('[data-testid=diagnosis-sentence]')).toBe(crashed.sentence);
    expect(block.text('[data-testid=diagnosis-advice]')).toBe(`What to do: ${crashed.advice}`);
    const shown = [...block.target.querySelectorAll('[data-testid=diagnosis-evidence] li')].map((li) => li.textContent);
    expect(shown).toEqual(crashed.evidence.slice(0, 4));
    const more = block.target.querySelector<HTMLDetailsElement>('[data-testid=diagnosis-more]')!;
    expect(more.open).toBe(false);
    expect(more.querySelector('summary')!.textContent).toBe('2 more');
    expect([...more.querySelectorAll('li')].map((li) => li.textContent)).toEqual(crashed.evidence.slice(4));
    expect(block.text('[data-testid=diagnosis-docs]')).toBe("Explained in the project's docs/diagnosis.md#hub-crashed");
    block.done();
  });

  it('names each side as the runner does; nothing folded when the evidence is short; no heading when nothing failed', async () => {
    const refused = await finishedRun({ connections: 4 }, { deliveryDelayMs: 5, failStart: new Set([0, 1, 2, 3]), failStartMessage: "Failed to complete negotiation with the server: Error: Unauthorized: Status code '401'" });
    const unknown = await finishedRun({ connections: 4 }, { deliveryDelayMs: 5, failStart: new Set([0, 1, 2, 3]) });
    const held = await finishedRun();
    const cases: [string, Diagnosis, string | null, string][] = [
      ['set-up', diagnosisOf(refused), 'Why: the set-up', 'tone-bad'],
      ['client', made('clientLimit', { client: 'sent late by up to 900 ms' }, ['the client sent late by up to 900 ms']), 'Why: the client', 'tone-warn'],
      ['unknown', diagnosisOf(unknown), 'Why: unknown', 'tone-warn'],
      ['none', diagnosisOf(held), null, 'tone-neutral'],
    ];
    expect(cases.map(([, d]) => d.side)).toEqual(['setup', 'client', 'unknown', 'none']);
    for (const [name, diagnosis, heading, tone] of cases) {
      const block = render(DiagnosisBlock, { diagnosis });
      const root = block.target.querySelector<HTMLElement>('[data-testid=diagnosis]')!;
      expect(root.dataset.side, name).toBe(diagnosis.side);
      expect(root.classList.contains(tone), name).toBe(true);
      expect(block.target.querySelector('[data-testid=diagnosis-heading]')?.textContent ?? null, name).toBe(heading);
      if (heading) expect(heading).toBe(`Why: ${SIDE_LABELS[diagnosis.side]}`);
      expect(block.text('[data-testid=diagnosis-sentence]'), name).toBe(diagnosis.sentence);
      expect(block.text('[data-testid=diagnosis-advice]'), name).toBe(`What to do: ${diagnosis.advice}`);
      expect(block.target.querySelectorAll('[data-testid=diagnosis-evidence] li').length, name).toBe(Math.min(4, diagnosis.evidence.length));
      expect(block.target.querySelector('[data-testid=diagnosis-more]'), name).toBeNull();
      block.done();
    }
    expect(diagnosisOf(refused).cause).toBe('authRefused');
    expect(diagnosisOf(held).cause).toBe('held');
  });
});

describe('the diagnosis where a run is shown', () => {
  it('the summary: right under the verdict, unchanged; none while the run goes or when not given', async () => {
    const result = await finishedRun();
    const view = viewOfResult(result);
    const summary = render(RunSummary, { view, durationSec: 3, diagnosis: crashed });
    const verdict = summary.target.querySelector('[data-testid=summary-verdict]')!;
    expect(verdict.nextElementSibling?.getAttribute('data-testid')).toBe('diagnosis');
    expect(summary.text('[data-testid=diagnosis-sentence]')).toBe(crashed.sentence);
    summary.done();
    const running = render(RunSummary, { view: { ...view, phase: 'running' as const }, durationSec: 3, diagnosis: crashed });
    expect(running.target.querySelector('[data-testid=diagnosis]')).toBeNull();
    running.done();
    const without = render(RunSummary, { view, durationSec: 3 });
    expect(without.target.querySelector('[data-testid=diagnosis]')).toBeNull();
    without.done();
  });

  it('a failed run\'s box: the diagnosis is read first, then where, then the library\'s words folded', async () => {
    const result = await finishedRun({ connections: 4 }, { deliveryDelayMs: 5, failStart: new Set([0, 1, 2, 3]), failStartMessage: "Failed to complete negotiation with the server: Error: Unauthorized: Status code '401'" });
    const diagnosis = diagnosisOf(result);
    const box = render(FailedRun, { outcome: result.outcome, config: result.config, errorSamples: result.errorSamples, connectionsFailed: result.totals.connectionsFailed, diagnosis });
    const root = box.target.querySelector('[data-testid=failed-run]')!;
    expect(root.getAttribute('role')).toBe('alert');
    // The heading, then the sentence: before anything else the box says.
    const text = (root.textContent ?? '').replace(/\s+/g, ' ').trim();
    expect(text.startsWith(`Why: the set-up ${diagnosis.sentence}`)).toBe(true);
    expect(box.target.querySelector('[data-testid=diagnosis]')!.getAttribute('data-cause')).toBe('authRefused');
    const details = box.target.querySelector<HTMLDetailsElement>('[data-testid=failed-run-details]')!;
    expect(details.open).toBe(false);
    expect(text.indexOf(diagnosis.sentence)).toBeLessThan(text.indexOf('What the client library said'));
    // The diagnosis says the cause and the next step: no second headline or hint from the library's words.
    expect(box.target.querySelector('[data-testid=failed-run-headline]')).toBeNull();
    expect(box.target.querySelector('[data-testid=failed-run-next]')).toBeNull();
    expect(box.text('[data-testid=failed-run-where]')).toMatch(/^4 of 4 connections failed · WebSockets \+ JSON to http:\/\/fake\/signalrbench$/);
    box.done();
    // Without a diagnosis given: the outcome's first sentence, as before.
    const bare = render(FailedRun, { outcome: result.outcome, config: result.config, errorSamples: result.errorSamples, connectionsFailed: 4 });
    expect(bare.text('[data-testid=failed-run-headline]')).toBe('No connection could be opened.');
    expect(bare.target.querySelector('[data-testid=diagnosis]')).toBeNull();
    bare.done();
  });

  it('the key figures: under the verdict, and where a failed run\'s verdict is left to the run bar', async () => {
    const result = await finishedRun();
    const view = viewOfResult(result);
    const passed = render(HeroFigures, { view, config: result.config, points: result.points, diagnosis: diagnosisOf(result) });
    expect(passed.target.querySelector('[data-testid=hero-verdict]')!.nextElementSibling?.getAttribute('data-testid')).toBe('diagnosis');
    expect(passed.target.querySelector('[data-testid=diagnosis-heading]')).toBeNull();
    expect(passed.text('[data-testid=diagnosis-sentence]')).toBe(diagnosisOf(result).sentence);
    passed.done();
    const failedView: RunView = { ...view, outcome: { kind: 'failed', code: 'allClosed', reason: 'every connection was closed by 2 s and Reconnect is off: nothing was left to measure.' } };
    const failed = render(HeroFigures, { view: failedView, config: result.config, points: result.points, diagnosis: crashed });
    expect(failed.target.querySelector('[data-testid=hero-verdict]')).toBeNull();
    expect(failed.text('[data-testid=diagnosis-heading]')).toBe('Why: the service');
    expect(failed.target.querySelector('[data-testid=diagnosis-heading]')!.tagName).toBe('H2');
    failed.done();
  });

  it('the presentation: a failed run\'s side and sentence in red, in place of the limit; none for a run that held', async () => {
    const result = await finishedRun({ connections: 4, sendIntervalMs: 100 });
    const run = new RunController();
    run.config = result.config;
    run.points = result.points;
    run.view = { ...viewOfResult(result), outcome: { kind: 'failed', code: 'allClosed', reason: 'every connection was closed.' }, verdict: { ...result.verdict, status: 'fail', sentence: 'Failed: every connection was closed.' } };
    const slide = render(PresentationView, { run, comparison: null, diagnosis: crashed, onclose: () => {} });
    const why = slide.target.querySelector<HTMLElement>('[data-testid=present-diagnosis]')!;
    expect(why.dataset.cause).toBe('hubCrashed');
    expect(why.dataset.side).toBe('service');
    expect(why.classList.contains('bad')).toBe(true);
    expect(slide.text('[data-testid=present-diagnosis]')).toBe(`Why: the service. ${crashed.sentence}`);
    expect(slide.target.querySelector('[data-testid=present-limit]')).toBeNull();
    expect(slide.target.querySelector('[data-testid=present-verdict]')!.classList.contains('good')).toBe(false);
    expect(slide.target.querySelector('[data-testid=present-status]')!.classList.contains('good')).toBe(false);
    slide.done();
    const passed = new RunController();
    passed.config = result.config;
    passed.points = result.points;
    passed.view = viewOfResult(result);
    const held = render(PresentationView, { run: passed, comparison: null, diagnosis: diagnosisOf(result), onclose: () => {} });
    expect(held.target.querySelector('[data-testid=present-diagnosis]')).toBeNull();
    expect(held.target.querySelector('[data-testid=present-limit]')).not.toBeNull();
    held.done();
  });

  it('the presentation reads a kept run\'s diagnosis from its document when none is given', async () => {
    const result = await finishedRun({ connections: 4 }, { deliveryDelayMs: 5, failStart: new Set([0, 1, 2, 3]), failStartMessage: "Failed to complete negotiation with the server: Error: Unauthorized: Status code '401'" });
    const run = { view: viewOfResult(result), config: result.config, points: result.points, preparing: false, result: () => result };
    const slide = render(PresentationView, { run, comparison: null, onclose: () => {} });
    expect(slide.text('[data-testid=present-diagnosis]')).toBe(`Why: the set-up. ${diagnosisOf(result).sentence}`);
    slide.done();
  });

  it('a capacity search ended by a fault: red, its headline, never "Holds"', async () => {
    const base = testConfig({ connections: 100, workers: 2, sendIntervalMs: 1_000, messageBytes: 2_048, durationSec: 4 });
    const settings: CapacitySettings = { ramp: 'rate', start: 200, step: 200, max: 2_000, stepSec: 4, settleSec: 1, bisectSteps: 2 };
    // 200 msg/s held; at 400 the hub went away mid-step.
    const runner: StepRunner = async (config) => plannedSendRate(config) <= 200
      ? stepRun({ config, planned: 1_000 })
      : stepRun({ config, planned: 1_000, underOneSecond: 300, outcome: { kind: 'failed', code: 'allClosed', reason: 'every connection was closed.' }, run: { diagnosis: crashed } });
    const time = new FakeTime();
    const search = new CapacitySearch(base, settings, runner, { client: { name: 'test client', connectionCap: null }, clock: time, timers: time });
    const done = search.run();
    for (let i = 0; i < 20; i++) await time.advanceByMs(1_000);
    const result = await done;
    expect(result.finding).toMatchObject({ kind: 'fault', cause: 'hubCrashed' });
    const stage = capacityStage(result);
    expect(stage.tone).toBe('bad');
    expect(stage.title).toBe(capacityAnswer(result).headline);
    expect(stage.title).toContain(crashed.sentence);
    // The slide draws that stage: red, the headline, never "Holds".
    const run = new RunController();
    const slide = render(PresentationView, { run, comparison: null, search: result, onclose: () => {} });
    const shown = slide.target.querySelector<HTMLElement>('[data-testid=present-capacity] [data-testid=capacity-stage]')!;
    expect(shown.dataset.tone).toBe('bad');
    expect(shown.classList.contains('tone-good')).toBe(false);
    expect(slide.text('[data-testid=capacity-stage-title]')).toBe(stage.title);
    expect(slide.text('[data-testid=present-capacity]')).not.toMatch(/Holds/);
    expect(slide.text('[data-testid=capacity-stage-broke]')).toBe('The service failed for a cause other than load, so this is not a capacity.');
    slide.done();
  });
});

describe('a history row\'s cause', () => {
  it('in a few words from the kept diagnosis: "hub crashed", "set-up: token refused"; none for a pass or a run kept before', async () => {
    const result = await finishedRun();
    const failed = { ...result, verdict: { ...result.verdict, status: 'fail' as const } };
    expect(causeWord({ ...failed, diagnosis: crashed })).toEqual({ cause: 'hubCrashed', side: 'service', text: 'hub crashed' });
    expect(causeWord({ ...failed, diagnosis: made('authRefused', { hasToken: true, status: 401 }) })?.text).toBe('set-up: token refused');
    // A planned drop failed the rule: the verdict's word alone would not say why.
    expect(causeWord({ ...failed, diagnosis: made('plannedDrop') })?.text).toBe('planned drop');
    expect(causeWord(result)).toBeNull();
    const { diagnosis: _kept, ...before } = failed;
    expect(causeWord(before)).toBeNull();
  });

  it('has a label for every cause, set-up causes saying so first', () => {
    for (const cause of CAUSE_IDS) {
      expect(CAUSE_LABELS[cause].length, cause).toBeGreaterThan(0);
      expect(CAUSE_LABELS[cause].startsWith('set-up: '), cause).toBe(sideOf(cause) === 'setup');
    }
  });
});

describe('a comparison\'s rows', () => {
  it('carry a failed run\'s cause beside its name and its sentence under the table, in the runner\'s words', async () => {
    const ok = await finishedRun();
    const broken = await finishedRun({ transport: 'LongPolling' });
    const kept = (id: string, result: typeof ok): KeptRun => ({ id, name: id, status: result.outcome.kind === 'failed' ? 'failed' : 'finished', savedAt: result.startedAt, toolVersion: '0.1.0', signalrClientVersion: '10.0.11', comparisonId: 'c', result });
    const failed = { ...broken, outcome: { kind: 'failed' as const, code: 'allClosed' as const, reason: 'every connection was closed.' }, verdict: { ...broken.verdict, status: 'fail' as const }, diagnosis: crashed };
    const view = render(CompareView, { runs: [kept('ws', ok), kept('lp', failed)], title: 'Comparison' });
    const rows = [...view.target.querySelectorAll('[data-testid=compare-row]')];
    expect(rows[0]!.querySelector('[data-testid=compare-cause]')).toBeNull();
    const cause = rows[1]!.querySelector<HTMLElement>('[data-testid=compare-cause]')!;
    expect(cause.textContent).toBe('hub crashed');
    expect(cause.dataset.side).toBe('service');
    expect(cause.classList.contains('bad')).toBe(true);
    const lines = [...view.target.querySelectorAll('[data-testid=compare-limits] li')];
    expect(lines[0]!.querySelector('[data-testid=compare-why]')).toBeNull();
    expect(lines[1]!.querySelector('[data-testid=compare-why]')!.textContent).toBe(`Why (the service): ${crashed.sentence}`);
    expect(lines[1]!.getAttribute('data-cause')).toBe('hubCrashed');
    view.done();
  });
});
