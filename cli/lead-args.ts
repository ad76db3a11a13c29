/**
 * The headless lead's own options (`live-bench --lead --agents <n> [run options]`): taken out of
 * the command line before the run's options are parsed by cli/args.ts, so the run is described
 * with exactly the options of a single run.
 */
import { AGENTS_SECRETS_POLICIES, DEFAULT_AGENTS_SECRETS, sessionSecretProblem, type AgentsSecretsPolicy } from '../core/fleet/index.ts';
import { ARGS_WORDS } from './args-words.ts';
import { HELP_WORDS } from './help-words.ts';

export interface LeadOptions {
  /** Agents to wait for; the run starts once this many have joined. */
  agents: number;
  /** Longest wait for them, s. */
  agentsTimeoutSec: number;
  /** A session code chosen in advance (agents can then be started first); null: the hub picks one. */
  session: string | null;
  /** The secret agents present besides the code (core/fleet/agent-secrets.ts), chosen in advance
   *  with --session-secret; null: the lead draws one (or, with a --session chosen in advance,
   *  asks none, and says so when the run has credentials). */
  sessionSecret: string | null;
  /** What to do when the run's credentials would cross a plain http control hub. */
  agentsSecrets: AgentsSecretsPolicy;
  /** The control hub; null: the hub-sample's /control beside --endpoint. */
  controlUrl: string | null;
  /** Whether the lead's own engines (--workers) take part beside the agents. Default false: the
   *  lead only leads, so `--agents 3` puts the load on three agents (the dashboard's "this
   *  browser's workers" is ticked by default; a lead in a cluster is a small pod). */
  includeLocal: boolean;
}

/** Default wait for the agents, s: long enough for pods to be scheduled and pull their image. */
export const DEFAULT_AGENTS_TIMEOUT_SEC = 120;
export const MAX_AGENTS_TIMEOUT_SEC = 3_600;
/** Most agents one lead waits for: the hub-sample's MaxAgentsPerSession default. */
export const MAX_AGENTS = 256;

/** The control hub's alphabet for session codes (hub-sample ControlSessions.CodeAlphabet) and the
 *  length of a code chosen in advance (its MinChosenCodeLength, MaxChosenCodeLength). */
export const SESSION_CODE_ALPHABET = 'ABCDEFGHJKLMNPQRSTUVWXYZ23456789';
export const MIN_CHOSEN_CODE_LENGTH = 10;
export const MAX_CHOSEN_CODE_LENGTH = 32;

export const LEAD_USAGE = HELP_WORDS.lead({ maxAgents: MAX_AGENTS, defaultTimeoutSec: DEFAULT_AGENTS_TIMEOUT_SEC, minCodeLength: MIN_CHOSEN_CODE_LENGTH, maxCodeLength: MAX_CHOSEN_CODE_LENGTH, alphabet: SESSION_CODE_ALPHABET, defaultAgentsSecrets: DEFAULT_AGENTS_SECRETS });

const LEAD_FLAGS = new Set(['lead', 'include-local']);
const LEAD_VALUES = new Set(['agents', 'agents-timeout', 'session', 'session-secret', 'agents-secrets', 'control']);

export type LeadSplit = { ok: true; lead: LeadOptions | null; rest: string[] } | { ok: false; errors: string[]; rest: string[]; help: boolean };

/** Takes the lead's options out of `argv`: `lead` is null when --lead was not given (and then
 *  none of its options may be). */
export function splitLeadArgs(argv: readonly string[]): LeadSplit {
  const rest: string[] = [];
  const values = new Map<string, string>();
  const flags = new Set<string>();
  const errors: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    const match = /^--([a-z-]+)(?:=(.*))?$/s.exec(arg);
    const name = match?.[1] ?? '';
    if (LEAD_FLAGS.has(name)) {
      if (match?.[2] !== undefined) errors.push(ARGS_WORDS.flagTakesNoValue({ name, value: match[2] }));
      flags.add(name);
    } else if (LEAD_VALUES.has(name)) {
      const value = match?.[2] ?? argv[++i];
      if (value === undefined || (match?.[2] === undefined && value.startsWith('--'))) {
        errors.push(ARGS_WORDS.needsValue({ name }));
        if (value !== undefined) i--;
      } else values.set(name, value);
    } else rest.push(arg);
  }
  if (!flags.has('lead')) {
    const stray = [...values.keys(), ...[...flags].filter((f) => f !== 'lead')].map((name) => `--${name}`);
    if (stray.length > 0) errors.push(ARGS_WORDS.strayOptions({ stray, belongsTo: 'a headless lead', add: '--lead --agents <n>' }));
    return errors.length > 0 ? { ok: false, errors, rest, help: false } : { ok: true, lead: null, rest };
  }
  const agentsRaw = values.get('agents');
  const agents = Number(agentsRaw);
  if (agentsRaw === undefined) errors.push(ARGS_WORDS.leadNeedsAgents({ max: MAX_AGENTS }));
  else if (!Number.isInteger(agents) || agents < 1 || agents > MAX_AGENTS) errors.push(ARGS_WORDS.wholeNumber({ flag: '--agents', min: 1, max: MAX_AGENTS, raw: agentsRaw }));
  const timeoutRaw = values.get('agents-timeout');
  const agentsTimeoutSec = timeoutRaw === undefined ? DEFAULT_AGENTS_TIMEOUT_SEC : Number(timeoutRaw);
  if (timeoutRaw !== undefined && (timeoutRaw.trim() === '' || !Number.isFinite(agentsTimeoutSec) || agentsTimeoutSec <= 0 || agentsTimeoutSec > MAX_AGENTS_TIMEOUT_SEC)) {
    errors.push(ARGS_WORDS.agentsTimeout({ max: MAX_AGENTS_TIMEOUT_SEC, raw: timeoutRaw }));
  }
  const sessionRaw = values.get('session');
  const session = sessionRaw === undefined ? null : sessionRaw.trim().toUpperCase();
  if (session !== null) {
    const problem = chosenCodeProblem(session);
    if (problem) errors.push(ARGS_WORDS.session({ problem }));
  }
  const secretRaw = values.get('session-secret');
  const sessionSecret = secretRaw === undefined ? null : secretRaw.trim();
  if (sessionSecret !== null) {
    const problem = sessionSecretProblem(sessionSecret);
    if (problem) errors.push(ARGS_WORDS.sessionSecret({ problem }));
    if (session === null) errors.push(ARGS_WORDS.secretWithoutSession());
  }
  const policyRaw = values.get('agents-secrets');
  const agentsSecrets = (policyRaw?.trim().toLowerCase() ?? DEFAULT_AGENTS_SECRETS) as AgentsSecretsPolicy;
  if (!AGENTS_SECRETS_POLICIES.includes(agentsSecrets)) errors.push(ARGS_WORDS.agentsSecrets({ raw: policyRaw }));
  const controlUrl = values.get('control')?.trim() ?? null;
  if (controlUrl !== null && !/^https?:\/\/[^/]+/i.test(controlUrl)) errors.push(ARGS_WORDS.controlUrl({ flag: '--control', url: controlUrl }));
  if (rest.some((arg) => arg === '--find-capacity')) errors.push(ARGS_WORDS.leadNoSearch());
  // `--lead --help` shows the lead's options, whatever else is wrong.
  if (errors.length > 0) return { ok: false, errors, rest, help: rest.includes('--help') };
  return { ok: true, lead: { agents, agentsTimeoutSec, session, sessionSecret, agentsSecrets, controlUrl, includeLocal: flags.has('include-local') }, rest };
}

/** Why a code chosen in advance would be refused by the control hub (the same rule as hub-sample
 *  ControlSessions.ChosenCodeProblem, said before anything connects); null when it is fine. */
export function chosenCodeProblem(code: string): string | null {
  if (code.length < MIN_CHOSEN_CODE_LENGTH || code.length > MAX_CHOSEN_CODE_LENGTH || [...code].some((c) => !SESSION_CODE_ALPHABET.includes(c))) {
    return ARGS_WORDS.chosenCodeShape({ min: MIN_CHOSEN_CODE_LENGTH, max: MAX_CHOSEN_CODE_LENGTH, alphabet: SESSION_CODE_ALPHABET, code });
  }
  if (new Set(code).size < MIN_CHOSEN_CODE_LENGTH / 2) return ARGS_WORDS.chosenCodeRepeats({ code, alphabet: SESSION_CODE_ALPHABET });
  return null;
}

/** The control hub of a run: --control, else /control on the endpoint's host (the hub-sample serves both). */
export function controlUrlOf(lead: LeadOptions, endpointUrl: string): string {
  return lead.controlUrl ?? new URL('/control', endpointUrl).toString();
}
