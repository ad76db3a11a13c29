/**
 * The headless runner's command line: the dashboard's options and defaults, the same
 * validation and error messages, plus thresholds for smoke tests.
 */
import { parseArgs } from 'node:util';
import { DEFAULTS, hubInstances, sameInstancePairs, sameMetricsText, validateRunConfig, type RunConfig, type Credentials } from '../core/run-config/index.ts';
import { CONNECTIONS_PER_ENGINE, defaultEngineCount } from './engine-count.ts';
import { engineKindOption, type EngineKind } from './engine-kind.ts';
import { AUTH_OPTIONS, AUTH_USAGE, credentialsOf, endpointSecretsOf, withEndpointSecrets } from './auth-args.ts';
import { TOKEN_COMMAND_USAGE, tokenCommandOf, type TokenCommand } from './token-command.ts';
import { ignoredOptionProblems } from './ignored-options.ts';
import { hubProfileOf, profileCredentialProblems, profileEnvValues, profileSecretWarnings } from './profile-args.ts';
import { metricsUrlProblem } from '../core/server-metrics/index.ts';
import { CAPACITY_DEFAULTS, validateCapacitySettings, type CapacitySettings } from '../core/capacity/index.ts';

export interface Thresholds {
  /** Fail when the run's p99 (from planned send times) is above this, in ms. */
  maxP99Ms: number | null;
  /** Fail when delivery (arrived / planned receptions) is below this fraction (0..1). */
  minDeliveryRatio: number | null;
  /** Exit 1 when the guide's verdict is not a pass (default); --no-guide-rule makes it advisory. */
  guideRule: boolean;
  /** Receptions lost, never sent or duplicated fail the run, whatever guideRule says, unless
   *  their share of the planned ones is at most this (0..1; --allow-loss, default 0). */
  allowLossRatio: number;
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

export const USAGE = `Usage: live-bench --endpoint <url> [options]

Runs a SignalR Live Bench scenario from Node, with the dashboard's engine, options and defaults.

  --endpoint <url>          hub URL, e.g. http://127.0.0.1:5180/signalrbench (required);
                            repeat it (or give a comma-separated list) for the instances of a
                            scaled-out hub, e.g. hub-samples on one Redis: the connections are
                            spread round-robin over them and the summary gives each one's figures
  --scenario <name>         echo | broadcast | smallGroup | bigGroup | sendToConnection (default ${DEFAULTS.scenario});
                            with --hub-profile, the plan its delivery runs on (only group
                            deliveries have a choice: smallGroup, the default, or bigGroup)
  --hub-profile <file>      drive the hub's own methods instead of the bundled contract: a JSON
                            profile naming the send method and its arguments, the join, the
                            client method that receives and who receives (profiles/ has the
                            chat tutorial's hub and the bundled contract; docs/hub-profiles.md);
                            {env:NAME} in its arguments is read from this environment at start
                            (a key, a password), and only the placeholder is kept or printed
  --transport <name>        WebSockets | ServerSentEvents | LongPolling (default ${DEFAULTS.transport})
  --protocol <name>         json | messagepack (default ${DEFAULTS.protocol})
  --skip-negotiation        open each WebSocket straight away, without the negotiate request:
                            about half the CPU per connect, so a faster ramp (WebSockets only;
                            no stateful reconnect, no send to connection; not through Azure
                            SignalR Service, whose app servers only negotiate)
  --connections <n>         connections in the run (default ${DEFAULTS.connections})
  --workers <n>             engines sharing them: 1 runs in the runner's own thread, more run
                            one per worker thread, or one per process with --engines processes
                            (default: one per ${CONNECTIONS_PER_ENGINE.toLocaleString('en-US')} connections, at most one per core
                            beyond the first)
  --engines <kind>          threads | processes: the engines as worker threads of the runner,
                            or as child processes, each with open files of its own (default:
                            threads, unless the connections need more open files than one
                            process may hold; then processes, at least as many as they need)
  --message-bytes <n>       payload size (default ${DEFAULTS.messageBytes})
  --interval-ms <n>         time between two sends of a connection (default ${DEFAULTS.sendIntervalMs})
  --duration <s>            measured seconds (default ${DEFAULTS.durationSec})
  --warmup <s>              seconds left out of the figures (default ${DEFAULTS.warmupSec})
  --senders <n>             sending connections (default: the scenario's)
  --group-size <n>          members per group (group scenarios)
  --group-count <n>         groups (group scenarios)
  --connect-concurrency <n> connects in flight (default ${DEFAULTS.connectConcurrency})
  --drain-s <s>             longest wait for messages in flight after the last send
                            (default ${DEFAULTS.drainSec}); it ends sooner once all arrived or
                            nothing more arrives
  --reconnect               reconnect lost connections and resume their sends
  --drop-at <s>             drop connections at this second of the sends (needs --reconnect)
  --drop-every <s>          drop again every this many seconds (default: once)
  --drop-share <percent>    share of the connections dropped, 0 < p <= 100 (default 100)
  --drop-kind <kind>        network (cut the client's transport, no SignalR close) | server
                            (the hub-sample aborts them; needs it started with
                            --EnableServerDrops true) (default network)
  --reconnect-policy <name> default (SignalR's 0, 2, 10, 30 s) | fixed (1 s, for 60 s) |
                            jittered (exponential 0.5-10 s, random 50-100%, for 60 s)
                            (default fixed)
  --stateful-reconnect      withStatefulReconnect(): a short drop loses nothing (WebSockets;
                            the hub must allow it, as the hub-sample does)
  --json <file>             write the result as JSON ("-" for standard output: then only the
                            JSON goes there, and the summary to standard error)
  --html <file>             write a self-contained HTML report (opens offline)
  --server-metrics <url>    read the app's Prometheus metrics once a second during the run,
                            e.g. http://127.0.0.1:5180/metrics (the hub-sample's): its CPU,
                            connections and deliveries go into the results, the summary gives
                            its peak CPU and which side set the limit. Unreadable metrics are
                            said once and never fail the run. With several --endpoint, give
                            one per instance, in the same order
  --max-p99-ms <ms>         exit 1 when the p99 is above this
  --min-delivery <ratio>    exit 1 when arrived / planned receptions is below this (0..1)
  --no-guide-rule           report the guide's verdict but do not exit 1 when it fails
                            (by default a run passes only if 99% of every planned
                            reception arrived in under 1 s; --guide-rule is accepted).
                            Loss still fails the run: see --allow-loss
  --allow-loss <ratio>      accept receptions lost, never sent or duplicated up to this share
                            of the planned ones (0..1, e.g. 0.001); by default any of them
                            exits 1, with or without --no-guide-rule
  --memory-log <file>       sample the runner's memory every 30 s into a CSV (for soaks;
                            with node --expose-gc the heap figures are after a full GC)
  --quiet                   no per-second progress
  --help                    this text

${AUTH_USAGE}
${TOKEN_COMMAND_USAGE}

Capacity search (--find-capacity): ramp the load until the guide's rule breaks, then bisect
  --find-capacity           run steps of rising load instead of one run; prints one line per
                            step and the highest load that held, and who broke (the service or
                            this client); --json and --html hold every step
  --ramp <kind>             connections (add connections at --interval-ms) or rate (raise the
                            msg/s that --connections send) (required)
  --start <n> --step <n> --max <n>
                            the ramp's loads: connections, or msg/s sent (all senders) (required)
  --step-duration <s>       seconds each step is held (default ${CAPACITY_DEFAULTS.stepSec})
  --settle <s>              seconds at the start of each step not judged (default ${CAPACITY_DEFAULTS.settleSec})
  --bisect <n>              extra steps between the last step that held and the first that
                            broke (default ${CAPACITY_DEFAULTS.bisectSteps})
  A failing step says what failed it and whose it was: the service's, this client's (it fell
  behind its schedule, ran out of file descriptors or ports, lost an engine), or unknown. Only
  load makes a capacity: a step failed by anything else (the hub crashed or froze, a set-up
  mistake) ends the search with that cause. The lowest failing load is run once more to
  confirm the break. Planned drops are refused.
  Exit codes: 0 the service's capacity was found and its break confirmed, or every step held up
  to --max; 1 even the first step broke, this client broke first (its capacity, not the
  service's), which side broke is unknown, the break was not confirmed, the service failed for a
  cause other than load, or the search was stopped; 2 bad input, or more connections than this
  machine's open-file or port limits hold; 3 nothing was measured: the first step measured
  nothing, or a set-up cause ended the search (a closed port, a token, a profile)

Agent mode (join a dashboard's run instead): live-bench --agent <control-url> --session <code>
  (live-bench --agent x --help for its options)

Lead mode (run a fleet of agents without a browser): live-bench --lead --agents <n> [run options]
  (live-bench --lead --help for its options)

Ctrl+C or SIGTERM stops the run early: what was sent drains, the results are written, and the
run counts as stopped (never a pass). A second Ctrl+C quits at once.

Exit codes:
  0  the run finished and passed: the guide's verdict (unless --no-guide-rule), every threshold,
     and no reception lost, never sent or duplicated (beyond --allow-loss)
  1  it did not pass: the verdict failed, a threshold broke, messages were lost, never sent or
     duplicated, it was stopped early, or a result file could not be written
  2  bad input (options, an output path that cannot be written, or more connections than this
     machine's open files or ephemeral ports hold); nothing was run
  3  nothing could be measured: no connection opened, the hub lacks the scenario's method (or
     the hub profile's send or join method), or its receive method was never called; the
     summary's "Why" line names the cause (docs/diagnosis.md)
  4  the runner itself failed (an internal error, its message printed): not a verdict on the
     service; report it with the command line`;

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
        'access-token-command': { type: 'string' },
        'access-token-refresh-s': { type: 'string' },
      },
    });
  } catch (error) {
    return { ok: false, errors: [`${error instanceof Error ? error.message : String(error)}. Run with --help for the options.`] };
  }
  const v = parsed.values;
  if (v.help) return { ok: 'help' };
  const errors: string[] = [];
  const hubProfile = hubProfileOf(v['hub-profile'], errors);
  // The endpoint's own secrets (?code=…) are taken out before anything keeps or quotes it.
  const endpoints = endpointSecretsOf(v.endpoint ?? [''], v, errors);
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
  const allowLossRatio = fraction(v['allow-loss'], '--allow-loss', errors, 'a share of the planned receptions: 0.001 accepts 0.1% lost, never sent or duplicated') ?? 0;
  const serverMetricsUrls = serverMetricsOf(v['server-metrics'], result.ok ? hubInstances(result.config).length : null, errors);
  if (v['guide-rule'] && v['no-guide-rule']) errors.push('--guide-rule and --no-guide-rule contradict each other: the guide\'s rule is applied by default, so drop --guide-rule, or keep only --no-guide-rule to make the verdict advisory.');
  errors.push(...ignoredOptionProblems(v));
  const authCredentials = withEndpointSecrets(credentialsOf(v, errors), endpoints.secrets, errors);
  // A token command's token exists only at start: its user is checked then (cli/main.ts).
  if (hubProfile && v['access-token-command'] === undefined) errors.push(...profileCredentialProblems(v['hub-profile']!, hubProfile, authCredentials.accessTokens));
  // The profile's {env:NAME} values travel with the tokens, to the engines and agents only.
  const profileEnv = hubProfile ? profileEnvValues(v['hub-profile']!, hubProfile, errors) : [];
  const credentials = profileEnv.length > 0 ? { ...authCredentials, profileEnv } : authCredentials;
  const warnings = hubProfile ? profileSecretWarnings(v['hub-profile']!, hubProfile) : [];
  const tokenCommand = tokenCommandOf(v['access-token-command'], v['access-token-refresh-s'], errors);
  if (tokenCommand && v['find-capacity']) errors.push('--access-token-command cannot refresh tokens during a capacity search yet: give the token with --access-token-file (one that outlives the search), or drop --find-capacity.');
  const engines = engineKindOption(v.engines as string | undefined, errors);
  const capacity = capacityOptions(v, result.ok ? result.config : null, errors);
  if (v['find-capacity'] && serverMetricsUrls.length > 1) errors.push('--find-capacity reads one server\'s metrics, but --server-metrics is given several times: give one address, the instance to watch.');
  if (errors.length > 0 || !result.ok) return { ok: false, errors };
  return {
    ok: true,
    options: {
      config: result.config,
      thresholds: { maxP99Ms, minDeliveryRatio, guideRule: !v['no-guide-rule'], allowLossRatio },
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
  ['max-p99-ms', 'each step is judged by the guide\'s rule'],
  ['min-delivery', 'each step is judged by the guide\'s rule'],
  ['no-guide-rule', 'each step is judged by the guide\'s rule'],
  ['allow-loss', 'each step is judged by the guide\'s rule, which counts every lost message'],
  ['memory-log', 'the memory log is for a single long run (a soak)'],
] as const;

/** How the capacity settings' messages start for each required option (said once, as missing). */

/** The capacity search's settings, with every problem added to `errors`; null without --find-capacity. */
function capacityOptions(v: Record<string, string | boolean | string[] | undefined>, base: RunConfig | null, errors: string[]): CapacitySettings | null {
  if (!v['find-capacity']) {
    const stray = CAPACITY_ONLY.filter((name) => v[name] !== undefined).map((name) => `--${name}`);
    if (stray.length > 0) errors.push(`${stray.join(', ')} belong${stray.length === 1 ? 's' : ''} to a capacity search: add --find-capacity, or drop ${stray.length === 1 ? 'it' : 'them'}.`);
    return null;
  }
  for (const [name, why] of SINGLE_RUN_ONLY) {
    if (v[name] !== undefined) errors.push(`--${name} does not apply to a capacity search (${why}): drop --${name}.`);
  }
  for (const name of ['ramp', 'start', 'step', 'max'] as const) {
    if (v[name] === undefined) errors.push(`--find-capacity needs --${name}${name === 'ramp' ? ' connections or rate' : ' <n>'}: the ramp's ${name === 'ramp' ? 'kind' : name}.`);
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
  if (given !== undefined && urls.length === 0) errors.push('--server-metrics is empty: give the /metrics address of each hub instance, e.g. http://127.0.0.1:5180/metrics.');
  for (const url of urls) {
    const problem = metricsUrlProblem(url);
    if (problem) errors.push(`--server-metrics: ${problem}`);
  }
  // One instance's /metrics twice (or under two spellings) would sum its figures twice; names
  // that resolve to one address are found before the run (cli/instance-check.ts).
  errors.push(...sameInstancePairs(urls).map(sameMetricsText));
  if (urls.length > 0 && instances !== null && urls.length !== instances) {
    errors.push(`--server-metrics is given ${urls.length} time${urls.length === 1 ? '' : 's'}, but the run has ${instances} hub instance${instances === 1 ? '' : 's'} (--endpoint): give one /metrics address per instance, in the same order as the endpoints.`);
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
