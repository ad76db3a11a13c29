/**
 * A capacity search's answer in the guide's terms: the highest load that held, at what p99 and
 * share under 1 s, as a share of the tier's published rate for the scenario (both editions), and
 * the step where it broke and why. A client-limited search says so and never names the load as
 * the service's capacity; one whose cause is unknown says that; a break that held when its load
 * was run again is said to be unconfirmed. "Held" is the load a step offered and kept, never
 * above it (capacity-result.ts heldRates), and the tier share is taken from it. Pure.
 */
import { formatBytes, formatCount, formatMs, formatShare } from '../format.ts';
import type { EditionId } from '../guide/index.ts';
import { REQUIRED_SHARE } from '../outcome/index.ts';
import { combinationLabel, scenarioPhrase, scenarioWords } from '../run-config/index.ts';
import { formatPercent, judgeTiers, tierLoad } from '../tiers/index.ts';
import { stepByIndex, judgedLoadOf, instancesThatBroke, type CapacityResult, type CapacityStep } from './capacity-result.ts';
import { RAMP_UNITS, stepConfig } from './settings.ts';
import { CAPACITY_WORDS as W } from './words.ts';

export interface TierShare {
  edition: EditionId;
  /** The smallest tier that fits the held step by the one rule, else the one shown first. */
  tier: string;
  /** Measured delivered messages per second over the tier's published outbound rate; null when unpublished. */
  ratio: number | null;
  published: number | null;
}

export interface CapacityAnswer {
  /** One line, e.g. "Held 3,400 msg/s of 2.0 KB echo over WebSockets + JSON at p99 180 ms (99.40% under 1 s)". */
  headline: string;
  /** One sentence per edition: the share of the tier's published rate. */
  tierLines: string[];
  tiers: TierShare[];
  /** Where it broke and why, or why nothing broke. */
  brokeLine: string;
  /** Set when the client set the limit, or when which side did is unknown: what that means and what to do. */
  clientNote: string | null;
  /** Set when a step failed for a cause other than load (finding kind `fault`): what to do, as
   *  the step's diagnosis says it. */
  faultNote: string | null;
}

const EDITIONS: EditionId[] = ['current', '2019'];

export function capacityAnswer(result: CapacityResult): CapacityAnswer {
  const { finding } = result;
  const held = stepByIndex(result, finding.heldStep);
  const broke = stepByIndex(result, finding.brokeStep);
  const tiers = held ? EDITIONS.map((id) => tierShare(result, held, id)) : [];
  const what = held ? `${formatBytes(result.base.messageBytes)} ${scenarioPhrase(result.base)} over ${combinationLabel(result.base)}` : '';
  const clientNote = finding.limitedBy === 'client'
    ? W.clientLimit({ reason: broke?.judgement.reasons[0] ?? 'its health failed', held: held ? loadText(result, held) : 'nothing measured', advice: clientAdvice(result, broke) })
    : finding.limitedBy === 'unknown'
      ? W.unknownSide({ reason: broke?.judgement.reasons[0] ?? 'nothing shows it', heldStep: held ? held.index : null })
      : null;
  if (finding.kind === 'fault' && broke) return faultAnswer(result, held, broke);
  return { headline: headline(result, held, what), tierLines: tierLinesOf(tiers, result), tiers, brokeLine: brokeLine(result, broke), clientNote, faultNote: null };
}

/** A search ended by a fault: no capacity, the step's cause in its diagnosis's words, what to do. */
function faultAnswer(result: CapacityResult, held: CapacityStep | null, broke: CapacityStep): CapacityAnswer {
  const diagnosis = broke.judgement.diagnosis!;
  const gone = result.finding.limitedBy === 'service' && diagnosis.side === 'setup';
  const sentence = gone ? W.hubGone({ after: broke.index - 1, sentence: lowerFirst(diagnosis.sentence) }) : diagnosis.sentence;
  const before = held ? W.heldBeforeFault({ step: held.index, load: loadText(result, held) }) : '';
  return {
    headline: W.faultHeadline({ step: broke.index, load: loadText(result, broke), sentence }),
    tierLines: [],
    tiers: [],
    brokeLine: W.faultBroke({ step: broke.index, setup: result.finding.limitedBy === 'setup', before }),
    clientNote: null,
    faultNote: gone ? W.hubGoneAdvice() : W.faultAdvice({ advice: diagnosis.advice }),
  };
}

function lowerFirst(text: string): string {
  return text.charAt(0).toLowerCase() + text.slice(1);
}

function headline(result: CapacityResult, held: CapacityStep | null, what: string): string {
  const { finding } = result;
  if (!held) {
    if (finding.kind === 'firstStepFailed') return W.firstStepBroke({ load: loadText(result, result.steps[0]!), limitedBy: finding.limitedBy });
    if (result.running) return W.searching();
    return W.nothingJudged();
  }
  // A search that ended on a step it could not judge found no limit: never "Held" as if it had.
  // The step's diagnosis says why when something failed (a hub that stopped answering).
  const unjudged = finding.kind === 'unjudged' && !result.running ? result.steps.find((s) => s.judgement.passed === null) : undefined;
  if (unjudged) {
    const diagnosis = unjudged.judgement.diagnosis;
    const why = diagnosis && diagnosis.side !== 'none' ? ` ${diagnosis.sentence}` : '';
    return W.endedUnjudged({ step: unjudged.index, load: loadText(result, unjudged), why, heldStep: held.index, held: formatCount(heldFigure(held)) });
  }
  // Every step held so far is "at least the maximum" only once the search has ended.
  const atMax = finding.kind === 'atLeastMax' && !result.running;
  const prefix = W.heldPrefix({ limitedBy: finding.limitedBy, atMax, running: result.running });
  return W.headline({ prefix, held: formatCount(heldFigure(held)), what, connections: formatCount(held.connectionsOpened), p99: formatMs(held.latency.p99Us), share: formatShare(held.verdict.share ?? 0), atMax });
}

function tierShare(result: CapacityResult, held: CapacityStep, edition: EditionId): TierShare {
  const config = stepConfig(result.base, result.settings, held.load);
  const judged = judgeTiers(config, edition, tierLoad(config, held.connectionsOpened, held.heldSendsPerSec, heldFigure(held)));
  const tier = judged.fittingTier ?? judged.defaultTier;
  const row = judged.judgements.find((j) => j.tier === tier)?.rows.find((r) => r.column === 'outboundMessagesPerSecond');
  return { edition, tier, ratio: row?.ratio ?? null, published: row?.published ?? null };
}

/** One sentence per edition, or one for both when they name the same tier and figures. */
function tierLinesOf(tiers: TierShare[], result: CapacityResult): string[] {
  const [first, second] = tiers;
  if (first && second && first.tier === second.tier && first.ratio === second.ratio && first.published === second.published) return [tierLine(first, result, 'current and 2019 editions')];
  return tiers.map((t) => tierLine(t, result, t.edition === 'current' ? 'current edition' : '2019 edition'));
}

function tierLine(share: TierShare, result: CapacityResult, edition: string): string {
  const scenario = scenarioWords(result.base.scenario);
  if (share.ratio === null || share.published === null) return W.tierUnpublished({ edition, scenario, tier: share.tier });
  return W.tierShare({ percent: formatPercent(share.ratio), tier: share.tier, scenario, published: formatCount(share.published), edition });
}

function brokeLine(result: CapacityResult, broke: CapacityStep | null): string {
  if (broke) {
    return W.broke({ step: broke.index, load: loadText(result, broke), limitedBy: broke.judgement.limitedBy, on: onInstances(broke), reason: broke.judgement.reasons[0] ?? broke.verdict.sentence, confirmation: confirmationText(result) });
  }
  const unjudged = result.steps.find((s) => s.judgement.passed === null);
  if (unjudged) return W.stepUnjudged({ step: unjudged.index, load: loadText(result, unjudged), reason: unjudged.judgement.reasons[0] ?? '' });
  return result.running ? W.noBreakYet() : W.noBreak({ max: formatCount(result.settings.max), unit: RAMP_UNITS[result.settings.ramp] });
}

/** " on instance 2, http://b/hub (61.20% under 1 s)" for a step over several instances; "" for one,
 *  or when no single instance fell below the rule. */
function onInstances(step: CapacityStep): string {
  const broke = instancesThatBroke(step, REQUIRED_SHARE);
  if (broke.length === 0) return '';
  const all = step.instances ?? [];
  if (broke.length === all.length) return W.onEveryInstance();
  return W.onInstances({ instances: broke.map((i) => ({ number: all.indexOf(i) + 1, url: i.endpointUrl, share: formatShare(i.underOneSecond / i.planned) })) });
}

/** Whether the break failed again when its load was run once more. */
function confirmationText(result: CapacityResult): string {
  const { confirmed } = result.finding;
  const again = result.steps.find((s) => s.phase === 'confirm' && s.load === stepByIndex(result, result.finding.brokeStep)?.load);
  if (confirmed === true) return W.confirmed({ step: again?.index ?? '?' });
  if (confirmed === false) return W.heldAgain({ step: again?.index ?? '?' });
  if (confirmed === undefined) return '';
  const gone = result.steps.find((s) => s.index > (result.finding.brokeStep ?? 0) && judgedLoadOf(s).unreachable);
  if (gone) return W.unreachedAgain({ step: gone.index, connections: gone.connections });
  return result.running ? W.confirming() : W.notRunAgain();
}

/** What to do when the client set the limit: spread the load past this client. */
function clientAdvice(result: CapacityResult, broke: CapacityStep | null): string {
  if (result.connectionCap !== null) return W.addAgents();
  const causes = broke?.health.connectCauses ?? {};
  const fixes: string[] = [];
  if ((causes.EMFILE ?? 0) + (causes.ENFILE ?? 0) > 0) fixes.push(W.raiseOpenFiles());
  if ((causes.EADDRNOTAVAIL ?? 0) > 0) fixes.push(W.widenPorts());
  if ((broke?.health.workersLost ?? 0) > 0) fixes.push(W.engineLost());
  return fixes.length > 0 ? W.clientFixes({ fixes }) : W.moreWorkers();
}

/**
 * The one figure for the load a step held, in msg/s, said the same on the card, the slide, the
 * chart, the run bar and the reports (never 399 in one place and 400 in another). A step that held
 * kept at least 99% of the receptions it offered in under 1 s (the guide's rule), so what it held
 * is the load it offered: its planned send rate times the receptions each send makes (1 for echo,
 * every connection for a broadcast), so an echo step's held figure is its load's own (the slots
 * cut by the measured window's edges do not make 298 of 299); the offered rate itself when sends
 * make uneven receptions (groups). A step that broke is said with what it kept; steps of searches
 * kept before the offered load was recorded too.
 */
export function heldFigure(step: Pick<CapacityStep, 'offeredPerSec' | 'heldPerSec' | 'plannedSendsPerSec' | 'judgement'>): number {
  const offered = step.offeredPerSec;
  if (step.judgement.passed !== true || offered === undefined) return Math.round(step.heldPerSec);
  const perSend = step.plannedSendsPerSec > 0 ? offered / step.plannedSendsPerSec : 0;
  const whole = Math.round(perSend);
  return Math.round(whole >= 1 && Math.abs(perSend - whole) <= EDGE_SHARE * whole ? step.plannedSendsPerSec * whole : offered);
}

/** How far a step's measured window may cut its planned slots (its first and last send of each
 *  connection) before its offered rate is read as its own, not its send rate's multiple. */
const EDGE_SHARE = 0.03;

/** "400 connections" or "3,000 msg/s (1,000 connections every 333 ms)". */
export function loadText(result: Pick<CapacityResult, 'settings'>, step: Pick<CapacityStep, 'connections' | 'sendIntervalMs' | 'plannedSendsPerSec'>): string {
  if (result.settings.ramp === 'connections') return `${formatCount(step.connections)} connections every ${formatCount(step.sendIntervalMs)} ms`;
  return `${formatCount(step.plannedSendsPerSec)} msg/s (${formatCount(step.connections)} connections every ${formatCount(step.sendIntervalMs)} ms)`;
}

/** The answer as lines for a terminal or a report. */
export function answerLines(result: CapacityResult): string[] {
  const answer = capacityAnswer(result);
  return [answer.headline, ...(answer.faultNote ? [answer.faultNote] : answer.clientNote ? [answer.clientNote] : answer.tierLines), answer.brokeLine];
}
