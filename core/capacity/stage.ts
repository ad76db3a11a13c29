/**
 * A capacity search's answer for a room: two sentences a stakeholder reads in five seconds ("Holds
 * 400 msg/s of 2.0 KB echo: 40% of Unit1." and "The service broke first, between 424 and 500
 * msg/s."), composed from the search's one answer (answer.ts) and finding, never judged again.
 * While the search runs it says "so far". Pure.
 */
import { formatBytes, formatCount } from '../format.ts';
import { scenarioPhrase } from '../run-config/index.ts';
import { formatPercent } from '../tiers/index.ts';
import { capacityAnswer, heldFigure, type CapacityAnswer } from './answer.ts';
import { stepByIndex, type CapacityResult, type CapacityStep } from './capacity-result.ts';
import { RAMP_UNITS } from './settings.ts';
import { CAPACITY_WORDS as W } from './words.ts';

export interface CapacityStage {
  /** What held, e.g. "Holds 400 msg/s of 2.0 KB echo: 40% of Unit1." */
  title: string;
  /** Where it broke and whose it was, or what is still to come. */
  broke: string;
  /** good: a capacity found; warn: the client's limit, an unknown cause or an unconfirmed break;
   *  bad: nothing held, or a fault ended the search (a crashed hub is red, never "Holds"); neutral: running. */
  tone: 'good' | 'warn' | 'bad' | 'neutral';
  /** The whole answer, for the lines below the slide's title. */
  answer: CapacityAnswer;
}

export function capacityStage(result: CapacityResult): CapacityStage {
  const answer = capacityAnswer(result);
  const { finding, running } = result;
  const held = stepByIndex(result, finding.heldStep);
  const broke = stepByIndex(result, finding.brokeStep);
  const what = `${formatBytes(result.base.messageBytes)} ${scenarioPhrase(result.base)}`;
  return { title: title(result, held, what, answer), broke: brokeText(result, held, broke), tone: tone(result), answer };
}

function title(result: CapacityResult, held: CapacityStep | null, what: string, answer: CapacityAnswer): string {
  const { finding, running } = result;
  // Nothing held, or a fault ended the search: the answer's own headline says why (first step
  // broke, nothing judged, searching, the hub crashed), never "Holds".
  if (!held || finding.kind === 'fault' || (finding.kind === 'unjudged' && !running)) return answer.headline;
  const share = answer.tiers[0];
  const tierText = share && share.ratio !== null ? `: ${formatPercent(share.ratio)} of ${share.tier}` : '';
  const connections = result.settings.ramp === 'connections' ? ` with ${formatCount(held.connectionsOpened)} connections` : '';
  const load = `${formatCount(heldFigure(held))} msg/s of ${what}${connections}${tierText}`;
  return W.holds({ load, limitedBy: finding.limitedBy, running, atMax: finding.kind === 'atLeastMax' });
}

function brokeText(result: CapacityResult, held: CapacityStep | null, broke: CapacityStep | null): string {
  if (result.finding.kind === 'unjudged' && !result.running && held) return W.unjudgedEnd();
  if (result.finding.kind === 'fault') return result.finding.limitedBy === 'setup' ? W.setupFault() : W.serviceFault();
  const unit = RAMP_UNITS[result.settings.ramp];
  const loadOf = (step: CapacityStep) => (result.settings.ramp === 'rate' ? step.plannedSendsPerSec : step.connections);
  if (!broke) {
    if (result.running) return held ? W.nothingBrokeYet() : '';
    return held ? W.nothingBroke({ max: formatCount(result.settings.max), unit }) : '';
  }
  const where = held ? W.between({ from: formatCount(loadOf(held)), to: formatCount(loadOf(broke)), unit }) : W.at({ load: formatCount(loadOf(broke)), unit });
  return W.brokeFirst({ limitedBy: broke.judgement.limitedBy, where, confirmed: result.finding.confirmed, running: result.running });
}

function tone(result: CapacityResult): CapacityStage['tone'] {
  const { finding } = result;
  if (finding.kind === 'fault') return 'bad';
  if (finding.kind === 'unjudged' && !result.running) return 'warn';
  if (result.running) return 'neutral';
  // A break never run again is not yet a capacity: amber, as the runner's exit 1 says.
  if (finding.limitedBy === 'client' || finding.limitedBy === 'unknown' || finding.confirmed === false || (finding.kind === 'found' && finding.confirmed === null)) return 'warn';
  return finding.kind === 'found' || finding.kind === 'atLeastMax' ? 'good' : 'bad';
}
