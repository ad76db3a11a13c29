/**
 * Combinations compared by what each holds: one capacity search per transport x protocol, all on
 * one ramp, and which carries the most. A combination is named only when it held more than each
 * other by more than one ramp step (the search cannot tell loads a step apart), and only over
 * searches that found their service's limit: a search that reached the maximum, or whose client
 * or an unknown cause broke first, held "at least" its load, and a fault ended a search without a
 * capacity. Each row carries its break in the capacity stage's words (core/capacity/stage.ts).
 * Pure: the page and the report render it.
 */
import { formatCount } from '../format.ts';
import { capacityStage, heldFigure, RAMP_UNITS, stepByIndex, type CapacityResult } from '../capacity/index.ts';
import type { CauseId } from '../diagnosis/index.ts';
import { COMPARE_WORDS } from './words.ts';

export interface HeldEntry {
  label: string;
  result: CapacityResult;
}

export interface HeldRow {
  label: string;
  /** The held step's load in the ramp's unit (connections or msg/s); 0 when the first step broke; null when no capacity was found. */
  heldLoad: number | null;
  /** Messages a second the held step carried under 1 s (the capacity card's figure); null as heldLoad. */
  heldPerSec: number | null;
  /** true: the service's limit lies between the held and the broken step; false: the load is a lower bound. */
  exact: boolean;
  /** The break in the capacity stage's words ("The service broke first, between 1,099 and 1,149 msg/s."). */
  broke: string;
  /** The broken step's diagnosed cause, when it was diagnosed. */
  cause: CauseId | null;
}

export interface HeldVerdict {
  kind: 'best' | 'too-close' | 'none';
  bestIndexes: number[];
  sentence: string;
  rows: HeldRow[];
}

function rowOf({ label, result }: HeldEntry): HeldRow {
  const { finding } = result;
  const held = stepByIndex(result, finding.heldStep);
  const brokeStep = stepByIndex(result, finding.brokeStep);
  const found = finding.kind === 'found' || finding.kind === 'firstStepFailed';
  const capacity = found || finding.kind === 'atLeastMax';
  return {
    label,
    heldLoad: !capacity || result.running ? null : held ? held.load : 0,
    heldPerSec: !capacity || result.running ? null : held ? heldFigure(held) : 0,
    exact: found && finding.limitedBy === 'service' && !result.running,
    broke: capacityStage(result).broke,
    cause: brokeStep?.judgement.diagnosis?.cause ?? finding.cause ?? null,
  };
}

const rampKey = (r: CapacityResult) => `${r.settings.ramp}|${r.settings.start}|${r.settings.step}|${r.settings.max}`;

export function heldComparison(entries: readonly HeldEntry[]): HeldVerdict {
  const rows = entries.map(rowOf);
  const none = (sentence: string): HeldVerdict => ({ kind: 'none', bestIndexes: [], sentence, rows });
  if (entries.length < 2) return none('');
  const first = entries[0]!.result.settings;
  if (entries.some((e) => rampKey(e.result) !== rampKey(entries[0]!.result))) return none(COMPARE_WORDS.rampsDiffer());
  const unit = RAMP_UNITS[first.ramp];
  const amount = (load: number) => `${formatCount(load)} ${unit}`;
  const unfound = rows.filter((r) => r.heldLoad === null);
  if (unfound.length > 0) return none(COMPARE_WORDS.heldNoneFound({ rows: unfound.map((r) => ({ label: r.label, broke: clause(r.broke) })) }));
  const order = rows.map((row, index) => ({ row, index })).sort((a, b) => b.row.heldLoad! - a.row.heldLoad!);
  const top = order[0]!;
  const others = order.slice(1);
  const close = others.filter(({ row }) => top.row.heldLoad! - row.heldLoad! <= first.step);
  if (close.length > 0) {
    const named = [top, ...close];
    return {
      kind: 'too-close', bestIndexes: named.map((n) => n.index), rows,
      sentence: COMPARE_WORDS.heldTooClose({ named: named.map(({ row }) => ({ label: row.label, exact: row.exact, amount: amount(row.heldLoad!) })), step: amount(first.step) }),
    };
  }
  const bounded = others.filter(({ row }) => !row.exact);
  if (bounded.length > 0) {
    return none(COMPARE_WORDS.heldLimitNotFound({
      bounded: bounded.map(({ row }) => ({ label: row.label, amount: amount(row.heldLoad!), broke: clause(row.broke) })),
      top: { label: top.row.label, amount: amount(top.row.heldLoad!) },
    }));
  }
  const against = others.map(({ row }) => ({ label: row.label, amount: amount(row.heldLoad!), broke: clause(row.broke) }));
  return {
    kind: 'best', bestIndexes: [top.index], rows,
    sentence: COMPARE_WORDS.heldMost({ label: top.row.label, exact: top.row.exact, amount: amount(top.row.heldLoad!), step: amount(first.step), against }),
  };
}

/** A stage sentence inside another: lower-case first letter, no closing full stop. */
const clause = (text: string) => (text.charAt(0).toLowerCase() + text.slice(1)).replace(/\.$/, '');
