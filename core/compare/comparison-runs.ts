/**
 * A comparison run's plan: the same scenario and load once per chosen transport x protocol, in
 * turn. Each combination is validated on its own (SignalR cannot carry MessagePack over
 * Server-Sent Events) and carries the browser's limits for its transport. Pure.
 */
import { COMPARE_WORDS } from './words.ts';
import { MIN_RECEPTIONS_TO_RANK } from './p99-evidence.ts';
import {
  browserLimitWarnings,
  MAX_HTTP1_CONNECTIONS_PER_ORIGIN,
  browserConnectionCapacity,
  DEFAULT_HTTP2_STREAMS,
  combinationLabel,
  PROTOCOLS,
  TRANSPORTS,
  validateRunConfig,
  type LimitWarning,
  type ProtocolName,
  type RunConfig,
  type TransportName,
} from '../run-config/index.ts';

export interface Combination {
  transport: TransportName;
  protocol: ProtocolName;
}

/** Every transport with every protocol, in the form's order. */
export const ALL_COMBINATIONS: readonly Combination[] = TRANSPORTS.flatMap((transport) => PROTOCOLS.map((protocol) => ({ transport, protocol })));

/** Pause between two combinations, in s: the hub closes the last one's connections first. Default 3. */
export const DEFAULT_PAUSE_SEC = 3;
export const MAX_PAUSE_SEC = 600;

export interface PlannedCombination extends Combination {
  /** "WebSockets + MessagePack". */
  label: string;
  /** The run's configuration; null when the combination is refused. */
  config: RunConfig | null;
  /** Why it cannot run, as validation words it; empty when it can. */
  refusals: string[];
  /** What the browser allows for this transport at this load. */
  limits: LimitWarning[];
}

export function combinationKey(c: Combination): string {
  return `${c.transport}:${c.protocol}`;
}

/** Each combination of `chosen` (in ALL_COMBINATIONS order, duplicates dropped) with its configuration. */
export function planComparison(base: RunConfig, chosen: readonly Combination[]): PlannedCombination[] {
  const keys = new Set(chosen.map(combinationKey));
  return ALL_COMBINATIONS.filter((c) => keys.has(combinationKey(c))).map((c) => planOne(base, c));
}

export function planOne(base: RunConfig, combination: Combination): PlannedCombination {
  const checked = validateRunConfig({ ...base, ...combination });
  return {
    ...combination,
    label: combinationLabel({ ...combination, skipNegotiation: base.skipNegotiation }),
    config: checked.ok ? checked.config : null,
    refusals: checked.ok ? [] : checked.errors,
    limits: browserLimitWarnings(combination.transport, base.endpointUrl, base.connections),
  };
}

/** Why a comparison cannot start, or null: it needs two runnable combinations and a sane pause. */
export function comparisonProblem(plan: readonly PlannedCombination[], pauseSec: number): string | null {
  const runnable = plan.filter((p) => p.config !== null).length;
  if (!Number.isInteger(pauseSec) || pauseSec < 0 || pauseSec > MAX_PAUSE_SEC) {
    return COMPARE_WORDS.pauseOutOfRange({ maxSec: MAX_PAUSE_SEC, pause: String(pauseSec) });
  }
  if (runnable < 2) {
    return COMPARE_WORDS.tooFewCombinations({ runnable, refused: plan.length - runnable });
  }
  return null;
}

/** The port `npm start` gives the hub-sample's HTTPS listener (scripts/start.sh, --HttpsPort). */
export const HUB_SAMPLE_HTTPS_PORT = 5181;

/**
 * What Server-Sent Events and long polling need to be ranked, said before Start when they are
 * chosen against an http:// endpoint: there this browser gives them 6 connections per origin
 * (4 usable), so each of them must send many messages for a p99 that can be ranked. Null when
 * neither is chosen or the endpoint is https:// (HTTP/2, no such limit).
 */
export function rankingNeeds(endpointUrl: string, chosen: readonly Combination[]): string | null {
  if (endpointUrl.trim().toLowerCase().startsWith('https:')) return null;
  const held = [...new Set(chosen.map((c) => c.transport))].filter((t) => t !== 'WebSockets');
  if (held.length === 0) return null;
  const usable = browserConnectionCapacity(held[0]!, endpointUrl);
  const perConnection = Math.ceil(MIN_RECEPTIONS_TO_RANK / usable);
  const names = held.map((t) => (t === 'ServerSentEvents' ? 'Server-Sent Events' : 'long polling')).join(' and ');
  return COMPARE_WORDS.rankingNeeds({ names, perOrigin: MAX_HTTP1_CONNECTIONS_PER_ORIGIN, usable, minReceptions: MIN_RECEPTIONS_TO_RANK, perConnection, http2Streams: DEFAULT_HTTP2_STREAMS });
}
