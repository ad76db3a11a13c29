/**
 * The words of the runner's command-line checks (args.ts, auth-args.ts, profile-args.ts,
 * lead-args.ts, agent-args.ts, ignored-options.ts, engine-kind.ts): what is wrong with an option
 * and what to give instead, never quoting a secret. Each problem is said once here, for a single
 * run, a lead and an agent alike. Pure.
 */

/** "--a, --b belong" / "--a belongs": the options given, joined. */
const belong = (stray: readonly string[]) => `${stray.join(', ')} belong${stray.length === 1 ? 's' : ''}`;
/** "it" or "them", for options to drop. */
const itOrThem = (stray: readonly string[]) => (stray.length === 1 ? 'it' : 'them');

export const ARGS_WORDS = {
  // An Azure SignalR connection string (serverless-args.ts): said by the option or part, never the string.
  azureHubAlone: () => '--azure-hub names the hub of an Azure SignalR connection string: add --azure-connection-string-env <VARIABLE> or --azure-connection-string-file <file>, or drop it.',
  connectionStringTwice: () => '--azure-connection-string-env and --azure-connection-string-file are both given, but a run has one connection string: keep one.',
  connectionStringEnvMissing: (p: { name: string; empty: boolean }) =>
    `--azure-connection-string-env ${p.name}: the environment variable ${p.name} is ${p.empty ? 'empty' : 'not set'}. Export the connection string in it (Endpoint=...;AccessKey=...;Version=1.0;), or use --azure-connection-string-file.`,
  connectionStringFileUnread: (p: { file: string; code: string }) =>
    `--azure-connection-string-file ${p.file} cannot be read (${p.code}): give a readable file whose first line is the connection string.`,
  connectionStringRefused: (p: { from: string; problem: string }) => `The connection string in ${p.from}: ${p.problem}`,
  connectionStringWithEndpoint: () =>
    "--endpoint is given with an Azure SignalR connection string, which names where the clients connect ({ClientEndpoint or Endpoint}/client/?hub={hub}): drop --endpoint, and name the hub with --azure-hub.",
  connectionStringWithToken: (p: { options: readonly string[] }) =>
    `${p.options.join(', ')} ${p.options.length === 1 ? 'is' : 'are'} given with an Azure SignalR connection string, whose AccessKey signs each connection's token: drop ${p.options.length === 1 ? 'it' : 'them'}.`,
  /** node:util's parseArgs refused the command line (an unknown option, a missing value). */
  unparsed: (p: { message: string }) => `${p.message}. Run with --help for the options.`,
  unparsedAgent: (p: { message: string }) => `${p.message}. In agent mode the run's options come from the dashboard; see --agent --help.`,
  /** Options given without the mode they belong to: a capacity search, a headless lead. */
  strayOptions: (p: { stray: readonly string[]; belongsTo: string; add: string }) => `${belong(p.stray)} to ${p.belongsTo}: add ${p.add}, or drop ${itOrThem(p.stray)}.`,
  needsOption: (p: { option: string; needed: string; why: string }) => `--${p.option} needs --${p.needed} (${p.why}). Add --${p.needed}, or drop --${p.option}.`,
  oneOf: (p: { given: readonly string[]; why: string }) => `${p.given.map((option) => `--${option}`).join(' and ')} are ${p.given.length === 2 ? 'both' : 'all'} ${p.why}.`,
  sameOutput: (p: { first: string; second: string; path: string }) => `--${p.first} and --${p.second} both write ${p.path}: the second would overwrite the first. Give each its own file.`,
  wholeNumber: (p: { flag: string; min: number; max: number; raw: string | undefined }) => `${p.flag} must be a whole number from ${p.min} to ${p.max}, but is "${p.raw}".`,
  controlUrl: (p: { flag: string; url: string }) => `${p.flag} must be the control hub's http(s) URL, e.g. http://127.0.0.1:5180/control, but is "${p.url}".`,
  sessionSecret: (p: { problem: string }) => `--session-secret: ${p.problem}.`,

  // What ignored-options.ts says an option is for.
  dropAtWhy: () => 'the second of the sends at which connections drop: without it nothing is dropped',
  reconnectWhy: () => 'without it a lost connection does not come back, and no policy applies',
  oneTokenWhy: () => 'ways to give the access token, and a run takes one: keep one (--access-token-file holds one token per user)',

  // A single run (args.ts).
  /** What --allow-loss's ratio is, said when it is not one. */
  allowLossHint: () => 'a share of the planned receptions: 0.001 accepts 0.1% lost, never sent or duplicated',
  /** Why --allow-loss means nothing in a capacity search. */
  allowLossInSearchWhy: () => 'each step is judged by the guide\'s rule, which counts every lost message',
  guideRuleBoth: () => '--guide-rule and --no-guide-rule contradict each other: the guide\'s rule is applied by default, so drop --guide-rule, or keep only --no-guide-rule to make the verdict advisory.',
  tokenCommandInSearch: () => '--access-token-command cannot refresh tokens during a capacity search yet: give the token with --access-token-file (one that outlives the search), or drop --find-capacity.',
  searchMetricsSeveral: () => '--find-capacity reads one server\'s metrics, but --server-metrics is given several times: give one address, the instance to watch.',
  notInSearch: (p: { name: string; why: string }) => `--${p.name} does not apply to a capacity search (${p.why}): drop --${p.name}.`,
  searchNeeds: (p: { name: 'ramp' | 'start' | 'step' | 'max' }) => `--find-capacity needs --${p.name}${p.name === 'ramp' ? ' connections or rate' : ' <n>'}: the ramp's ${p.name === 'ramp' ? 'kind' : p.name}.`,
  metricsEmpty: () => '--server-metrics is empty: give the /metrics address of each hub instance, e.g. http://127.0.0.1:5180/metrics.',
  metricsProblem: (p: { problem: string }) => `--server-metrics: ${p.problem}`,
  metricsCount: (p: { urls: number; instances: number }) => `--server-metrics is given ${p.urls} time${p.urls === 1 ? '' : 's'}, but the run has ${p.instances} hub instance${p.instances === 1 ? '' : 's'} (--endpoint): give one /metrics address per instance, in the same order as the endpoints.`,
  engines: (p: { value: string }) => `--engines must be threads or processes, not "${p.value}": threads share the runner's open files, processes each have their own.`,

  // Tokens, headers and query parameters (auth-args.ts): a secret is named by its option, never quoted.
  lineBreak: (p: { what: string }) => `${p.what} holds a line break (CR or LF), which would end the HTTP header it travels in`,
  notText: (p: { what: string }) => `${p.what} holds bytes that are not text (control characters or bytes that are not UTF-8: a binary file?)`,
  beyondLatin1: (p: { what: string }) => `${p.what} holds characters beyond Latin-1, which an HTTP header cannot carry`,
  /** "the 2nd --header", for saying which one without quoting it. */
  nth: (p: { flag: string; n: number }) => {
    const suffix = p.n % 10 === 1 && p.n % 100 !== 11 ? 'st' : p.n % 10 === 2 && p.n % 100 !== 12 ? 'nd' : p.n % 10 === 3 && p.n % 100 !== 13 ? 'rd' : 'th';
    return `the ${p.n}${suffix} ${p.flag}`;
  },
  tokenFileEmpty: (p: { file: string }) => `--access-token-file ${p.file} has no token in it: put one token per line.`,
  tokenFileUnread: (p: { file: string; code: string }) => `--access-token-file ${p.file} cannot be read (${p.code}): give a file with one token per line.`,
  tokenEnvMissing: (p: { name: string; empty: boolean }) => `--access-token-env ${p.name}: the environment variable ${p.name} is ${p.empty ? 'empty' : 'not set'}. Export the token in it, or use --access-token-file.`,
  tokenEmpty: () => '--access-token is empty: give the token, or drop the option.',
  tokenNotText: (p: { problem: string; fromFile: boolean }) => `${p.problem}: give the token${p.fromFile ? 's as text, one per line' : ' alone'}.`,
  tokenSpace: () => 'An access token contains a space: give the token alone, without "Bearer " (the client adds it).',
  headerLineBreak: (p: { which: string }) => `${p.which} holds a line break (CR or LF), which would end the header and start another: give one header per --header, on one line.`,
  headerNoColon: (p: { which: string }) => `${p.which} has no colon: give each header as --header "Name: value", e.g. --header "X-Api-Key: <key>".`,
  headerNoName: (p: { which: string }) => `${p.which} has no header name before its colon (letters, digits and - only): give it as --header "Name: value".`,
  headerReserved: (p: { name: string }) => `--header ${p.name}: the client sets this header itself; drop it.`,
  headerAuthorization: () => '--header Authorization: the client sends the access token in it (Bearer); give the token once, with --access-token-file, or drop the header.',
  headerValueNotText: (p: { problem: string }) => `${p.problem}: give one line of text.`,
  queryNoEquals: (p: { which: string }) => `${p.which} has no "=": give each parameter as --query name=value, e.g. --query code=<value>.`,
  queryNoName: (p: { which: string }) => `${p.which} has no name before its "=": give it as --query name=value.`,
  queryReserved: (p: { name: string }) => `--query ${p.name}: the client sets this parameter itself (the connection's token after negotiate); drop it.`,
  queryAccessToken: () => '--query access_token: the client sends the access token in it itself; give the token once, with --access-token-file, or drop the parameter.',
  secretQueryName: () => '--secret-query takes the name of a query parameter of --endpoint, without its value: e.g. --secret-query subscription-key.',
  endpointTokenTwice: () => '--endpoint carries access_token in its query, and an access token is given too: the client sends the given one there. Drop one of them.',

  // The hub profile's file (profile-args.ts): the file and the field named, never a value.
  profileUnread: (p: { file: string; why: string }) => `--hub-profile ${p.file} cannot be read (${p.why}). Give the path of a profile's JSON file, e.g. profiles/chat-all.json.`,
  profileProblem: (p: { file: string; problem: string }) => `--hub-profile ${p.file}: ${p.problem}`,
  profileEnvMissing: (p: { file: string; field: string; name: string; empty: boolean }) => `--hub-profile ${p.file}: ${p.field}: {env:${p.name}} reads the environment variable ${p.name}, which is ${p.empty ? 'empty' : 'not set'}. ` +
    `Export it before starting the runner (${p.name}=… live-bench …), or write the value in place of {env:${p.name}} if it is no secret.`,

  // A headless lead (lead-args.ts).
  flagTakesNoValue: (p: { name: string; value: string }) => `--${p.name} takes no value, but was given "${p.value}".`,
  needsValue: (p: { name: string }) => `--${p.name} needs a value.`,
  leadNeedsAgents: (p: { max: number }) => `--lead needs --agents <n>: how many agents to wait for (1 to ${p.max}).`,
  agentsTimeout: (p: { max: number; raw: string }) => `--agents-timeout must be seconds above 0 and at most ${p.max}, but is "${p.raw}".`,
  session: (p: { problem: string }) => `--session: ${p.problem}`,
  secretWithoutSession: () => '--session-secret goes with --session (both chosen in advance, so agents can be started first): add --session <code>, or drop --session-secret and the lead draws a secret itself.',
  agentsSecrets: (p: { raw: string | undefined }) => `--agents-secrets must be refuse or warn, but is "${p.raw}".`,
  leadNoSearch: () => '--find-capacity cannot be led over agents yet: a capacity search runs on one machine. Drop --lead, or --find-capacity.',
  chosenCodeShape: (p: { min: number; max: number; alphabet: string; code: string }) => `a chosen session code must be ${p.min} to ${p.max} characters of ${p.alphabet} (no I, O, 0 or 1), but is "${p.code}": ${chooseAtRandom(p.alphabet)}.`,
  chosenCodeRepeats: (p: { code: string; alphabet: string }) => `"${p.code}" repeats too few characters to be unguessable: ${chooseAtRandom(p.alphabet)}.`,

  // An agent (agent-args.ts).
  agentSession: (p: { raw: string }) => `--session must be the code the dashboard's Agents panel shows (letters and digits), but is "${p.raw}".`,
  joinTimeout: (p: { max: number; raw: string | undefined }) => `--join-timeout must be seconds from 0 to ${p.max}, but is "${p.raw}".`,
} as const;

/** How to choose a session code in advance. */
function chooseAtRandom(alphabet: string): string {
  return `choose it at random, e.g. tr -dc ${alphabet} </dev/urandom | head -c 16`;
}
