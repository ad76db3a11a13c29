/**
 * The comparison's answer in one line. Loss ranks first: a run that passed the guide's rule beats
 * one that did not, then more delivered beats less; a lower p99 bought by losing messages never
 * wins. Only runs with equal delivery are ranked by p99, and only on evidence
 * (core/compare/p99-evidence.ts): each needs enough messages for its p99 to be more than its slowest
 * few ("too few messages to rank: run at least N s"), and the best's interval from resampling its
 * seconds must lie below every other's ("too close to call" when they overlap). Pure: the page and
 * the HTML report render it as it is.
 */
import { formatCount, formatMs, formatShare } from '../format.ts';
import { WIN_TOLERANCE, type ComparedRun } from './comparison.ts';
import { MIN_RECEPTIONS_TO_RANK, MIN_SLOWER_THAN_P99, p99Evidence, p99WithInterval, secondsToRank, type P99Evidence } from './p99-evidence.ts';
import { COMPARE_WORDS } from './words.ts';

/**
 * best: one run (or several equal on delivery with no p99 to tell them apart) is named;
 * too-close: the best p99s' intervals overlap; too-few: a contender has too few messages for its
 * p99; none: nothing finished with a verdict (or fewer than two runs).
 */
export type VerdictKind = 'best' | 'too-close' | 'too-few' | 'none';

export interface ComparisonVerdict {
  kind: VerdictKind;
  /** Positions of the named runs: the best, or those too close (or too few) to tell apart. */
  bestIndexes: number[];
  /** "Best: WebSockets + MessagePack: passed the guide's rule with the lowest p99, 12.3 ms (…)." */
  sentence: string;
  /** Whether a best run is named and it passed the guide's rule. */
  passed: boolean;
  /** What each run's p99 rests on, in the runs' order (empty for fewer than two runs). */
  evidence: P99Evidence[];
  /** For too-few: the seconds of sending a run needs to be ranked; null otherwise. */
  runAtLeastSec: number | null;
}

const NONE: ComparisonVerdict = { kind: 'none', bestIndexes: [], sentence: '', passed: false, evidence: [], runAtLeastSec: null };

interface Entry {
  run: ComparedRun;
  index: number;
  evidence: P99Evidence;
}

/** Why each other run did not win, in a few words ("lost 40 messages", "p99 41.0 ms"). */
function reasonAgainst(entry: Entry, best: ComparedRun, withInterval: boolean): string {
  const r = entry.run.result;
  if (r.outcome.kind !== 'finished') return r.outcome.kind === 'failed' ? 'failed' : `${r.outcome.kind}, no verdict`;
  if (r.verdict.status !== 'pass' && best.result.verdict.status === 'pass') return `failed the rule, ${deliveryText(entry.run)}`;
  if ((r.verdict.delivery ?? 0) < (best.result.verdict.delivery ?? 0)) return deliveryText(entry.run);
  return `p99 ${withInterval ? p99WithInterval(entry.evidence) : p99Text(entry.evidence)}`;
}

const p99Text = (evidence: P99Evidence) => (evidence.p99Us === null ? 'no message arrived' : formatMs(evidence.p99Us));
const deliveryText = (run: ComparedRun) => (run.result.verdict.delivery === null ? 'delivery unknown' : `delivered ${formatShare(run.result.verdict.delivery)}`);

/** Whether `a` is faster than `b` beyond doubt: its interval below b's, and by more than a histogram bucket's noise. */
function clearlyFaster(a: P99Evidence, b: P99Evidence): boolean {
  if (a.p99Us === null || b.p99Us === null) return a.p99Us !== null;
  const aHigh = a.interval?.highUs ?? a.p99Us;
  const bLow = b.interval?.lowUs ?? b.p99Us;
  return aHigh < bLow && b.p99Us > a.p99Us * (1 + WIN_TOLERANCE);
}

export function comparisonVerdict(runs: readonly ComparedRun[]): ComparisonVerdict {
  if (runs.length < 2) return NONE;
  const indexed: Entry[] = runs.map((run, index) => ({ run, index, evidence: p99Evidence(run.result) }));
  const evidence = indexed.map((e) => e.evidence);
  const none = (sentence: string): ComparisonVerdict => ({ ...NONE, sentence, evidence });
  // Only finished runs carry a verdict; a stopped, failed or interrupted run cannot be the best.
  const finished = indexed.filter(({ run }) => run.result.outcome.kind === 'finished' && run.result.verdict.delivery !== null);
  if (finished.length === 0) return none(COMPARE_WORDS.noneFinished());
  const passing = finished.filter(({ run }) => run.result.verdict.status === 'pass');
  const pool = passing.length > 0 ? passing : finished;
  // Never reward loss: only the runs that delivered the most compete on p99.
  const bestDelivery = Math.max(...pool.map(({ run }) => run.result.verdict.delivery ?? 0));
  const delivering = pool.filter(({ run }) => run.result.verdict.delivery === bestDelivery);
  const others = (named: readonly Entry[], best: ComparedRun, withInterval: boolean) => {
    const rest = indexed.filter(({ index }) => !named.some((n) => n.index === index)).map((e) => `${e.run.label}: ${reasonAgainst(e, best, withInterval)}`);
    return rest.length > 0 ? ` (${rest.join('; ')})` : '';
  };
  const why = () => (passing.length > 0 ? COMPARE_WORDS.passedRule() : COMPARE_WORDS.deliveredMost({ delivered: formatShare(bestDelivery) }));

  // One run delivered the most (or alone passed): loss decided, p99 is only said.
  if (delivering.length === 1) {
    const best = delivering[0]!;
    return {
      kind: 'best', bestIndexes: [best.index], passed: passing.length > 0, evidence, runAtLeastSec: null,
      sentence: COMPARE_WORDS.bestByDelivery({ label: best.run.label, why: why(), p99: p99Text(best.evidence), others: others([best], best.run, false) }),
    };
  }

  // Equal on delivery: p99 decides, on evidence only.
  const short = delivering.filter((e) => !e.evidence.enough);
  if (short.length > 0) {
    const runAtLeastSec = Math.max(...short.map((e) => secondsToRank(e.run.result) ?? 0));
    const counts = short.map((e) => `${e.run.label} received ${formatCount(e.evidence.receptions)}`).join(', ');
    const fewest = Math.min(...short.map((e) => e.evidence.receptions));
    const slowest = countAbove0(short) ? COMPARE_WORDS.slowestItself({ fewest }) : '';
    return {
      kind: 'too-few', bestIndexes: [], passed: false, evidence, runAtLeastSec,
      sentence: COMPARE_WORDS.tooFewToRank({ counts, minReceptions: MIN_RECEPTIONS_TO_RANK, minSlower: MIN_SLOWER_THAN_P99, slowest, runAtLeastSec }),
    };
  }
  const byP99 = [...delivering].sort((a, b) => (a.evidence.p99Us ?? Infinity) - (b.evidence.p99Us ?? Infinity));
  const fastest = byP99[0]!;
  const close = byP99.filter((e) => e === fastest || !clearlyFaster(fastest.evidence, e.evidence));
  if (close.length > 1) {
    const named = close.map((e) => `${e.run.label} (p99 ${p99WithInterval(e.evidence)})`).join(' and ');
    return {
      kind: 'too-close', bestIndexes: close.map((e) => e.index), passed: false, evidence, runAtLeastSec: null,
      sentence: COMPARE_WORDS.tooClose({ named, others: others(close, fastest.run, true) }),
    };
  }
  return {
    kind: 'best', bestIndexes: [fastest.index], passed: passing.length > 0, evidence, runAtLeastSec: null,
    sentence: COMPARE_WORDS.bestByP99({ label: fastest.run.label, why: why(), p99: p99WithInterval(fastest.evidence), others: others([fastest], fastest.run, true) }),
  };
}

/** Whether any of these runs' p99 is its slowest message (nothing above it). */
function countAbove0(entries: readonly Entry[]): boolean {
  return entries.some((e) => e.evidence.receptions > 0 && e.evidence.slowerThanP99 === 0);
}

/** How the verdict is coloured: green for a named best that passed, amber when nobody is named. */
export function verdictTone(verdict: ComparisonVerdict): 'good' | 'warn' | '' {
  if (verdict.kind === 'best') return verdict.passed ? 'good' : '';
  return verdict.kind === 'too-close' || verdict.kind === 'too-few' ? 'warn' : '';
}

/** Under the evidence, on the page and in the report: what the interval is. */
export const EVIDENCE_NOTE = COMPARE_WORDS.evidenceNote();
