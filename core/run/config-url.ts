/**
 * A run's setup in a link: the form's fields as query parameters, so a shared URL opens the
 * dashboard with the same configuration. Values travel as typed; validation happens on Start.
 */
import { DEFAULTS, type RunConfig } from './config.ts';
import { hubInstances } from './instances.ts';

/** The fields a link carries, in a stable order. */
export const URL_FIELDS = [
  'endpointUrl', 'scenario', 'transport', 'protocol', 'connections', 'workers', 'messageBytes', 'sendIntervalMs',
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
    if (value === null || value === fallback) continue;
    params.set(field, String(value));
  }
  return params.toString();
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
