/** What the History page says about runs: the facts beside a name, and what an import did. */
import type { KeptRun, KeptRunHead } from '../../core/history/index.ts';
import { combinationLabel, defaultRunName, SCENARIO_LABELS } from '../../core/run/index.ts';
import { formatCount } from '../../core/format.ts';

const names = (runs: readonly KeptRun[]) => (runs.length === 1 ? `"${runs[0]!.name}"` : `${runs.length} runs`);

/** What an import did, including that it did nothing when every run was kept already. */
export function importNotice(fileName: string, added: readonly KeptRun[], alreadyKept: readonly KeptRun[]): string {
  const kept = alreadyKept.length === 0 ? '' : `${names(alreadyKept)} from ${fileName} ${alreadyKept.length === 1 ? 'is' : 'are'} already kept here; left as ${alreadyKept.length === 1 ? 'it is' : 'they are'}.`;
  if (added.length === 0) return `Nothing imported: ${kept}`;
  return `Imported ${names(added)} from ${fileName}.${kept ? ` ${kept}` : ''}`;
}

/** When it ran and its setup; what a default name already says is not said twice. */
export function runFacts(run: KeptRunHead): string {
  const config = run.result.config;
  const named = run.name === defaultRunName(config) ? [] : [SCENARIO_LABELS[config.scenario], combinationLabel(config), `${formatCount(config.connections)} connections`];
  return [new Date(run.result.startedAt).toLocaleString(), ...named, `every ${formatCount(config.sendIntervalMs)} ms`, `${formatCount(config.messageBytes)} B`, `${formatCount(config.durationSec)} s`].join(' · ');
}
