/**
 * The headless runner's command line: the dashboard's options and defaults, the same
 * validation and error messages, plus thresholds for smoke tests.
 */
import { parseArgs } from 'node:util';
import { DEFAULTS, hubInstances, sameInstancePairs, sameMetricsText, validateRunConfig, type RunConfig, type Credentials } from '../core/run-config/index.ts';
import { CONNECTIONS_PER_ENGINE, defaultEngineCount } from './engine-count.ts';
import { engineKindOption, type EngineKind } from './engine-kind.ts';
import { AUTH_OPTIONS, AUTH_USAGE, credentialsOf, endpointSecretsOf, withEndpointSecrets } from './auth-args.ts';
import { DEFAULT_AZURE_HUB, SERVERLESS_OPTIONS, serverlessOf } from './serverless-args.ts';
import { TOKEN_COMMAND_USAGE, tokenCommandOf, type TokenCommand } from './token-command.ts';
import { ignoredOptionProblems } from './ignored-options.ts';
import { hubProfileOf, profileCredentialProblems, profileEnvValues, profileSecretWarnings } from './profile-args.ts';
import { metricsUrlProblem } from '../core/server-metrics/index.ts';
import { CAPACITY_DEFAULTS, validateCapacitySettings, type CapacitySettings } from '../core/capacity/index.ts';
import { ARGS_WORDS } from './args-words.ts';
import { HELP_WORDS } from './help-words.ts';
import type { Threshold } from '../core/thresholds/index.ts';
import { thresholdsOf } from './thresholds.ts';

export interface Thresholds {
  /** Every --threshold, then the old flags' aliases: --max-p99-ms is 'p99<=<ms>ms', --min-delivery
   *  'delivery>=<%>', --allow-loss 'loss<=<%>' (core/thresholds, the one grammar). A run passes only
   *  if each holds. */
  checks: Threshold[];
  /** Exit 1 when the guide's verdict is not a pass (default); --no-guide-rule makes it advisory.
   *  Receptions lost, never sent or duplicated fail the run whatever it says, unless a threshold
   *  caps the loss (--allow-loss; core/thresholds loss-rule.ts). */
  guideRule: boolean;
}

export interface CliOptions {
  config: RunConfig;
  thresholds: Thresholds;
  /** Where to write the JSON result; null for none. */
  jsonPath: string | null;
  /** Where to sample the runner's own memory every 30 s (CSV); null for none. */
  memoryLogPath: string | null;
  /** Where to write the self-contained HTML report; null for none. */
  htmlPath: string | null;
  /** The app's Prometheus metrics to read once a second during the run (e.g. the hub-sample's
   *  /metrics); null for none. With several hub instances, the first of `serverMetricsUrls`. */
  serverMetricsUrl: string | null;
  /** Every instance's metrics, in the order of the endpoints (one per instance); empty for none. */
  serverMetricsUrls: string[];
  quiet: boolean;
  /** Set with --find-capacity: the search's ramp; the run configuration is its base. */
  capacity: CapacitySettings | null;
  /** --workers was given: a connections ramp then keeps it, else it scales its engines per step. */
  workersGiven: boolean;
  /** --engines: threads or processes; null when not given (threads unless the connections need more
   *  open files than one process may hold: cli/engine-kind.ts). */
  engines: EngineKind | null;
  /** Tokens, headers and query parameters (cli/auth-args.ts), and the values of the hub profile's
   *  {env:NAME} (cli/profile-args.ts): for the workers only, never kept. */
  credentials: Credentials;
  /** --access-token-command: the command that gives the run's token, run at start and before the
   *  token expires (cli/token-command.ts); null when the token, if any, is given otherwise. */
  tokenCommand: TokenCommand | null;
  /** --hub-profile's file, as given: the name its problems are said under. */
  hubProfileFile: string | null;
  /** Said before the run, each on its own line, without stopping it (a literal in the profile
   *  that looks like a secret). */
  warnings: string[];
}

export type ParsedArgs = { ok: true; options: CliOptions } | { ok: false; errors: string[] } | { ok: 'help' };

export const USAGE = HELP_WORDS.run({ defaults: DEFAULTS, connectionsPerEngine: CONNECTIONS_PER_ENGINE, capacity: CAPACITY_DEFAULTS, auth: AUTH_USAGE, tokenCommand: TOKEN_COMMAND_USAGE, serverless: HELP_WORDS.serverless({ defaultHub: DEFAULT_AZURE_HUB }) });

export function parseCliArgs(argv: string[]): ParsedArgs {
  let parsed;
  try {
    parsed = parseArgs({
      args: argv,
      strict: true,
      options: {
        endpoint: { type: 'string', multiple: true },
        scenario: { type: 'string' },
        'hub-profile': { type: 'string' },
        transport: { type: 'string' },
        protocol: { type: 'string' },
        connections: { type: 'string' },
        workers: { type: 'string' },
        engines: { type: 'string' },
        'message-bytes': { type: 'string' },
        'interval-ms': { type: 'string' },
        duration: { type: 'string' },
        warmup: { type: 'string' },
        senders: { type: 'string' },
        'group-size': { type: 'string' },
        'group-count': { type: 'string' },
        'connect-concurrency': { type: 'string' },
        'drain-s': { type: 'string' },
        json: { type: 'string' },
        'memory-log': { type: 'string' },
        html: { type: 'string' },
        'server-metrics': { type: 'string', multiple: true },
        threshold: { type: 'string', multiple: true },
        'max-p99-ms': { type: 'string' },
        'min-delivery': { type: 'string' },
        'guide-rule': { type: 'boolean' },
        'no-guide-rule': { type: 'boolean' },
        'allow-loss': { type: 'string' },
        quiet: { type: 'boolean' },
        reconnect: { type: 'boolean' },
        'drop-at': { type: 'string' },
        'drop-every': { type: 'string' },
        'drop-share': { type: 'string' },
        'drop-kind': { type: 'string' },
        'reconnect-policy': { type: 'string' },
        'stateful-reconnect': { type: 'boolean' },
        'skip-negotiation': { type: 'boolean' },
        help: { type: 'boolean' },
        'find-capacity': { type: 'boolean' },
        ramp: { type: 'string' },
        start: { type: 'string' },
        step: { type: 'string' },
        max: { type: 'string' },
        'step-duration': { type: 'string' },
        settle: { type: 'string' },
        bisect: { type: 'string' },
        ...AUTH_OPTIONS,
        ...SERVERLESS_OPTIONS,
        'access-token-command': { type: 'string' },
        'access-token-refresh-s': { type: 'string' },
      },
    });
  } catch (error) {
    return { ok: false, errors: [ARGS_WORDS.unparsed({ message: error instanceof Error ? error.message : String(error) })] };
  }
  const v = parsed.values;
  if (v.help) return { ok: 'help' };
  const errors: string[] = [];
  const hubProfile = hubProfileOf(v['hub-profile'], errors);
  // An Azure SignalR connection string names where the clients connect: the run's endpoint.
  const serverless = serverlessOf(v, errors);
  // The endpoint's own secrets (?code=…) are taken out before anything keeps or quotes it.
  const endpoints = endpointSecretsOf(serverless ? [serverless.clientUrl] : v.endpoint ?? [''], v, errors);
  // A profile that could not be read is said once, above; the other options are checked all the same.
  const result = validateRunConfig({
    // Repeated, or a comma-separated list: the instances of a scaled-out hub (core/run-config/hub-instances.ts).
    endpointUrls: endpoints.urls,
    scenario: v.scenario,
    hubProfile,
    transport: v.transport,
    protocol: v.protocol,
    skipNegotiation: v['skip-negotiation'] ?? false,
    connections: v.connections,
    workers: v.workers ?? String(defaultEngineCount(Number(v.connections ?? DEFAULTS.connections))),
    messageBytes: v['message-bytes'],
    sendIntervalMs: v['interval-ms'],
    durationSec: v.duration,
    warmupSec: v.warmup,
    senders: v.senders,
    groupSize: v['group-size'],
    groupCount: v['group-count'],
    connectConcurrency: v['connect-concurrency'],
    drainSec: v['drain-s'],
    reconnect: v.reconnect ?? false,
    dropAtSec: v['drop-at'],
    dropEverySec: v['drop-every'],
    dropSharePercent: v['drop-share']?.replace(/%$/, ''),
    dropKind: v['drop-kind'],
    reconnectPolicy: v['reconnect-policy'],
    statefulReconnect: v['stateful-reconnect'] ?? false,
  });
  if (!result.ok) errors.push(...result.errors);
  const maxP99Ms = positiveNumber(v['max-p99-ms'], '--max-p99-ms', 'a latency in ms, e.g. 250', errors);
  const minDeliveryRatio = fraction(v['min-delivery'], '--min-delivery', errors);
  const allowLossRatio = fraction(v['allow-loss'], '--allow-loss', errors, ARGS_WORDS.allowLossHint());
  const checks = thresholdsOf(v.threshold, { 'max-p99-ms': maxP99Ms, 'min-delivery': minDeliveryRatio, 'allow-loss': allowLossRatio }, errors);
  const serverMetricsUrls = serverMetricsOf(v['server-metrics'], result.ok ? hubInstances(result.config).length : null, errors);
  if (v['guide-rule'] && v['no-guide-rule']) errors.push(ARGS_WORDS.guideRuleBoth());
  errors.push(...ignoredOptionProblems(v));
  const authCredentials = withEndpointSecrets(credentialsOf(v, errors), endpoints.secrets, errors);
  // A token command's token exists only at start: its user is checked then (cli/main.ts).
  if (hubProfile && v['access-token-command'] === undefined) errors.push(...profileCredentialProblems(v['hub-profile']!, hubProfile, authCredentials.accessTokens));
  // The profile's {env:NAME} values travel with the tokens, to the engines and agents only.
  const profileEnv = hubProfile ? profileEnvValues(v['hub-profile']!, hubProfile, errors) : [];
  const withEnv = profileEnv.length > 0 ? { ...authCredentials, profileEnv } : authCredentials;
  // The connection string's key travels with the other secrets, to the engines and agents only.
  const credentials = serverless ? { ...withEnv, serverless: serverless.serverless } : withEnv;
  const warnings = hubProfile ? profileSecretWarnings(v['hub-profile']!, hubProfile) : [];
  const tokenCommand = tokenCommandOf(v['access-token-command'], v['access-token-refresh-s'], errors);
  if (tokenCommand && v['find-capacity']) errors.push(ARGS_WORDS.tokenCommandInSearch());
  const engines = engineKindOption(v.engines as string | undefined, errors);
  const capacity = capacityOptions(v, result.ok ? result.config : null, errors);
  if (v['find-capacity'] && serverMetricsUrls.length > 1) errors.push(ARGS_WORDS.searchMetricsSeveral());
  if (errors.length > 0 || !result.ok) return { ok: false, errors };
  return {
    ok: true,
    options: {
      config: result.config,
      thresholds: { checks, guideRule: !v['no-guide-rule'] },
      jsonPath: v.json ?? null,
      memoryLogPath: v['memory-log'] ?? null,
      htmlPath: v.html ?? null,
      serverMetricsUrl: serverMetricsUrls[0] ?? null,
      serverMetricsUrls,
      quiet: v.quiet ?? false,
      capacity,
      workersGiven: v.workers !== undefined,
      engines,
      credentials,
      tokenCommand,
      hubProfileFile: v['hub-profile'] ?? null,
      warnings,
    },
  };
}

const CAPACITY_ONLY = ['ramp', 'start', 'step', 'max', 'step-duration', 'settle', 'bisect'] as const;
/** Options of a single run that a capacity search sets per step, or cannot apply. */
const SINGLE_RUN_ONLY = [
  ['duration', 'each step lasts --step-duration'],
  ['warmup', 'each step leaves --settle out of its verdict'],
  ['threshold', 'each step is judged by the guide\'s rule'],
  ['max-p99-ms', 'each step is judged by the guide\'s rule'],
  ['min-delivery', 'each step is judged by the guide\'s rule'],
  ['no-guide-rule', 'each step is judged by the guide\'s rule'],
  ['allow-loss', ARGS_WORDS.allowLossInSearchWhy()],
  ['memory-log', 'the memory log is for a single long run (a soak)'],
] as const;

/** How the capacity settings' messages start for each required option (said once, as missing). */

/** The capacity search's settings, with every problem added to `errors`; null without --find-capacity. */
function capacityOptions(v: Record<string, string | boolean | string[] | undefined>, base: RunConfig | null, errors: string[]): CapacitySettings | null {
  if (!v['find-capacity']) {
    const stray = CAPACITY_ONLY.filter((name) => v[name] !== undefined).map((name) => `--${name}`);
    if (stray.length > 0) errors.push(ARGS_WORDS.strayOptions({ stray, belongsTo: 'a capacity search', add: '--find-capacity' }));
    return null;
  }
  for (const [name, why] of SINGLE_RUN_ONLY) {
    if (v[name] !== undefined) errors.push(ARGS_WORDS.notInSearch({ name, why }));
  }
  for (const name of ['ramp', 'start', 'step', 'max'] as const) {
    if (v[name] === undefined) errors.push(ARGS_WORDS.searchNeeds({ name }));
  }
  // Without a valid base the steps cannot be checked, but the ramp's own numbers still can.
  const checked = validateCapacitySettings({ ramp: v.ramp, start: v.start, step: v.step, max: v.max, stepSec: v['step-duration'], settleSec: v.settle, bisectSteps: v.bisect }, base ?? { ...DEFAULTS, endpointUrl: 'http://127.0.0.1/' });
  if (!checked.ok) {
    // A setting not given is said once above ("needs --ramp"), and steps cannot be checked without a valid base.
    const missing = new Set<string>((['ramp', 'start', 'step', 'max'] as const).filter((name) => v[name] === undefined));
    errors.push(...checked.problems.filter((p) => !missing.has(p.field) && (base !== null || p.field !== 'steps')).map((p) => p.message));
    return null;
  }
  return base && !errors.length ? checked.settings : null;
}

/** The metrics addresses: none, or one per hub instance in the endpoints' order, each checked. */
function serverMetricsOf(given: string[] | undefined, instances: number | null, errors: string[]): string[] {
  const urls = (given ?? []).flatMap((text) => text.split(',')).map((text) => text.trim()).filter((text) => text !== '');
  if (given !== undefined && urls.length === 0) errors.push(ARGS_WORDS.metricsEmpty());
  for (const url of urls) {
    const problem = metricsUrlProblem(url);
    if (problem) errors.push(ARGS_WORDS.metricsProblem({ problem }));
  }
  // One instance's /metrics twice (or under two spellings) would sum its figures twice; names
  // that resolve to one address are found before the run (cli/instance-check.ts).
  errors.push(...sameInstancePairs(urls).map(sameMetricsText));
  if (urls.length > 0 && instances !== null && urls.length !== instances) {
    errors.push(ARGS_WORDS.metricsCount({ urls: urls.length, instances }));
  }
  return urls;
}

function positiveNumber(raw: string | undefined, name: string, hint: string, errors: string[]): number | null {
  if (raw === undefined) return null;
  const value = Number(raw);
  if (raw.trim() === '' || !Number.isFinite(value) || value <= 0) {
    errors.push(`${name} must be a positive number (${hint}), but is "${raw}".`);
    return null;
  }
  return value;
}

function fraction(raw: string | undefined, name: string, errors: string[], hint = '0.999 for 99.9%'): number | null {
  if (raw === undefined) return null;
  const value = Number(raw);
  if (raw.trim() === '' || !Number.isFinite(value) || value < 0 || value > 1) {
    errors.push(`${name} must be a fraction from 0 to 1 (${hint}), but is "${raw}".`);
    return null;
  }
  return value;
}
