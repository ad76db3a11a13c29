/**
 * The compare room's words: why a comparison cannot start, what it needs to rank a p99, and its
 * answer in one line (best, too close, too few). The plans and the verdict (comparison-runs.ts,
 * drop-comparison.ts, held-comparison.ts, verdict.ts) decide with codes and values; only this file
 * writes prose, so the page and the HTML report say the same thing. Pure.
 */
import { formatCount } from '../format.ts';

export const COMPARE_WORDS = {
  pauseOutOfRange: (p: { maxSec: number; pause: string }) =>
    `The pause between combinations must be a whole number of seconds from 0 to ${p.maxSec}, but is ${p.pause}.`,
  /** Fewer than two combinations that can run; `refused` of those chosen were refused. */
  tooFewCombinations: (p: { runnable: number; refused: number }) =>
    `A comparison needs at least two combinations that can run; ${p.runnable === 0 ? 'none is' : 'only one is'} chosen${p.refused > 0 ? ` (${p.refused} refused, see the reasons beside them)` : ''}. Tick more transports or protocols.`,
  /** Server-Sent Events or long polling over http://: few connections, so many messages each. */
  rankingNeeds: (p: { names: string; perOrigin: number; usable: number; minReceptions: number; perConnection: number; http2Streams: number }) =>
    `Over http:// this browser gives ${p.names} ${p.perOrigin} connections per origin (${p.usable} usable). A p99 is ranked only from ${formatCount(p.minReceptions)} messages a run: with ${p.usable} connections, ${formatCount(p.perConnection)} messages each (${formatCount(p.perConnection)} s at one a second, ${formatCount(Math.ceil(p.perConnection / 4))} s at four). Over https:// (HTTP/2) they take up to ${p.http2Streams} connections and the same messages come in a few seconds.`,
  dropNotSet: () => 'Set Drop at first (and turn Reconnect on): this comparison runs one drop under each variant.',
  rampsDiffer: () => 'The searches ramped differently: run them on one ramp to compare what each holds.',
  /** Equal on delivery, and some contenders too few messages for a p99. */
  tooFewToRank: (p: { counts: string; minReceptions: number; minSlower: number; slowest: string; runAtLeastSec: number }) =>
    `Too few messages to rank: ${p.counts}; a run's p99 needs ${formatCount(p.minReceptions)} messages to have ${p.minSlower} slower than it${p.slowest}. Run at least ${formatCount(p.runAtLeastSec)} s at this load.`,
  tooClose: (p: { named: string; others: string }) =>
    `Too close to call: ${p.named}; their intervals from resampling each run's seconds overlap${p.others}.`,
  /** The best named by p99 among runs equal on delivery, its interval below every other's. */
  bestByP99: (p: { label: string; why: string; p99: string; others: string }) =>
    `Best: ${p.label}: ${p.why} with the lowest p99, ${p.p99}, below every other run's interval${p.others}.`,
  noneFinished: () => 'No run finished with a verdict: nothing to name as the best.',
  /** Why the best won: it passed the guide's rule, or, none passing, it delivered the most. */
  passedRule: () => "passed the guide's rule (99% in under 1 s, nothing lost)",
  deliveredMost: (p: { delivered: string }) => `no run passed the guide's rule; it delivered the most (${p.delivered})`,
  /** The best named by delivery alone (loss decided; its p99 only said). */
  bestByDelivery: (p: { label: string; why: string; p99: string; others: string }) => `Best: ${p.label}: ${p.why}, p99 ${p.p99}${p.others}.`,

  /** Capacity searches side by side (held-comparison.ts); `broke`: the stage's break as a clause,
   *  `amount`: a load with its ramp's unit. */
  heldNoneFound: (p: { rows: readonly { label: string; broke: string }[] }) =>
    `No winner: ${p.rows.map((r) => `${r.label} found no capacity (${r.broke})`).join('; ')}.`,
  heldTooClose: (p: { named: readonly { label: string; exact: boolean; amount: string }[]; step: string }) =>
    `Too close to call: ${p.named.map((r) => `${r.label} held ${r.exact ? '' : 'at least '}${r.amount}`).join(', ')}: no more than one step (${p.step}) apart.`,
  heldLimitNotFound: (p: { bounded: readonly { label: string; amount: string; broke: string }[]; top: { label: string; amount: string } }) =>
    `No winner: ${p.bounded.map((r) => `${r.label} held at least ${r.amount}, its service's limit not found (${r.broke})`).join('; ')}. ${p.top.label} held ${p.top.amount}.`,
  heldMost: (p: { label: string; exact: boolean; amount: string; step: string; against: readonly { label: string; amount: string; broke: string }[] }) =>
    `Holds the most: ${p.label}, ${p.exact ? '' : 'at least '}${p.amount}, more than a step (${p.step}) above the others (${p.against.map((r) => `${r.label}: ${r.amount}, ${r.broke}`).join('; ')}).`,

  /** What a run's p99 rests on, one line per run: "WebSockets: p99 12.3 ms (11.9–12.8 ms) from 1,000
   *  draws of its 30 seconds; 6,000 messages, 60 slower than p99". Figures formatted. */
  evidenceLine: (p: { label: string; p99: string | null; draws: { resamples: number; seconds: number } | null; receptions: number; slower: number; enough: boolean; minReceptions: number }) => {
    if (p.p99 === null) return `${p.label}: no message arrived, no p99.`;
    const draws = p.draws ? ` from ${formatCount(p.draws.resamples)} draws of its ${formatCount(p.draws.seconds)} second${p.draws.seconds === 1 ? '' : 's'}` : '';
    const slower = p.slower === 0 ? 'none slower than p99: it is the slowest message' : `${formatCount(p.slower)} slower than p99`;
    return `${p.label}: p99 ${p.p99}${draws}; ${formatCount(p.receptions)} message${p.receptions === 1 ? '' : 's'}, ${slower}${p.enough ? '' : ` (too few to rank: ${formatCount(p.minReceptions)} needed)`}.`;
  },
  /** Inside tooFewToRank: the fewest messages a contender had are its slowest message itself. */
  slowestItself: (p: { fewest: number }) => ` (with ${formatCount(p.fewest)} it is the slowest message itself)`,
  /** Under the evidence, on the page and in the report: what the interval is. */
  evidenceNote: () => "Each p99 with the range holding 95% of it when the run's seconds are drawn again at random (1,000 times); a best is named only when its range lies below every other run's.",
};
