/**
 * This browser as an agent of another dashboard's run (the page opened with `?agent=CODE`):
 * it joins the session on the control hub and runs, in its own Web Workers, whatever the
 * dashboard starts. Its own totals of each run are kept, to check against the dashboard's.
 */
import { systemClock } from '../../core/clocks/index.ts';
import { AgentRelay, type AgentRunReport, type AgentInfo } from '../../core/fleet/index.ts';
import { openControlConnection } from '../../signalr/control-connection.ts';
import { hubExceptionText } from '../../signalr/errors.ts';
import { errorMessageOf } from '../../core/errors/index.ts';
import { createWorkerPort } from './run-controller.svelte.ts';
import { PAGE_WORDS } from './words.ts';

export type BrowserAgentState = 'joining' | 'joined' | 'closed' | 'failed';

export class BrowserAgent {
  state = $state<BrowserAgentState>('joining');
  /** What happened, in words, when the state is closed or failed. */
  message = $state('');
  runs = $state.raw<AgentRunReport[]>([]);

  constructor(
    readonly controlUrl: string,
    readonly session: string,
    readonly threads: number,
    /** The session's secret, from the link's #secret= (never sent to the page's server); null: none. */
    readonly sessionSecret: string | null = null,
  ) {}

  async join(): Promise<void> {
    let control;
    try {
      control = await openControlConnection(this.controlUrl);
    } catch (error) {
      this.#fail(error instanceof Error ? error.message : String(error));
      return;
    }
    const relay = new AgentRelay(
      { toDashboard: (message) => control.invoke('ToDashboard', message) },
      systemClock,
      () => createWorkerPort(),
      (report) => (this.runs = [...this.runs, report]),
      () => {},
      (reason) => {
        relay.close();
        this.#fail(reason);
        void control.stop();
      },
    );
    control.on('Control', (message: string) => relay.handle(message));
    control.on('SessionClosed', () => {
      relay.close();
      this.state = 'closed';
      this.message = PAGE_WORDS.sessionClosed();
    });
    control.onClose((error) => {
      relay.close();
      // Closed after a refusal (stopped here) or the session's end: already said.
      if (this.state !== 'closed' && this.state !== 'failed') this.#fail(PAGE_WORDS.agentLostControl({ error }));
    });
    const info: AgentInfo = { name: `browser ${navigator.userAgent.match(/(Chrome|Firefox|Safari)\/[\d.]+/)?.[0] ?? ''}`.trim(), kind: 'browser', threads: this.threads, client: navigator.userAgent, ...(this.sessionSecret ? { secret: this.sessionSecret } : {}) };
    try {
      await control.invoke('JoinSession', this.session, JSON.stringify(info));
      // A refusal may arrive before the join's answer does.
      if (this.state === 'joining') this.state = 'joined';
    } catch (error) {
      await control.stop();
      this.#fail(`Could not join session ${this.session}: ${hubExceptionText(errorMessageOf(error))}`);
    }
  }

  #fail(message: string): void {
    this.state = 'failed';
    this.message = message;
  }
}
