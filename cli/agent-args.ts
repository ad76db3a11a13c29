/** The headless runner's agent mode: `live-bench --agent <control-url> --session <code>`. */
import { hostname } from 'node:os';
import { parseArgs } from 'node:util';
import { engineKindOption, type EngineKind } from './engine-kind.ts';
import { sessionSecretProblem } from '../core/fleet/index.ts';

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

export const AGENT_USAGE = `Usage: live-bench --agent <control-url> --session <code> --session-secret <secret> [options]

Joins a dashboard's run as an agent: the dashboard sends the configuration, starts and stops
the run, and shows this agent's figures merged with the others'.

  --agent <url>      the control hub, e.g. http://dashboard-host:5180/control (the dashboard's
                     Agents panel shows the exact command)
  --session <code>   the session code the dashboard shows
  --session-secret <secret>
                     the session's secret, from the same agent command: the lead admits no
                     agent without it (the code alone is public), so it sends the run's
                     tokens to no one else
  --workers <n>      engines offered to the run, one per worker thread; 1 runs it in the
                     agent's own thread (default 2)
  --engines <kind>   threads | processes: the engines as worker threads of the agent, or as
                     child processes, each with open files of its own, for a share of
                     connections past what one process may open (default threads)
  --name <text>      how the dashboard lists this agent (default: host name and process id)
  --once             leave after one run
  --join-timeout <s> keep trying to join for up to s seconds while the session is not open yet:
                     for agents started before their lead (live-bench --lead --session <code>)
                     (default 0: try once)

Exit codes: 0 left normally, 2 bad input, 3 could not reach the control hub or join the session.`;

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
    return { ok: false, errors: [`${error instanceof Error ? error.message : String(error)}. In agent mode the run's options come from the dashboard; see --agent --help.`] };
  }
  if (values.help) return { ok: 'help' };
  const errors: string[] = [];
  const controlUrl = (values.agent ?? '').trim();
  if (!/^https?:\/\/[^/]+/i.test(controlUrl)) errors.push(`--agent must be the control hub's http(s) URL, e.g. http://127.0.0.1:5180/control, but is "${controlUrl}".`);
  const session = (values.session ?? '').trim().toUpperCase();
  if (!/^[A-Z0-9]{4,32}$/.test(session)) errors.push(`--session must be the code the dashboard's Agents panel shows (letters and digits), but is "${values.session ?? ''}".`);
  const sessionSecret = values['session-secret']?.trim() ?? null;
  const secretProblem = sessionSecret === null ? null : sessionSecretProblem(sessionSecret);
  if (secretProblem) errors.push(`--session-secret: ${secretProblem}.`);
  const threads = values.workers === undefined ? 2 : Number(values.workers);
  if (!Number.isInteger(threads) || threads < 1 || threads > 64) errors.push(`--workers must be a whole number from 1 to 64, but is "${values.workers}".`);
  const engines = engineKindOption(values.engines, errors) ?? 'threads';
  const joinTimeoutSec = values['join-timeout'] === undefined ? 0 : Number(values['join-timeout']);
  if (values['join-timeout']?.trim() === '' || !Number.isFinite(joinTimeoutSec) || joinTimeoutSec < 0 || joinTimeoutSec > MAX_JOIN_TIMEOUT_SEC) errors.push(`--join-timeout must be seconds from 0 to ${MAX_JOIN_TIMEOUT_SEC}, but is "${values['join-timeout']}".`);
  if (errors.length > 0) return { ok: false, errors };
  return { ok: true, options: { controlUrl, session, sessionSecret, threads, engines, name: values.name?.trim() || `${hostname()} pid ${process.pid}`, once: values.once ?? false, joinTimeoutSec } };
}
