/** What the History page says about runs: the facts beside a name, and what an import did. */
import type { KeptRun, KeptRunHead } from '../../core/history/index.ts';
import { notSentOf } from '../../core/accounting/index.ts';
import { combinationLabel, defaultRunName, scenarioLabel } from '../../core/run-config/index.ts';
import { formatCount, formatShare } from '../../core/format.ts';
import { CAUSE_LABELS, type Diagnosis } from '../../core/diagnosis/index.ts';
import { firstSentence } from './run-status.ts';
import { capacityStage, heldFigure, RAMP_UNITS, stepByIndex, type CapacityResult } from '../../core/capacity/index.ts';
import { formatMs } from '../../core/format.ts';
import { PAGE_WORDS } from './words.ts';

const names = (runs: readonly KeptRun[]) => (runs.length === 1 ? `"${runs[0]!.name}"` : `${runs.length} runs`);

/** What an import did, including that it did nothing when every run was kept already. */
export function importNotice(fileName: string, added: readonly KeptRun[], alreadyKept: readonly KeptRun[]): string {
  const kept = alreadyKept.length === 0 ? '' : PAGE_WORDS.alreadyKept({ runs: names(alreadyKept), count: alreadyKept.length, file: fileName });
  if (added.length === 0) return PAGE_WORDS.nothingImported({ kept });
  return PAGE_WORDS.imported({ runs: names(added), file: fileName, kept });
}

/** When it ran and its setup; what a default name already says is not said twice. */
export function runFacts(run: KeptRunHead): string {
  const config = run.result.config;
  const named = run.name === defaultRunName(config) ? [] : [scenarioLabel(config), combinationLabel(config), `${formatCount(config.connections)} connections`];
  return [new Date(run.result.startedAt).toLocaleString(), ...named, `every ${formatCount(config.sendIntervalMs)} ms`, `${formatCount(config.messageBytes)} B`, `${formatCount(config.durationSec)} s`].join(' · ');
}

/**
 * Why the verdict is what it is, in a few words for the history's row: "3 lost, 12 never sent",
 * "97.10% under 1 s", "no connection could be opened.", "stopped at 4 of 30 s". Empty for a pass.
 * From the verdict's own figures (core/outcome/outcome.ts); never judged again here.
 */
export function verdictReason(result: KeptRunHead['result']): string {
  const { outcome, verdict, fates } = result;
  if (verdict.status === 'pass') return '';
  if (outcome.kind === 'failed') return firstSentence(outcome.reason ?? 'nothing could be measured.');
  if (outcome.kind === 'stopped') return `stopped at ${formatCount(outcome.stoppedAtSec ?? 0)} of ${formatCount(result.config.durationSec)} s`;
  if (outcome.kind !== 'finished') return outcome.kind;
  const missing = [
    ...((fates.lost ?? 0) > 0 ? [`${formatCount(fates.lost ?? 0)} lost`] : []),
    ...(notSentOf(fates) > 0 ? [`${formatCount(notSentOf(fates))} never sent`] : []),
    ...((fates.overCount ?? 0) > 0 ? ['accounting error'] : []),
  ];
  if (missing.length > 0) return missing.join(', ');
  return verdict.share === null ? "below the guide's rule" : `${formatShare(verdict.share)} under 1 s`;
}

/**
 * The cause in a few words beside the verdict ("hub crashed", "set-up: token refused"), from the
 * diagnosis the run's document carries; null when nothing failed and the verdict says it all (a
 * pass, a run stopped early). A run kept before diagnoses were recorded has none in its head: the
 * list holds no series to make one from, so its row names none and opening it shows the one made
 * from the whole document (core/result diagnosisOf), never a second judgement on less.
 */
export function causeWord(result: KeptRunHead['result']): { cause: Diagnosis['cause']; side: Diagnosis['side']; text: string } | null {
  const diagnosis = result.diagnosis;
  if (!diagnosis || (diagnosis.side === 'none' && result.verdict.status !== 'fail')) return null;
  return { cause: diagnosis.cause, side: diagnosis.side, text: CAUSE_LABELS[diagnosis.cause] };
}

/** A capacity search's kept steps (runs sharing its id and carrying the search), newest first. */
export interface KeptSearch {
  id: string;
  /** The newest step: its record carries the search as it ended (or as far as it got). */
  newest: KeptRunHead;
  steps: KeptRunHead[];
}

/** The capacity searches among the kept runs (newest first, as the list is), by search id. */
export function capacitySearches(runs: readonly KeptRunHead[]): Map<string, KeptSearch> {
  const searches = new Map<string, KeptSearch>();
  for (const run of runs) {
    if (!run.capacity || !run.comparisonId) continue;
    const search = searches.get(run.comparisonId);
    if (search) search.steps.push(run);
    else searches.set(run.comparisonId, { id: run.comparisonId, newest: run, steps: [run] });
  }
  return searches;
}

/** The words of a search's one History row: the stage's answer (core/capacity/stage.ts), never judged again. */
export function searchRow(search: KeptSearch): { name: string; answer: string; facts: string; status: string; p99: string; verdict: string; tone: string } {
  const result: CapacityResult = search.newest.capacity!;
  const stage = capacityStage(result);
  const held = result.finding.kind === 'fault' ? null : stepByIndex(result, result.finding.heldStep);
  const { settings, base } = result;
  return {
    name: `Capacity search · ${scenarioLabel(base)} · ${combinationLabel(base)}`,
    answer: stage.title,
    facts: [new Date(result.startedAt).toLocaleString(), `${settings.ramp} ramp ${formatCount(settings.start)} to ${formatCount(settings.max)} ${RAMP_UNITS[settings.ramp]}`, `${search.steps.length} step${search.steps.length === 1 ? '' : 's'} kept`].join(' · '),
    status: result.running ? 'searching' : 'ended',
    p99: held && held.latency.count > 0 ? formatMs(held.latency.p99Us) : '–',
    verdict: SEARCH_VERDICTS[result.finding.kind] + (held && result.finding.kind !== 'unjudged' ? ` ${formatCount(heldFigure(held))} msg/s` : ''),
    tone: stage.tone,
  };
}

/** The search's finding in a word or two, before the held load. */
const SEARCH_VERDICTS: Record<CapacityResult['finding']['kind'], string> = {
  found: 'holds',
  atLeastMax: 'holds at least',
  firstStepFailed: 'first step broke',
  unjudged: 'not judged',
  fault: 'fault, no capacity',
};
