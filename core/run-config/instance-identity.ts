/**
 * Which hub instance an endpoint reaches, so one instance listed under two spellings
 * (`http://127.0.0.1:5180/signalrbench` and `http://localhost:5180/signalrbench`) is not taken for
 * two: its connections would be planned as two instances' and its server metrics summed twice.
 *
 * An endpoint's identity is what a connection reaches: host, port and path. The scheme counts
 * through its default port only (80, 443): one port has one listener, so `http://h:5180/x` and
 * `https://h:5180/x` reach the same process (or one of them fails). Host names are compared
 * without case or a trailing dot; the path without trailing slashes, with its case (ASP.NET Core
 * routes ignore case, a proxy in front may not); the query and fragment are ignored.
 *
 * This machine's names are one host: `localhost`, `127.0.0.1`, `[::1]`, and `0.0.0.0` and `[::]`
 * (a connect to "any address" reaches this machine on Linux and macOS, and fails on Windows: two
 * endpoints that differ only there are one instance, or one of them fails). Other 127.x addresses
 * are not folded in: a process may listen on 127.0.0.2 apart from one on 127.0.0.1.
 *
 * Without DNS (a browser) the spelling decides ({@link sameInstancePairs}); the runner adds the
 * addresses each host name resolves to ({@link sameAddressPairs}). Pure.
 */
import { RUN_CONFIG_WORDS as W } from './words.ts';

/** Where an endpoint's connections go. */
export interface InstanceAddress {
  /** Lower case, without a trailing dot; IPv6 in brackets; this machine's names as 127.0.0.1. */
  host: string;
  /** The port, the scheme's default made explicit. */
  port: number;
  /** The path without trailing slashes ("/" for the root), case kept. */
  path: string;
}

/** Two endpoints of one list that reach one hub instance. */
export interface SameInstance {
  /** The earlier of the two, as given. */
  first: string;
  /** The later, as given. */
  second: string;
  /** What both reach, e.g. "127.0.0.1:5180/signalrbench". */
  reaches: string;
  /** The host names resolved to find it, e.g. ["myhost is 10.0.0.5"]; empty when the spelling told. */
  resolved: string[];
}

/** The host every name of this machine stands for. */
const THIS_MACHINE = '127.0.0.1';
const THIS_MACHINE_NAMES = new Set(['localhost', '127.0.0.1', '[::1]', '0.0.0.0', '[::]']);
const DEFAULT_PORTS: Record<string, number> = { 'http:': 80, 'https:': 443, 'ws:': 80, 'wss:': 443 };

/** The endpoint's address (see the module comment); null when it is not an absolute URL with a host. */
export function instanceAddress(endpointUrl: string): InstanceAddress | null {
  let url: URL;
  try {
    url = new URL(endpointUrl.trim());
  } catch {
    return null;
  }
  if (url.hostname === '') return null;
  const port = url.port === '' ? DEFAULT_PORTS[url.protocol] : Number(url.port);
  if (port === undefined) return null;
  const path = url.pathname.replace(/\/+$/, '') || '/';
  return { host: canonicalHost(url.hostname), port, path };
}

/** The address as people read it: "127.0.0.1:5180/signalrbench", "[fe80::1]:443/hub". */
export function addressText(address: InstanceAddress): string {
  return `${address.host}:${address.port}${address.path === '/' ? '/' : address.path}`;
}

/** The identity key of an endpoint (its address's text); null when it is not a URL. */
export function instanceKey(endpointUrl: string): string | null {
  const address = instanceAddress(endpointUrl);
  return address ? addressText(address) : null;
}

/**
 * A host as compared: lower case, no trailing dot, IPv4 written within IPv6 as IPv4, this
 * machine's names as 127.0.0.1. Takes a URL's hostname (IPv6 in brackets) or a resolver's
 * address (IPv6 bare).
 */
export function canonicalHost(host: string): string {
  let text = host.trim().toLowerCase().replace(/\.$/, '');
  if (text.includes(':') && !text.startsWith('[')) text = `[${text}]`;
  // The URL parser writes IPv6 and IPv4 one way each (127.1 → 127.0.0.1, [0:0::1] → [::1]).
  try {
    text = new URL(`http://${text}/`).hostname;
  } catch {
    return text;
  }
  const mapped = /^\[::ffff:([0-9a-f]{1,4}):([0-9a-f]{1,4})\]$/.exec(text);
  if (mapped) {
    const high = parseInt(mapped[1]!, 16);
    const low = parseInt(mapped[2]!, 16);
    text = [high >> 8, high & 255, low >> 8, low & 255].join('.');
  }
  return THIS_MACHINE_NAMES.has(text) ? THIS_MACHINE : text;
}

/** Whether a canonical host is an address (IPv4, or IPv6 in brackets) rather than a name. */
export function isAddressLiteral(host: string): boolean {
  return host.startsWith('[') || /^\d{1,3}(\.\d{1,3}){3}$/.test(host);
}

/**
 * Endpoints of `urls` whose spelling names one instance: each later one paired with the first
 * of its key, each pair once, in the list's order. Texts that are not URLs are left out (their
 * own check says what is wrong with them); identical texts are pairs too.
 */
export function sameInstancePairs(urls: readonly string[]): SameInstance[] {
  const keys = urls.map((url) => instanceKey(url));
  return pairsOf(urls, (i, j) => (keys[i] !== null && keys[i] === keys[j] ? { reaches: keys[i]!, resolved: [] } : null));
}

/**
 * Endpoints of `urls` that reach one address, port and path once host names are resolved:
 * `addressesByHost` maps each name of {@link hostsToResolve} to the addresses it resolved to (a
 * resolver's, IPv6 bare or in brackets); a name absent or with none is left to the run. Two
 * different names that resolve to one address are not taken for one instance: a proxy may route
 * each name to its own (virtual hosts). A name and an address, or a name and this machine, are
 * compared. Includes the pairs the spelling already tells.
 */
export function sameAddressPairs(urls: readonly string[], addressesByHost: ReadonlyMap<string, readonly string[]>): SameInstance[] {
  const targets = urls.map((url) => reachable(url, addressesByHost));
  return pairsOf(urls, (i, j) => {
    const a = targets[i];
    const b = targets[j];
    if (!a || !b || a.port !== b.port || a.path !== b.path) return null;
    if (a.host === b.host) return { reaches: addressText(a), resolved: [] };
    const virtualHosts = !isAddressLiteral(a.host) && !isAddressLiteral(b.host);
    const shared = virtualHosts ? undefined : a.addresses.find((address) => b.addresses.includes(address));
    if (shared === undefined) return null;
    const resolved = [a, b].filter((t) => !isAddressLiteral(t.host)).map((t) => `${t.host} is ${t.addresses.join(', ')}`);
    return { reaches: addressText({ ...a, host: shared }), resolved };
  });
}

/** The host names of `urls` a resolver must look up (canonical, each once): not addresses,
 *  not this machine's names. */
export function hostsToResolve(urls: readonly string[]): string[] {
  const hosts = urls.map((url) => instanceAddress(url)?.host).filter((host): host is string => host !== undefined && !isAddressLiteral(host));
  return [...new Set(hosts)];
}

type Target = InstanceAddress & { addresses: string[] };

/** The endpoint's address and every address it reaches: its host's own, or those it resolves to. */
function reachable(url: string, addressesByHost: ReadonlyMap<string, readonly string[]>): Target | null {
  const address = instanceAddress(url);
  if (!address) return null;
  if (isAddressLiteral(address.host)) return { ...address, addresses: [address.host] };
  const resolved = addressesByHost.get(address.host) ?? [];
  return { ...address, addresses: [...new Set(resolved.map(canonicalHost))] };
}

function pairsOf(urls: readonly string[], same: (i: number, j: number) => Omit<SameInstance, 'first' | 'second'> | null): SameInstance[] {
  const pairs: SameInstance[] = [];
  const seen = new Set<string>();
  const paired = new Set<number>();
  for (let j = 1; j < urls.length; j++) {
    const matches = Array.from({ length: j }, (_, i) => i).flatMap((i) => {
      const found = same(i, j);
      return found ? [{ i, found }] : [];
    });
    // Against the first of its instance, so a third spelling is said once, not twice; against
    // one already paired only when nothing else matches (names are not always transitive).
    const match = matches.find(({ i }) => !paired.has(i)) ?? matches[0];
    if (!match) continue;
    paired.add(j);
    const key = `${urls[match.i]}\n${urls[j]}`;
    if (!seen.has(key)) pairs.push({ first: urls[match.i]!, second: urls[j]!, ...match.found });
    seen.add(key);
  }
  return pairs;
}

// Words (words.ts): the same sentences in the form, the runner and its tests.

/** Why two endpoints are refused, and what to do; the form and the runner say it alike. */
export function sameInstanceText(pair: SameInstance): string {
  return W.sameInstance({ ...pair, evidence: evidence(pair) });
}

/** Why two --server-metrics addresses are refused, and what to do. */
export function sameMetricsText(pair: SameInstance): string {
  return W.sameMetrics({ ...pair, evidence: evidence(pair) });
}

function evidence(pair: SameInstance): string {
  return pair.resolved.length > 0 ? ` (${pair.resolved.join('; ')})` : '';
}
