/**
 * The configuration of one benchmark run, its defaults and its validation. Pure: used by the
 * dashboard, the workers and Node alike.
 */

import { DROP_DEFAULTS, DROP_KINDS, dropProblems, RECONNECT_POLICIES, type DropSettings } from '../drops/index.ts';
import { planScenario, SCENARIOS, type ScenarioName } from '../plan/index.ts';
import { isServerlessScenario } from '../guide/index.ts';
import { checkHubProfile, defaultShape, deliveryProblems, parseHubProfile, shapeProblems, type HubProfile } from '../profiles/index.ts';
import { skipNegotiationProblems } from './skip-negotiation.ts';
import { sameInstancePairs, sameInstanceText } from './instance-identity.ts';
import { isSecretQueryName, scrubSecrets } from './credentials.ts';
import { RUN_CONFIG_WORDS as W } from './words.ts';

/** Transports, named as `@microsoft/signalr`'s `HttpTransportType` names them. */
export const TRANSPORTS = ['WebSockets', 'ServerSentEvents', 'LongPolling'] as const;
export type TransportName = (typeof TRANSPORTS)[number];

/** Hub protocols, named as they appear in the SignalR handshake. */
export const PROTOCOLS = ['json', 'messagepack'] as const;
export type ProtocolName = (typeof PROTOCOLS)[number];

export { SCENARIOS, type ScenarioName };

/** The drop fields (core/drops/drop-schedule.ts) are optional in kept runs and links made before drops
 *  existed; validateRunConfig always fills them in. */
export interface RunConfig extends DropSettings {
  /** Default echo; with a hub profile, the shape its delivery runs on (core/profiles/shapes.ts),
   *  by default the first that fits. */
  scenario: ScenarioName;
  /** The hub's own methods the scenario runs on (core/profiles); null or absent (runs kept
   *  before profiles existed): the bundled contract's built-in profile of the scenario. */
  hubProfile?: HubProfile | null;
  /** Sending connections; null for the scenario's own default: broadcast 2 (the guide uses at
   *  most 4), big groups 40 (at most the connections), every connection otherwise. */
  senders: number | null;
  /** Members per group (group scenarios); null for the preset: 10 for small groups,
   *  connections / group count for big groups. */
  groupSize: number | null;
  /** Groups (group scenarios); null for the preset: connections / 10 for small groups, 10 for big groups. */
  groupCount: number | null;
  /** Seconds at the start of the sends left out of every figure. Default 0. */
  warmupSec: number;
  /** Reconnect lost connections (SignalR's automatic reconnect, retried every second for up to
   *  a minute) and resume their sends. Default false: a lost connection stays lost. */
  reconnect: boolean;
  /** Absolute http(s) URL of the hub. Default: the bundled hub-sample on this page's origin.
   *  With several instances, the first of `endpointUrls`. */
  endpointUrl: string;
  /** Every instance of a scaled-out hub (several hub-samples on one Redis), in order, when the
   *  run spreads its connections over more than one: round-robin, each connection on one
   *  instance (core/run-config/hub-instances.ts). Absent for one instance, and in runs kept before. */
  endpointUrls?: string[];
  /** Default WebSockets, the guide's default. */
  transport: TransportName;
  /** Default json. */
  protocol: ProtocolName;
  /** Open each WebSocket without negotiate (core/run-config/skip-negotiation.ts). Default false; absent
   *  in runs kept before it existed, which negotiated. */
  skipNegotiation?: boolean;
  /** Connections in the whole run, split between the workers. Default 20. */
  connections: number;
  /** Web Workers (or worker threads) sharing the connections. Default 2. */
  workers: number;
  /** Payload of each message in bytes. Default 2,048, the guide's default. */
  messageBytes: number;
  /** Time between two sends of one connection, in ms. Default 1,000, the guide's default. */
  sendIntervalMs: number;
  /** Measured time, in s, from the moment every connection has been opened. Default 30. */
  durationSec: number;
  /** Longest wait, in s, after the last planned send for messages still in flight. The drain
   *  ends sooner when every planned reception is accounted for, or when nothing has arrived for
   *  a quiet period (see drainPlan). Default 30. */
  drainSec: number;
  /** Connects in flight at once across all workers. Default 8: Chromium opens 255 WebSockets in
   *  ~3 s this way and in ~5 s all at once. */
  connectConcurrency: number;
}

export const DEFAULT_HUB_PATH = '/signalrbench';

/** Most hub instances one run spreads over (endpointUrls; core/run-config/hub-instances.ts). */
export const MAX_HUB_INSTANCES = 64;

export const DEFAULTS: Omit<RunConfig, 'endpointUrl'> = {
  scenario: 'echo',
  hubProfile: null,
  senders: null,
  groupSize: null,
  groupCount: null,
  warmupSec: 0,
  reconnect: false,
  transport: 'WebSockets',
  protocol: 'json',
  skipNegotiation: false,
  connections: 20,
  workers: 2,
  messageBytes: 2_048,
  sendIntervalMs: 1_000,
  durationSec: 30,
  drainSec: 30,
  connectConcurrency: 8,
  ...DROP_DEFAULTS,
};

/** The endpoint of the hub-sample that serves the page at `origin`. */
export function defaultEndpointUrl(origin: string): string {
  return new URL(DEFAULT_HUB_PATH, origin).toString();
}

/** The most connections one run takes: the guide's largest tier, Unit1000. What a run's clients can
 *  hold bounds it further, as measured: a browser its 255 WebSockets, an engine of a headless
 *  runner 12,500 (a fleet gives none more: core/fleet/fleet-run.ts), a single runner its machine's
 *  open files and ports (cli/client-limits.ts). Planning, merging and keeping a run grow with its
 *  agents and seconds, not its connections (docs/sizing.md). */
export const MAX_RUN_CONNECTIONS = 1_000_000;

interface WholeNumberRule {
  key: keyof typeof W.wholeNumberHints & keyof RunConfig;
  label: string;
  min: number;
  max: number;
  unit: string;
}

const WHOLE_NUMBER_RULES: WholeNumberRule[] = [
  { key: 'connections', label: 'Connections', min: 1, max: MAX_RUN_CONNECTIONS, unit: '' },
  { key: 'workers', label: 'Workers', min: 1, max: 64, unit: '' },
  // The payload carries a ~40-byte header (sender, sequence, send lag) that must fit.
  { key: 'messageBytes', label: 'Message size', min: 64, max: 262_144, unit: ' B' },
  { key: 'sendIntervalMs', label: 'Send interval', min: 10, max: 3_600_000, unit: ' ms' },
  { key: 'durationSec', label: 'Duration', min: 1, max: 86_400, unit: ' s' },
  { key: 'drainSec', label: 'Drain', min: 1, max: 600, unit: ' s' },
  { key: 'warmupSec', label: 'Warm-up', min: 0, max: 3_600, unit: ' s' },
  { key: 'connectConcurrency', label: 'Connects in flight', min: 1, max: 256, unit: '' },
];

const OPTIONAL_COUNTS = ['senders', 'groupSize', 'groupCount'] as const;
const OPTIONAL_LABELS: Record<(typeof OPTIONAL_COUNTS)[number], string> = {
  senders: 'Senders',
  groupSize: 'Group size',
  groupCount: 'Group count',
};

/** One thing wrong with a configuration: what to say, and the fields it is about, so a form can
 *  outline them and the checks that depend on a field can tell without reading the wording. */
export interface ConfigProblem {
  fields: (keyof RunConfig)[];
  message: string;
}

/** `errors` are the problems' messages, in order: what every caller that only says them reads. */
export type ValidationResult = { ok: true; config: RunConfig } | { ok: false; errors: string[]; problems: ConfigProblem[] };

/** Fields the scenario's plan is computed from: the plan is checked only once they are valid. */
const PLAN_FIELDS: readonly (keyof RunConfig)[] = ['connections', 'senders', 'groupSize', 'groupCount', 'scenario'];

/**
 * Checks every field and reports every problem at once, each saying what is wrong and what to do.
 * Numbers may arrive as strings (form fields, query strings, command lines).
 */
export function validateRunConfig(input: Partial<Record<keyof RunConfig, unknown>>): ValidationResult {
  const problems: ConfigProblem[] = [];
  const fail = (fields: keyof RunConfig | (keyof RunConfig)[], ...messages: string[]) => {
    for (const message of messages) problems.push({ fields: Array.isArray(fields) ? fields : [fields], message });
  };
  const config: RunConfig = { ...DEFAULTS, endpointUrl: '' };

  const endpoints = readEndpoints(input.endpointUrls ?? input.endpointUrl);
  if (endpoints.errors.length > 0) fail('endpointUrl', ...endpoints.errors);
  else {
    config.endpointUrl = endpoints.urls[0]!;
    if (endpoints.urls.length > 1) config.endpointUrls = endpoints.urls;
  }

  const reconnect = input.reconnect ?? DEFAULTS.reconnect;
  if (reconnect === true || reconnect === 'true' || reconnect === 'on') config.reconnect = true;
  else if (reconnect === false || reconnect === 'false' || reconnect === '') config.reconnect = false;
  else fail('reconnect', W.reconnectNotBoolean({ value: reconnect }));

  problems.push(...readDropFields(input, config));
  const skip = input.skipNegotiation ?? DEFAULTS.skipNegotiation;
  if (skip === true || skip === 'true' || skip === 'on') config.skipNegotiation = true;
  else if (skip === false || skip === 'false' || skip === '') config.skipNegotiation = false;
  else fail('skipNegotiation', W.notBoolean({ label: 'Skip negotiation', value: skip }));

  const profile = readHubProfile(input.hubProfile);
  if (profile.ok) config.hubProfile = profile.profile;
  else fail('hubProfile', ...profile.errors.map((problem) => W.hubProfile({ problem })));
  const noScenario = input.scenario === undefined || input.scenario === null || input.scenario === '';
  const scenario = noScenario ? (config.hubProfile ? defaultShape(config.hubProfile) : DEFAULTS.scenario) : input.scenario;
  if ((SCENARIOS as readonly unknown[]).includes(scenario)) {
    config.scenario = scenario as ScenarioName;
    if (config.hubProfile && isServerlessScenario(config.scenario)) fail(['scenario', 'hubProfile'], W.restWithProfile({ scenario: config.scenario }));
    else if (config.hubProfile) fail('scenario', ...shapeProblems(config.hubProfile, config.scenario));
  } else fail('scenario', W.notOneOf({ label: 'Scenario', options: SCENARIOS, value: scenario }));

  const transport = input.transport ?? DEFAULTS.transport;
  if ((TRANSPORTS as readonly unknown[]).includes(transport)) config.transport = transport as TransportName;
  else fail('transport', W.notOneOf({ label: 'Transport', options: TRANSPORTS, value: transport }));

  const protocol = input.protocol ?? DEFAULTS.protocol;
  if ((PROTOCOLS as readonly unknown[]).includes(protocol)) config.protocol = protocol as ProtocolName;
  else fail('protocol', W.notOneOf({ label: 'Protocol', options: PROTOCOLS, value: protocol }));

  for (const rule of WHOLE_NUMBER_RULES) {
    const raw = input[rule.key] ?? DEFAULTS[rule.key as keyof typeof DEFAULTS];
    const value = typeof raw === 'string' && raw.trim() !== '' ? Number(raw) : raw;
    if (typeof value !== 'number' || !Number.isInteger(value) || value < rule.min || value > rule.max) {
      fail(rule.key, W.wholeNumber({ ...rule, value: raw, hint: W.wholeNumberHints[rule.key] }));
    } else {
      (config as unknown as Record<string, number>)[rule.key] = value;
    }
  }
  for (const key of OPTIONAL_COUNTS) {
    const raw = input[key];
    if (raw === undefined || raw === null || (typeof raw === 'string' && raw.trim() === '')) continue;
    const value = typeof raw === 'string' ? Number(raw) : raw;
    if (typeof value !== 'number' || !Number.isInteger(value) || value < 1 || value > 100_000) {
      fail(key, W.optionalCount({ label: OPTIONAL_LABELS[key], value: raw }));
    } else {
      config[key] = value;
    }
  }
  if (config.warmupSec >= config.durationSec && problems.length === 0) {
    fail(['warmupSec', 'durationSec'], W.warmupTooLong({ warmupSec: config.warmupSec, durationSec: config.durationSec }));
  }
  if (config.transport === 'ServerSentEvents' && config.protocol === 'messagepack') {
    fail(['transport', 'protocol'], W.sseMessagePack());
  }
  if (problems.length === 0) for (const drop of dropProblems(config, config)) fail(drop.field, drop.message);
  if (problems.length === 0) for (const refusal of skipNegotiationProblems(config)) fail(['skipNegotiation', refusal.field], refusal.message);
  if (problems.length === 0 && config.workers > config.connections) {
    fail(['workers', 'connections'], W.workersOutnumber({ workers: config.workers, connections: config.connections }));
  }
  // Group and sender problems are listed along with the others, once the counts they depend on are valid.
  const countsValid = !problems.some((problem) => problem.fields.some((field) => PLAN_FIELDS.includes(field)));
  if (countsValid) {
    const planned = planScenario(config);
    if (!planned.ok) for (const problem of planned.problems) fail(problem.fields, problem.message);
    // A delivery this plan would run for nothing (others with one connection, groups of one).
    else if (config.hubProfile) {
      const fields: (keyof RunConfig)[] = ['hubProfile', planned.plan.groupCount > 0 ? 'groupSize' : 'connections'];
      fail(fields, ...deliveryProblems(config.hubProfile, config.connections, planned.plan).map((problem) => W.hubProfile({ problem })));
    }
  }
  return problems.length > 0 ? { ok: false, errors: problems.map((problem) => problem.message), problems } : { ok: true, config };
}

/** The run's hub profile: an object (a kept run, a worker's start) or its JSON text (a form, a
 *  file); absent, null or empty for the bundled contract. */
function readHubProfile(raw: unknown): { ok: true; profile: HubProfile | null } | { ok: false; errors: string[] } {
  if (raw === undefined || raw === null || (typeof raw === 'string' && raw.trim() === '')) return { ok: true, profile: null };
  return typeof raw === 'string' ? parseHubProfile(raw) : checkHubProfile(raw);
}

/** Reads the drop fields into `config`; returns what is wrong with them. */
function readDropFields(input: Partial<Record<keyof RunConfig, unknown>>, config: RunConfig): ConfigProblem[] {
  const errors: ConfigProblem[] = [];
  const optionalWhole = (key: 'dropAtSec' | 'dropEverySec', label: string, min: number, emptyMeans: string) => {
    const raw = input[key];
    if (raw === undefined || raw === null || (typeof raw === 'string' && raw.trim() === '')) return;
    const value = typeof raw === 'string' ? Number(raw) : raw;
    if (typeof value !== 'number' || !Number.isInteger(value) || value < min || value > 86_400) {
      errors.push({ fields: [key], message: W.optionalSeconds({ label, min, emptyMeans, value: raw }) });
    } else config[key] = value;
  };
  optionalWhole('dropAtSec', 'Drop at', 0, 'no drop');
  optionalWhole('dropEverySec', 'Drop every', 1, 'a single drop');
  const share = input.dropSharePercent ?? DEFAULTS.dropSharePercent;
  const shareValue = typeof share === 'string' && share.trim() !== '' ? Number(share) : share;
  if (typeof shareValue !== 'number' || !Number.isFinite(shareValue) || shareValue <= 0 || shareValue > 100) {
    errors.push({ fields: ['dropSharePercent'], message: W.dropShare({ value: share }) });
  } else config.dropSharePercent = shareValue;
  const kind = input.dropKind ?? DEFAULTS.dropKind;
  if ((DROP_KINDS as readonly unknown[]).includes(kind)) config.dropKind = kind as RunConfig['dropKind'];
  else errors.push({ fields: ['dropKind'], message: W.dropKind({ options: DROP_KINDS, value: kind }) });
  const policy = input.reconnectPolicy ?? DEFAULTS.reconnectPolicy;
  if ((RECONNECT_POLICIES as readonly unknown[]).includes(policy)) config.reconnectPolicy = policy as RunConfig['reconnectPolicy'];
  else errors.push({ fields: ['reconnectPolicy'], message: W.reconnectPolicy({ options: RECONNECT_POLICIES, value: policy }) });
  const stateful = input.statefulReconnect ?? DEFAULTS.statefulReconnect;
  if (stateful === true || stateful === 'true' || stateful === 'on') config.statefulReconnect = true;
  else if (stateful === false || stateful === 'false' || stateful === '') config.statefulReconnect = false;
  else errors.push({ fields: ['statefulReconnect'], message: W.notBoolean({ label: 'Stateful reconnect', value: stateful }) });
  return errors;
}

/** Splits a list of hub URLs (an array, or text with one per line or comma separated: the form's
 *  field) and checks each; one URL is the usual run, several spread it over a scaled-out hub. */
function readEndpoints(raw: unknown): { urls: string[]; errors: string[] } {
  const texts = (Array.isArray(raw) ? raw : [raw])
    .flatMap((item) => (typeof item === 'string' ? item.split(/[\s,]+/) : []))
    .filter((text) => text !== '');
  if (texts.length <= 1) {
    const error = checkEndpoint(texts[0] ?? raw);
    return error ? { urls: [], errors: [error] } : { urls: [String(texts[0]).trim()], errors: [] };
  }
  const errors = texts.map((text) => checkEndpoint(text)).filter((error): error is string => error !== null);
  if (texts.length > MAX_HUB_INSTANCES) errors.push(W.tooManyInstances({ count: texts.length, max: MAX_HUB_INSTANCES }));
  const repeated = texts.filter((text, i) => texts.indexOf(text) !== i);
  if (repeated.length > 0) errors.push(W.repeatedEndpoints({ endpoints: [...new Set(repeated)].map(quoted) }));
  // One instance under two spellings (localhost and 127.0.0.1, a default port written out): the
  // spelling alone, no DNS here (a browser has none); the runner also resolves names (cli/instance-check.ts).
  for (const pair of sameInstancePairs(texts)) if (pair.first !== pair.second) errors.push(sameInstanceText(pair));
  return { urls: texts, errors };
}

/** An endpoint as an error may quote it: a secret in its query is hidden (core/run-config/credentials.ts). */
function quoted(text: string): string {
  return scrubSecrets(text);
}

function checkEndpoint(raw: unknown): string | null {
  const text = typeof raw === 'string' ? raw.trim() : '';
  if (text === '') return W.endpointEmpty();
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return W.endpointNotUrl({ endpoint: quoted(text) });
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    return W.endpointScheme({ endpoint: quoted(text), scheme: url.protocol.replace(':', ''), host: url.host, path: url.pathname });
  }
  // The endpoint is kept in links, results and exports; a secret in it would be too (not quoted
  // here). The runner and the page take the known ones out before (splitEndpointSecrets): one
  // still here came another way (a kept run, a link, the page's hook).
  const secrets = [...new Set([...url.searchParams.keys()].filter((name) => isSecretQueryName(name)))];
  if (secrets.length > 0) {
    return W.endpointSecret({ at: `${url.origin}${url.pathname}`, names: secrets });
  }
  if (url.searchParams.has('id')) {
    return W.endpointId({ at: `${url.origin}${url.pathname}` });
  }
  if (url.username !== '' || url.password !== '') {
    return W.endpointUserInfo({ at: `${url.origin}${url.pathname}` });
  }
  return null;
}

/**
 * How the end of a run waits for messages in flight, in ms. It ends when every planned
 * reception is accounted for, when nothing more has been accounted for during `quietMs` (two
 * send intervals, at least 3 s: a hub that still delivers keeps the drain going), or at `capMs`
 * (the run's drainSec), whichever comes first. What never arrives is then counted as lost.
 */
export function drainPlan(config: Pick<RunConfig, 'sendIntervalMs' | 'drainSec'>): { capMs: number; quietMs: number } {
  const capMs = config.drainSec * 1_000;
  return { capMs, quietMs: Math.min(capMs, Math.max(3_000, 2 * config.sendIntervalMs)) };
}

/** How long one connection may take to open before it counts as failed, in ms. */
export const CONNECT_TIMEOUT_MS = 15_000;

/** Connect failures, none open, after which a worker's other connections are not tried:
 *  two waves of the default 8 in flight, so one unlucky connect cannot decide. */
export const GIVE_UP_AFTER_FAILURES = 16;

/** Time from the first connect for any connect to answer (open or fail), in ms; with no answer
 *  and none open, the connects in flight are abandoned and the rest not tried. A healthy hub
 *  answers its first connects in well under a second, but 5 s once misfired: at load 21 a hub
 *  that had just started did not answer its first connect in time and was called stalled (exit 3).
 *  12 s gives a fresh hub on a loaded machine a second chance and still reports a frozen one in
 *  under 15 s, before a single connect's own time-out (CONNECT_TIMEOUT_MS). */
export const FIRST_ANSWER_MS = 12_000;

/** Once connects have been answered, a whole connect time-out with none answered while connects
 *  are outstanding means the hub stopped answering them (frozen mid-ramp): the rest are not tried
 *  and the run goes on to its measured window. Without it, 400 connects at 2 in flight against a
 *  hub frozen 1.2 s in waited 200 x 15 s. By then every connect in flight when it stopped has had
 *  its whole time limit. In ms. */
export const CONNECTS_UNANSWERED_MS = CONNECT_TIMEOUT_MS;

/** A look at the connects (FIRST_ANSWER_MS, the connect phase's bound) that fires this much late,
 *  in ms, judges nothing: the thread was busy, and answers may be queued unread. It looks again. */
export const LATE_LOOK_MS = 1_000;
