/**
 * The comparison's answer in one line: the best combination by the guide's rule first (a run
 * that passed beats one that did not), then by delivery (more of the planned messages arrived),
 * and only among runs with equal delivery by p99. A lower p99 bought by losing messages never
 * wins. Pure: the page and the HTML report render it.
 */
import { formatMs, formatShare } from '../format.ts';
import { WIN_TOLERANCE, type ComparedRun } from './comparison.ts';

export interface ComparisonVerdict {
  /** Positions of the best runs in the runs given (two or more: a tie on p99); empty: no answer. */
  bestIndexes: number[];
  /** "Best: WebSockets + MessagePack: passed the guide's rule with the lowest p99, 12.3 ms (…)." */
  sentence: string;
  /** Whether the best run passed the guide's rule. */
  passed: boolean;
}

/** Why each other run did not win, in a few words ("lost 40 messages", "p99 41.0 ms"). */
function reasonAgainst(run: ComparedRun, best: ComparedRun): string {
  const r = run.result;
  if (r.outcome.kind !== 'finished') return r.outcome.kind === 'failed' ? 'failed' : `${r.outcome.kind}, no verdict`;
  if (r.verdict.status !== 'pass' && best.result.verdict.status === 'pass') return `failed the rule, ${deliveryText(run)}`;
  if ((r.verdict.delivery ?? 0) < (best.result.verdict.delivery ?? 0)) return deliveryText(run);
  return `p99 ${p99Text(run)}`;
}

const p99Of = (run: ComparedRun) => (run.result.latency.count === 0 ? null : run.result.latency.p99Us);
const p99Text = (run: ComparedRun) => {
  const p99 = p99Of(run);
  return p99 === null ? 'no message arrived' : formatMs(p99);
};
const deliveryText = (run: ComparedRun) => (run.result.verdict.delivery === null ? 'delivery unknown' : `delivered ${formatShare(run.result.verdict.delivery)}`);

export function comparisonVerdict(runs: readonly ComparedRun[]): ComparisonVerdict {
  if (runs.length < 2) return { bestIndexes: [], sentence: '', passed: false };
  const indexed = runs.map((run, index) => ({ run, index }));
  // Only finished runs carry a verdict; a stopped, failed or interrupted run cannot be the best.
  const finished = indexed.filter(({ run }) => run.result.outcome.kind === 'finished' && run.result.verdict.delivery !== null);
  if (finished.length === 0) return { bestIndexes: [], sentence: 'No run finished with a verdict: nothing to name as the best.', passed: false };
  const passing = finished.filter(({ run }) => run.result.verdict.status === 'pass');
  const pool = passing.length > 0 ? passing : finished;
  // Never reward loss: only the runs that delivered the most compete on p99.
  const bestDelivery = Math.max(...pool.map(({ run }) => run.result.verdict.delivery ?? 0));
  const delivering = pool.filter(({ run }) => run.result.verdict.delivery === bestDelivery);
  const known = delivering.filter(({ run }) => p99Of(run) !== null);
  const lowest = known.length === 0 ? null : Math.min(...known.map(({ run }) => p99Of(run)!));
  const best = lowest === null ? delivering : known.filter(({ run }) => p99Of(run)! <= lowest * (1 + WIN_TOLERANCE));
  const names = best.map(({ run }) => run.label).join(' and ') + (best.length > 1 ? ' (a tie within 1% on p99)' : '');
  const first = best[0]!.run;
  const others = indexed.filter(({ index }) => !best.some((b) => b.index === index)).map(({ run }) => `${run.label}: ${reasonAgainst(run, first)}`);
  const why = passing.length > 0
    ? `passed the guide's rule (99% in under 1 s, nothing lost)${pool.length > 1 ? ` with the lowest p99, ${p99Text(first)}` : `, p99 ${p99Text(first)}`}`
    : `no run passed the guide's rule; ${best.length > 1 ? 'they delivered' : 'it delivered'} the most (${formatShare(bestDelivery)}), p99 ${p99Text(first)}`;
  return {
    bestIndexes: best.map(({ index }) => index),
    sentence: `Best: ${names}: ${why}${others.length > 0 ? ` (${others.join('; ')})` : ''}.`,
    passed: passing.length > 0,
  };
}
