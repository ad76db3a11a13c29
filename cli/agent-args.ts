/** The headless runner's agent mode: `live-bench --agent <control-url> --session <code>`. */
import { hostname } from 'node:os';
import { parseArgs } from 'node:util';
import { engineKindOption, type EngineKind } from './engine-kind.ts';
import { sessionSecretProblem } from '../core/fleet/index.ts';
import { ARGS_WORDS } from './args-words.ts';
import { HELP_WORDS } from './help-words.ts';

export interface AgentOptions {
  controlUrl: string;
  session: string;
  /** The session's secret, presented on joining (core/fleet/agent-secrets.ts); null: none given. */
  sessionSecret: string | null;
  /** Engines offered to the dashboard; each takes an even share of the connections. */
  threads: number;
  /** Worker threads (their open files shared) or child processes (each with its own). */
  engines: EngineKind;
  name: string;
  /** Leave after one run (for scripts and CI), instead of waiting for the next one. */
  once: boolean;
  /** How long to keep trying to join while the session is not open yet, s (0: try once). For
   *  agents started before their lead, with a code chosen in advance (the lead's --session). */
  joinTimeoutSec: number;
}

/** Longest --join-timeout, s: an agent waiting longer is more likely forgotten than early. */
export const MAX_JOIN_TIMEOUT_SEC = 3_600;

export const AGENT_USAGE = HELP_WORDS.agent();

export function parseAgentArgs(argv: string[]): { ok: true; options: AgentOptions } | { ok: false; errors: string[] } | { ok: 'help' } {
  let values;
  try {
    ({ values } = parseArgs({
      args: argv,
      strict: true,
      options: {
        agent: { type: 'string' },
        session: { type: 'string' },
        'session-secret': { type: 'string' },
        workers: { type: 'string' },
        engines: { type: 'string' },
        name: { type: 'string' },
        once: { type: 'boolean' },
        'join-timeout': { type: 'string' },
        help: { type: 'boolean' },
      },
    }));
  } catch (error) {
    return { ok: false, errors: [ARGS_WORDS.unparsedAgent({ message: error instanceof Error ? error.message : String(error) })] };
  }
  if (values.help) return { ok: 'help' };
  const errors: string[] = [];
  const controlUrl = (values.agent ?? '').trim();
  if (!/^https?:\/\/[^/]+/i.test(controlUrl)) errors.push(ARGS_WORDS.controlUrl({ flag: '--agent', url: controlUrl }));
  const session = (values.session ?? '').trim().toUpperCase();
  if (!/^[A-Z0-9]{4,32}$/.test(session)) errors.push(ARGS_WORDS.agentSession({ raw: values.session ?? '' }));
  const sessionSecret = values['session-secret']?.trim() ?? null;
  const secretProblem = sessionSecret === null ? null : sessionSecretProblem(sessionSecret);
  if (secretProblem) errors.push(ARGS_WORDS.sessionSecret({ problem: secretProblem }));
  const threads = values.workers === undefined ? 2 : Number(values.workers);
  if (!Number.isInteger(threads) || threads < 1 || threads > 64) errors.push(ARGS_WORDS.wholeNumber({ flag: '--workers', min: 1, max: 64, raw: values.workers }));
  const engines = engineKindOption(values.engines, errors) ?? 'threads';
  const joinTimeoutSec = values['join-timeout'] === undefined ? 0 : Number(values['join-timeout']);
  if (values['join-timeout']?.trim() === '' || !Number.isFinite(joinTimeoutSec) || joinTimeoutSec < 0 || joinTimeoutSec > MAX_JOIN_TIMEOUT_SEC) errors.push(ARGS_WORDS.joinTimeout({ max: MAX_JOIN_TIMEOUT_SEC, raw: values['join-timeout'] }));
  if (errors.length > 0) return { ok: false, errors };
  return { ok: true, options: { controlUrl, session, sessionSecret, threads, engines, name: values.name?.trim() || `${hostname()} pid ${process.pid}`, once: values.once ?? false, joinTimeoutSec } };
}
