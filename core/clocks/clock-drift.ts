/**
 * What agents' clocks allow a run to claim. Each agent's thread converts its clock to the
 * dashboard's with the offset of a round taken at the run's start (clock-offset.ts): a reception's
 * latency is its receive time minus its planned send time, both on that time base. A second round
 * at the run's end shows how far the clock drifted meanwhile; between the two rounds the offset
 * is interpolated linearly, and the uncertainty with it.
 *
 * The threads have converted every time with the start's offset alone, and a latency is recorded
 * into per-second histograms as it arrives: it cannot be converted again afterwards. So the drift
 * is not subtracted from the figures; it widens the bound instead. A reception measured at
 * dashboard time t may be off by each clock's bound at t (its uncertainty plus how far its offset
 * had moved from the start's); a cross-agent latency by the sum of two clocks' bounds: the
 * agents' *combined bound*. Within it of the guide's 1 s line a reception is *undecidable*: the
 * clocks cannot tell in time from late. A negative latency within it is in time: its true latency
 * is at most the bound, far under the line (two agents on one machine see them, their deliveries
 * faster than their clocks are known); one beyond it means a clock moved more than the rounds saw.
 * Pure: the clocks come from the rounds.
 *
 * An agent that missed the closing round (it left, or did not answer) has an unknown drift, not
 * none: its clock is bounded only at its start round. After that round its bound is unknown
 * (Infinity), so every reception of a later second of a run that crosses its clock is
 * undecidable: the merged histograms cannot tell its receptions from the others', and none of them
 * can be told in time or late. An agent without a start round is an unknown clock (null: no
 * judgement at all, an echo run on its own clock). Runs kept before the closing round was taken
 * keep the start's bound.
 */
import { formatMs, formatSignedMs } from '../format.ts';
import { GUIDE_LATENCY_LIMIT_US } from '../latency/index.ts';
import type { ClockEstimate } from './clock-offset.ts';
import { CLOCKS_WORDS } from './words.ts';

/** One clock round's result for an agent, as a run records it. */
export type ClockRound = Pick<ClockEstimate, 'offsetUs' | 'uncertaintyUs' | 'measuredAtUs'>;

/** An agent's clocks as a run records them (core/result/result.ts RunAgent has these fields). */
export interface AgentClocks {
  /** The start round: null fields when it got no answer (the agent then ran on its own clock). */
  clockOffsetUs: number | null;
  clockUncertaintyUs: number | null;
  clockMeasuredAtUs?: number | null;
  /** The end round: null when it got no answer (the agent left, or did not answer); absent in
   *  runs kept before it was taken. */
  clockEnd?: ClockRound | null;
}

/** More than this share of the planned receptions undecidable, and the run has no verdict. */
export const MAX_UNDECIDABLE_SHARE = 0.01;

function startRound(agent: AgentClocks): ClockRound | null {
  if (agent.clockOffsetUs === null || agent.clockUncertaintyUs === null) return null;
  return { offsetUs: agent.clockOffsetUs, uncertaintyUs: agent.clockUncertaintyUs, measuredAtUs: agent.clockMeasuredAtUs ?? 0 };
}

/** How far between the rounds `atUs` is: 0 at the start round, 1 at the end round (clamped). */
function fraction(start: ClockRound, end: ClockRound, atUs: number): number {
  const spanUs = end.measuredAtUs - start.measuredAtUs;
  return spanUs <= 0 ? 1 : Math.min(1, Math.max(0, (atUs - start.measuredAtUs) / spanUs));
}

/** The agent's clock minus the dashboard's at dashboard time `atUs`, interpolated linearly
 *  between the rounds; the start's offset when there is no end round (the best estimate, though
 *  without a bound when the end round got no answer: boundAtUs); null with no start round. */
export function offsetAtUs(agent: AgentClocks, atUs: number): number | null {
  const start = startRound(agent);
  if (!start) return null;
  const end = agent.clockEnd;
  if (!end) return start.offsetUs;
  return start.offsetUs + (end.offsetUs - start.offsetUs) * fraction(start, end, atUs);
}

/** Drift between the rounds, in µs per second (ppm); null without both rounds. */
export function driftPpm(agent: AgentClocks): number | null {
  const start = startRound(agent);
  const end = agent.clockEnd;
  if (!start || !end || end.measuredAtUs <= start.measuredAtUs) return null;
  return ((end.offsetUs - start.offsetUs) / (end.measuredAtUs - start.measuredAtUs)) * 1_000_000;
}

/**
 * How far a time the agent converted with the start's offset may be from the dashboard's at `atUs`:
 * the uncertainty (interpolated between the rounds) plus how far the interpolated offset had
 * moved from the start's. Infinity after the start round when the end round got no answer (its
 * drift is unknown); the start's uncertainty in runs kept before the end round was taken. Null
 * with no start round (an unknown clock).
 */
export function boundAtUs(agent: AgentClocks, atUs: number): number | null {
  const start = startRound(agent);
  if (!start) return null;
  const end = agent.clockEnd;
  if (end === null) return atUs > start.measuredAtUs ? Infinity : start.uncertaintyUs;
  if (!end) return start.uncertaintyUs;
  const f = fraction(start, end, atUs);
  const uncertaintyUs = start.uncertaintyUs + (end.uncertaintyUs - start.uncertaintyUs) * f;
  return uncertaintyUs + Math.abs(offsetAtUs(agent, atUs)! - start.offsetUs);
}

/**
 * The run's combined bound at `atUs`: a latency may be off by the bounds of its sender's and its
 * receiver's clocks, so the two largest of the clocks taking part (the dashboard's own workers
 * are one clock, exact). One clock alone (echo, or every connection on one machine) converts both
 * ends alike: 0. Infinity when a clock's drift is unknown by then; null when a clock taking part is
 * unknown.
 */
export function combinedBoundUs(agents: readonly AgentClocks[], dashboardTakesPart: boolean, crossesClocks: boolean, atUs: number): number | null {
  const clocks = agents.length + (dashboardTakesPart ? 1 : 0);
  if (!crossesClocks || clocks < 2) return 0;
  const bounds: number[] = dashboardTakesPart ? [0] : [];
  for (const agent of agents) {
    const bound = boundAtUs(agent, atUs);
    if (bound === null) return null;
    bounds.push(bound);
  }
  bounds.sort((a, b) => b - a);
  return Math.round(bounds[0]! + bounds[1]!);
}

/** A run's receptions judged against its clocks (RunResult.clocks). */
export interface ClockJudgement {
  /** The largest combined bound over the run's seconds that have one, µs: latencies there are
   *  known to ± this. */
  boundUs: number;
  /** Receptions within the bound of the 1 s line; with `unbounded`, every reception of the seconds
   *  without a bound too, and the receptions before their planned time (none can be placed then). */
  undecidable: number;
  /** Of those, receptions in seconds without a bound: after the start round of an agent whose
   *  drift is unknown (no answer to the closing round). Absent when none, and in runs kept before. */
  unbounded?: number;
  /** With `unbounded`: the agents whose drift is unknown (the closing round got no answer). */
  driftUnknown?: number;
  /** Receptions before their planned time (clocks apart), and the most before, µs (null: none). */
  negative: number;
  maxNegativeUs: number | null;
  /** The clock rounds taken: 2 when every agent answered at the start and the end. */
  rounds: 1 | 2;
}

/** The latencies a run recorded, as the judgement reads them. */
export interface LatencyCounts {
  /** Arrival seconds (1-based from the run's start) holding receptions. */
  seconds: readonly number[];
  /** Receptions that arrived in `second` with a latency in [lowUs, highUs]. */
  countBetween(second: number, lowUs: number, highUs: number): number;
  negative: number;
  maxNegativeUs: number | null;
}

/**
 * Judges the receptions of a run with agents: each arrival second with the combined bound at its
 * end (the larger bound). Null when the bound is unknown (an unknown clock).
 */
export function judgeClocks(agents: readonly AgentClocks[], dashboardTakesPart: boolean, crossesClocks: boolean, runStartUs: number, counts: LatencyCounts): ClockJudgement | null {
  let boundUs = 0;
  let undecidable = 0;
  let unbounded = 0;
  for (const second of counts.seconds) {
    const bound = combinedBoundUs(agents, dashboardTakesPart, crossesClocks, runStartUs + second * 1_000_000);
    if (bound === null) return null;
    // Negative latencies are recorded at the histogram's floor (1 µs): they are counted apart.
    if (bound === Infinity) unbounded += counts.countBetween(second, 2, Infinity);
    else if (bound > 0) undecidable += counts.countBetween(second, Math.max(2, GUIDE_LATENCY_LIMIT_US - bound), GUIDE_LATENCY_LIMIT_US + bound);
    if (bound !== Infinity) boundUs = Math.max(boundUs, bound);
  }
  // Without a bound for some seconds, a negative latency can be placed nowhere: undecidable. With
  // one, those within it are in time (at most the bound after their planned time), and one beyond
  // it leaves the run without a verdict (clockProblem).
  const negativeWithin = counts.maxNegativeUs !== null && unbounded > 0 ? counts.negative : 0;
  const rounds = agents.length > 0 && agents.every((agent) => agent.clockEnd) ? 2 : 1;
  const driftUnknown = agents.filter((agent) => agent.clockEnd === null && startRound(agent) !== null).length;
  return {
    boundUs, undecidable: undecidable + unbounded + negativeWithin, negative: counts.negative, maxNegativeUs: counts.maxNegativeUs, rounds,
    ...(unbounded > 0 ? { unbounded, driftUnknown } : {}),
  };
}

/** Why the clocks leave a run without a verdict, in words; null when they allow one. */
export function clockProblem(judgement: ClockJudgement | null | undefined, planned: number): string | null {
  if (!judgement || planned === 0) return null;
  const { boundUs, undecidable, negative, maxNegativeUs } = judgement;
  const unbounded = judgement.unbounded ?? 0;
  if (maxNegativeUs !== null && maxNegativeUs > boundUs && unbounded === 0) {
    return CLOCKS_WORDS.beforeSent({ negative, maxNegativeUs, boundUs });
  }
  if (undecidable > planned * MAX_UNDECIDABLE_SHARE && unbounded > 0) {
    const agents = judgement.driftUnknown ?? 1;
    return CLOCKS_WORDS.driftUnknown({ undecidable, planned, unbounded, agents });
  }
  if (undecidable > planned * MAX_UNDECIDABLE_SHARE) {
    return CLOCKS_WORDS.tooManyUndecidable({ undecidable, planned, boundUs });
  }
  return null;
}

/** An agent's clock at the run's start, for people: its offset and bound, or why it is unknown
 *  (then the agent ran on its own clock, echo only). The page's summary and the runner's alike. */
export function clockStartText(agent: AgentClocks): string {
  return agent.clockOffsetUs === null || agent.clockUncertaintyUs === null ? CLOCKS_WORDS.startUnknown() : `${formatSignedMs(agent.clockOffsetUs)} ± ${formatMs(agent.clockUncertaintyUs)}`;
}

/** Its clock from the round at the run's end, and the drift between the two rounds; "–" in runs
 *  kept before that round was taken. */
export function clockEndText(agent: AgentClocks): string {
  if (agent.clockEnd === undefined) return '–';
  if (agent.clockEnd === null) return 'no answer: drift unknown';
  const drift = driftPpm(agent);
  return `${formatSignedMs(agent.clockEnd.offsetUs)} ± ${formatMs(agent.clockEnd.uncertaintyUs)}${drift === null ? '' : ` (drift ${drift >= 0 ? '+' : ''}${drift.toFixed(1)} µs/s)`}`;
}
