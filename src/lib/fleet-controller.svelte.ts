/**
 * The dashboard's agents: opens a session on the control hub on request, lists who joined,
 * and hands their threads to the next run. Reactive state only; the logic is core/fleet.
 */
import { systemClock, systemTimers } from '../../core/clocks/index.ts';
import { agentsSecretsNotice, attachFleet, Fleet, newSessionSecret, planFleetRun, type AgentView, type RemoteWorkers } from '../../core/fleet/index.ts';
import type { RunConfig } from '../../core/run-config/index.ts';
import { openControlConnection, type ControlConnection } from '../../signalr/control-connection.ts';
import { hubExceptionText } from '../../signalr/errors.ts';
import { errorMessageOf } from '../../core/errors/index.ts';
import { sessionCredentials } from './session-credentials.svelte.ts';
import { PAGE_WORDS } from './words.ts';

/** The page's switch for credentials over a plain http control hub (AgentsPanel's checkbox), as its words name it. */
export const REFUSE_PLAIN_LABEL = 'Refuse to send them over plain http';
const PAGE_SWITCH = { refuse: `the box "${REFUSE_PLAIN_LABEL}" ticked`, allow: `the box "${REFUSE_PLAIN_LABEL}" unticked` };

export class FleetController {
  /** The session code agents join with; null until agents are invited. */
  session = $state<string | null>(null);
  agents = $state.raw<AgentView[]>([]);
  refusals = $state.raw<string[]>([]);
  error = $state<string | null>(null);
  opening = $state(false);
  /** Clock rounds under way (before a run, or asked for with Measure clocks again). */
  clockRoundsUnderWay = $state(0);
  /** The secret agents present besides the code (core/fleet/agent-secrets.ts): drawn when
   *  agents are invited, shown in the agent command and link; null until then. */
  sessionSecret = $state<string | null>(null);
  /** Whether this page's own workers take part when agents do. */
  includeLocal = $state(true);
  /** Whether a run whose credentials would cross a plain http control hub is refused (the
   *  runner's --agents-secrets refuse); unticked, the panel warns and the run sends them. */
  refusePlainSecrets = $state(false);
  #fleet: Fleet | null = null;
  #control: ControlConnection | null = null;

  constructor(readonly controlUrl: string) {}

  /** What the panel says before a run sends the credentials typed in this page to the agents:
   *  null when there is nothing to say (none typed, or an https control hub). */
  get secretsNotice(): { level: 'refuse' | 'warn'; text: string } | null {
    return agentsSecretsNotice(this.controlUrl, sessionCredentials.credentials, this.refusePlainSecrets ? 'refuse' : 'warn', PAGE_SWITCH);
  }

  /** Agents that can take part in the next run. */
  get ready(): AgentView[] {
    return this.agents.filter((agent) => agent.state === 'ready');
  }

  async invite(): Promise<void> {
    if (this.session || this.opening) return;
    this.opening = true;
    this.error = null;
    try {
      const control = await openControlConnection(this.controlUrl);
      const secret = newSessionSecret();
      const fleet = new Fleet({ toAgent: (id, message) => control.invoke('ToAgent', id, message) }, systemClock, systemTimers, () => this.#refresh(), secret);
      attachFleet(control, fleet);
      this.#fleet = fleet;
      control.onClose((error) => {
        this.error = PAGE_WORDS.controlClosed({ error });
        fleet.controlLost();
        this.session = null;
        this.#control = null;
      });
      this.session = await control.invoke<string>('OpenSession');
      this.sessionSecret = secret;
      this.#control = control;
    } catch (error) {
      this.error = hubExceptionText(errorMessageOf(error));
    } finally {
      this.opening = false;
    }
  }

  /** Measures every agent's clock again (agents measure once when they join, and every run
   *  measures afresh at its start). */
  async remeasureClocks(): Promise<void> {
    const fleet = this.#fleet;
    if (!fleet) return;
    this.clockRoundsUnderWay++;
    try {
      await Promise.all(this.ready.map((agent) => fleet.measureClock(agent.id)));
    } finally {
      this.clockRoundsUnderWay--;
    }
  }

  /**
   * The agents' part of a run of `config` (undefined when no agent is ready), or why the run
   * cannot start: browsers (this one and browser agents) hold only so many connections, and an
   * agent whose clock round got no answer cannot take part in a scenario that crosses agents.
   * Waits for a fresh clock round with every agent (at most CLOCK_ROUND_MAX_MS).
   */
  async plan(config: RunConfig): Promise<{ remote?: RemoteWorkers; error?: string }> {
    const fleet = this.#fleet;
    const ready = this.ready;
    if (!fleet || ready.length === 0) return {};
    // Before any start message: those carry the credentials.
    const notice = this.secretsNotice;
    if (notice?.level === 'refuse') return this.#refuse(notice.text);
    this.clockRoundsUnderWay++;
    let planned;
    try {
      planned = await planFleetRun(fleet, ready, config, { includeLocal: this.includeLocal, localIsBrowser: true, controlUrl: this.controlUrl });
    } finally {
      this.clockRoundsUnderWay--;
    }
    if ('error' in planned) return this.#refuse(planned.error);
    this.error = null;
    return planned;
  }

  #refuse(reason: string): { error: string } {
    this.error = reason;
    return { error: reason };
  }

  #refresh(): void {
    const fleet = this.#fleet;
    if (!fleet) return;
    this.agents = fleet.agents();
    this.refusals = [...fleet.refusals];
  }
}
