/**
 * Before a run over several hub instances: endpoints (and --server-metrics addresses) whose host
 * names resolve to one address, port and path are one instance, refused with exit 2 like any bad
 * input (core/run-config/instance-identity.ts). The spelling alone (localhost and 127.0.0.1) is refused
 * earlier, with the other options (core/run-config/config.ts, cli/args.ts); this adds what only DNS can
 * tell, e.g. a machine's name and its address. A name that does not resolve, or not in time, is
 * left to the run, which says what its connects met.
 */
import { lookup } from 'node:dns/promises';
import { hostsToResolve, instanceKey, sameAddressPairs, sameInstanceText, sameMetricsText, type SameInstance } from '../core/run-config/index.ts';

/** Longest wait for one host name's addresses, in ms: the check must cost a run seconds at most,
 *  and a resolver that does not answer is the run's to meet, not this check's. */
export const RESOLVE_TIMEOUT_MS = 2_000;

/** The addresses a host name resolves to (every family); rejects or answers empty when it does not. */
export type ResolveHost = (host: string) => Promise<readonly string[]>;

export const systemResolve: ResolveHost = async (host) => (await lookup(host, { all: true })).map((entry) => entry.address);

/**
 * Every refusal, worded: endpoints and metrics addresses that reach one instance once names are
 * resolved, beyond those their spelling already told. Only lists of two or more are resolved.
 */
export async function sameInstanceRefusals(endpointUrls: readonly string[], metricsUrls: readonly string[], resolve: ResolveHost = systemResolve, timeoutMs = RESOLVE_TIMEOUT_MS): Promise<string[]> {
  const lists = [endpointUrls, metricsUrls].filter((urls) => urls.length > 1);
  const addresses = await resolveAll(lists.flatMap((urls) => hostsToResolve(urls)), resolve, timeoutMs);
  const onlyByAddress = (pair: SameInstance) => instanceKey(pair.first) !== instanceKey(pair.second);
  return [
    ...(endpointUrls.length > 1 ? sameAddressPairs(endpointUrls, addresses).filter(onlyByAddress).map(sameInstanceText) : []),
    ...(metricsUrls.length > 1 ? sameAddressPairs(metricsUrls, addresses).filter(onlyByAddress).map(sameMetricsText) : []),
  ];
}

/** Each name's addresses, looked up at once; a name that fails or takes longer than `timeoutMs` is left out. */
async function resolveAll(hosts: readonly string[], resolve: ResolveHost, timeoutMs: number): Promise<Map<string, readonly string[]>> {
  const unique = [...new Set(hosts)];
  const answers = await Promise.all(unique.map((host) => withinTime(resolve(host), timeoutMs).catch(() => [])));
  return new Map(unique.map((host, k) => [host, answers[k]!]));
}

function withinTime<T>(promise: Promise<T>, timeoutMs: number): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${timeoutMs} ms`)), timeoutMs);
    // A resolver still at work must not keep the runner waiting.
    timer.unref?.();
  });
  return Promise.race([promise, late]).finally(() => clearTimeout(timer));
}
