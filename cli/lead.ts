/**
 * The headless lead: what the dashboard's Agents panel does, from the command line. It opens a
 * session on the control hub, says the session code and the agent command, waits for the agents,
 * and plans their part of the run with core/fleet (planFleetRun), as the page does; cli/main.ts
 * then runs it like any run (its ports beside the lead's own), so the split, the clock rounds,
 * the merge, the verdict, the exit codes and the result files are the single run's.
 */
import { systemClock, systemTimers } from '../core/clocks/index.ts';
import { agentsSecretsNotice, attachFleet, Fleet, newSessionSecret, planFleetRun, type AgentView, type RemoteWorkers } from '../core/fleet/index.ts';
import { BenchError, errorMessageOf } from '../core/errors/index.ts';
import { type RunAgent } from '../core/result/index.ts';
import { isEmpty, type Credentials, type RunConfig } from '../core/run-config/index.ts';
import { openControlConnection } from '../signalr/control-connection.ts';
import { hubExceptionText, isMissingHubMethod } from '../signalr/errors.ts';
import { controlUrlOf, type LeadOptions } from './lead-args.ts';
import type { Output } from './output.ts';
import { SESSION_WORDS } from './session-words.ts';

/** A fleet run under way: the agents' part, and its end (the closing clock round, then the session closed). */
export interface LedRun {
  remote: RemoteWorkers;
  /** Ends the run for its agents and closes the session; gives the run's agents with their end round. */
  end(agents: RunAgent[]): Promise<RunAgent[]>;
}

/** How often the lead looks at who joined while it waits, ms. */
const WAIT_POLL_MS = 100;

/** The command an agent is started with, for a person or a script to copy: the session's secret
 *  goes with it (null: the lead asks none). */
export function agentCommand(controlUrl: string, session: string, sessionSecret: string | null, chosenInAdvance: boolean): string {
  return `live-bench --agent ${controlUrl} --session ${session}${sessionSecret ? ` --session-secret ${sessionSecret}` : ''} --once${chosenInAdvance ? ' --join-timeout 300' : ''}`;
}

/** The lead's switch for credentials over a plain http control hub, as its words name it. */
const AGENTS_SECRETS_SWITCH = { refuse: '--agents-secrets refuse', allow: '--agents-secrets warn' };

/**
 * Opens the session, waits for `lead.agents` agents and plans their part of a run of `config`.
 * Throws a BenchError when the control hub cannot be reached or refuses the session (exit 3),
 * when fewer agents came in time (exit 3, naming how many came), or when the run cannot take
 * them (an unknown clock: exit 3); the session is closed then.
 */
export async function startLead(lead: LeadOptions, config: RunConfig, credentials: Credentials | undefined, io: Output): Promise<LedRun> {
  const controlUrl = controlUrlOf(lead, config.endpointUrl);
  // Said before anything connects, so before any credential is sent; refused: nothing is.
  const notice = agentsSecretsNotice(controlUrl, credentials, lead.agentsSecrets, AGENTS_SECRETS_SWITCH);
  if (notice?.level === 'refuse') throw new BenchError('badInput', notice.text);
  if (notice) io.err(`live-bench: warning: ${notice.text}`);
  // A code chosen in advance comes with its secret chosen in advance, or with none (agents
  // started first cannot know one drawn here): then whoever holds the code is admitted.
  const sessionSecret = lead.sessionSecret ?? (lead.session === null ? newSessionSecret() : null);
  if (sessionSecret === null && !isEmpty(credentials)) io.err(SESSION_WORDS.noSecretAsked());
  const control = await openControlConnection(controlUrl);
  let refusalsSaid = 0;
  const fleet: Fleet = new Fleet({ toAgent: (id, message) => control.invoke('ToAgent', id, message) }, systemClock, systemTimers, () => {
    // An agent turned away (no session secret, an introduction it could not read) is said as it happens.
    for (const refusal of fleet.refusals.slice(refusalsSaid)) io.err(`live-bench: ${refusal}`);
    refusalsSaid = fleet.refusals.length;
  }, sessionSecret);
  attachFleet(control, fleet);
  let closed: Error | null = null;
  let ending = false;
  control.onClose((error) => {
    if (ending) return;
    closed = error ?? new Error('the connection closed');
    // As on the page: the agents are out of reach, so each of their threads in a run is lost,
    // without being known to have failed (core/outcome/worker-loss.ts).
    fleet.controlLost();
    io.err(SESSION_WORDS.controlLost({ controlUrl, message: error ? error.message : null }));
  });
  const stop = () => {
    ending = true;
    return control.stop().catch(() => {});
  };
  const fail = async (error: BenchError): Promise<never> => {
    await stop();
    throw error;
  };
  let session: string;
  try {
    session = lead.session === null ? await control.invoke<string>('OpenSession') : await control.invoke<string>('OpenSessionWithCode', lead.session);
  } catch (error) {
    const said = hubExceptionText(errorMessageOf(error));
    const why = isMissingHubMethod(said) ? SESSION_WORDS.notControlHub({ controlUrl }) : said;
    return fail(new BenchError('refused', SESSION_WORDS.noSession({ controlUrl, why }), { cause: error }));
  }
  io.err(SESSION_WORDS.waiting({ session, controlUrl, seconds: lead.agentsTimeoutSec, agents: lead.agents }));
  io.err(`  ${agentCommand(controlUrl, session, sessionSecret, lead.session !== null)}`);
  const { agents: joined, interrupted } = await waitForAgents(fleet, lead, () => closed);
  if (joined.length < lead.agents) {
    const names = joined.map((agent) => `"${agent.info.name}"`).join(', ');
    const why = SESSION_WORDS.whyFewer({ interrupted, closed: closed ? (closed as Error).message : null, seconds: lead.agentsTimeoutSec });
    return fail(new BenchError('couldNotConnect', SESSION_WORDS.tooFew({ joined: joined.length, agents: lead.agents, session, names, why, controlUrl })));
  }
  const extra = fleet.agents().filter((agent) => agent.state === 'ready').length - joined.length;
  if (extra > 0) io.err(SESSION_WORDS.extra({ extra, agents: lead.agents }));
  io.err(SESSION_WORDS.measuringClocks({ joined: joined.length, names: joined.map((agent) => `"${agent.info.name}" ${agent.info.threads} thread(s)`).join(', ') }));
  const planned = await planFleetRun(fleet, joined, config, { includeLocal: lead.includeLocal, localIsBrowser: false, controlUrl });
  if ('error' in planned) return fail(new BenchError('refused', SESSION_WORDS.cannotStart({ error: planned.error })));
  const { remote } = planned;
  if (remote.agents.length < lead.agents) io.err(SESSION_WORDS.leftWhileMeasured({ left: lead.agents - remote.agents.length, remaining: remote.agents.length }));
  return {
    remote,
    end: async (agents) => {
      const ended = remote.close ? await remote.close(agents).catch(() => agents) : agents;
      // Leaving the control hub closes the session: agents still in it are told (SessionClosed).
      await stop();
      return ended;
    },
  };
}

/** The first `lead.agents` agents to join (in the order they joined), once that many are ready,
 *  or those ready when the time-out passes, the control hub closes, or the lead is interrupted. */
async function waitForAgents(fleet: Fleet, lead: LeadOptions, closed: () => Error | null): Promise<{ agents: AgentView[]; interrupted: boolean }> {
  const deadlineMs = Date.now() + lead.agentsTimeoutSec * 1_000;
  let interrupted = false;
  const interrupt = () => (interrupted = true);
  process.once('SIGINT', interrupt);
  process.once('SIGTERM', interrupt);
  try {
    for (;;) {
      const ready = fleet.agents().filter((agent) => agent.state === 'ready');
      if (ready.length >= lead.agents || Date.now() >= deadlineMs || closed() || interrupted) return { agents: ready.slice(0, lead.agents), interrupted };
      await new Promise((resolve) => setTimeout(resolve, WAIT_POLL_MS));
    }
  } finally {
    process.off('SIGINT', interrupt);
    process.off('SIGTERM', interrupt);
  }
}
