/**
 * A run's setup in a link: the form's fields as query parameters, so a shared URL opens the
 * dashboard with the same configuration. Values travel as typed; validation happens on Start.
 * A hub profile travels as its JSON (it is no secret) while it fits; a longer one is named as
 * left out, so the link's receiver is told to paste it instead of running the bundled contract.
 */
import { DEFAULTS, type RunConfig } from './config.ts';
import { hubInstances } from './hub-instances.ts';
import { RUN_CONFIG_WORDS as W } from './words.ts';

/** The fields a link carries, in a stable order. */
export const URL_FIELDS = [
  'endpointUrl', 'scenario', 'transport', 'protocol', 'skipNegotiation', 'connections', 'workers', 'messageBytes', 'sendIntervalMs',
  'durationSec', 'drainSec', 'warmupSec', 'senders', 'groupSize', 'groupCount', 'reconnect',
  'dropAtSec', 'dropEverySec', 'dropSharePercent', 'dropKind', 'reconnectPolicy', 'statefulReconnect',
] as const satisfies readonly (keyof RunConfig)[];

export type UrlField = (typeof URL_FIELDS)[number];

/** Query string for a configuration; fields equal to their default are left out to keep links short. */
export function configToQuery(config: RunConfig): string {
  const params = new URLSearchParams();
  for (const field of URL_FIELDS) {
    // Every instance of a scaled-out hub, comma separated as the form takes them.
    const value = field === 'endpointUrl' ? hubInstances(config).join(',') : config[field];
    const fallback = field === 'endpointUrl' ? undefined : (DEFAULTS as Record<string, unknown>)[field];
    if (value === null || value === undefined || value === fallback) continue;
    params.set(field, String(value));
  }
  if (config.hubProfile) {
    const text = JSON.stringify(config.hubProfile);
    if (linkedProfileChars(text) <= MAX_LINK_PROFILE_CHARS) params.set(PROFILE_PARAM, text);
    else params.set(PROFILE_LEFT_OUT_PARAM, config.hubProfile.name);
  }
  return params.toString();
}

/** The hub profile's JSON, as the link carries it. */
const PROFILE_PARAM = 'hubProfile';
/** The name of a profile too long for the link, carried instead of it. */
const PROFILE_LEFT_OUT_PARAM = 'hubProfileLeftOut';
/**
 * Most characters a hub profile may take in a link, once encoded. Links travel through chat
 * tools, issue trackers and proxies that cut them at 2 to 8 thousand characters; a profile is a
 * few hundred, so this leaves room for the rest of the setup under the lowest of those.
 */
export const MAX_LINK_PROFILE_CHARS = 1_500;

function linkedProfileChars(text: string): number {
  return new URLSearchParams({ [PROFILE_PARAM]: text }).toString().length - PROFILE_PARAM.length - 1;
}

/** What a link says about the hub profile: its JSON text, or the name of one it left out. */
export type LinkedProfile = { text: string } | { leftOut: string };

/** The hub profile a query string carries, as typed; null when it carries none. */
export function queryToProfile(search: string): LinkedProfile | null {
  const params = new URLSearchParams(search);
  const text = params.get(PROFILE_PARAM);
  if (text !== null && text.trim() !== '') return { text };
  const leftOut = params.get(PROFILE_LEFT_OUT_PARAM);
  return leftOut === null ? null : { leftOut };
}

/** For whoever shares the page's link: why the link leaves the hub profile out; null when it
 *  carries it (or there is none). */
export function linkProfileNote(config: Pick<RunConfig, 'hubProfile'>): string | null {
  if (!config.hubProfile) return null;
  const chars = linkedProfileChars(JSON.stringify(config.hubProfile));
  if (chars <= MAX_LINK_PROFILE_CHARS) return null;
  return W.linkLeavesProfile({ name: config.hubProfile.name, chars, max: MAX_LINK_PROFILE_CHARS });
}

/** For whoever opens a link that left its profile out: what to do. */
export function leftOutProfileNote(name: string): string {
  return W.linkLeftProfileOut({ name });
}

/**
 * Where the server's metrics are read, beside the run's fields: "off", or the address typed.
 * Absent: the default, read from the endpoint's own /metrics.
 */
const METRICS_PARAM = 'metrics';
const METRICS_OFF = 'off';

export interface MetricsChoice {
  enabled: boolean;
  /** The address typed; empty for the endpoint's /metrics. */
  address: string;
}

/** Sets or removes the metrics parameter of `params` for a choice (the default leaves it out). */
export function setMetricsParam(params: URLSearchParams, choice: MetricsChoice): void {
  const address = choice.address.trim();
  if (!choice.enabled) params.set(METRICS_PARAM, METRICS_OFF);
  else if (address !== '') params.set(METRICS_PARAM, address);
  else params.delete(METRICS_PARAM);
}

/** The metrics choice a query string makes, as typed; null when it makes none. */
export function queryToMetrics(search: string): MetricsChoice | null {
  const value = new URLSearchParams(search).get(METRICS_PARAM);
  if (value === null) return null;
  return value.trim() === METRICS_OFF ? { enabled: false, address: '' } : { enabled: true, address: value };
}

/** The fields a query string sets, as text; unknown parameters are ignored. */
export function queryToFields(search: string): Partial<Record<UrlField, string>> {
  const params = new URLSearchParams(search);
  const fields: Partial<Record<UrlField, string>> = {};
  for (const field of URL_FIELDS) {
    const value = params.get(field);
    if (value !== null) fields[field] = value;
  }
  return fields;
}
