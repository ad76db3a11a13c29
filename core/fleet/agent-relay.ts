/**
 * An agent's side: it runs whatever threads the dashboard starts, passes messages both ways
 * unchanged, answers clock pings at once, and keeps its own totals of each run, so a person
 * at the agent can check the dashboard's merged figures against it. Runs in the headless
 * runner (worker threads) and in a browser opened as an agent (Web Workers); the control
 * connection and the workers are injected.
 */
import type { Clock } from '../clocks/index.ts';
import { emptyTotals, type WorkerPort, type FromWorker, type WorkerTotals } from '../execution/index.ts';
import type { FromAgent, ToAgent } from './control-messages.ts';
import { PieceJoiner, toPieces } from './pieces.ts';

/** The agent's end of the control hub. */
export interface AgentChannel {
  toDashboard(message: string): Promise<void>;
}

/** One run, as this agent saw it: the sum of its own threads' final totals. */
export interface AgentRunReport {
  threads: number;
  totals: WorkerTotals;
  /** Receptions its threads' slots planned (core/accounting/fates.ts), to add up against the dashboard's. */
  planned: number;
  /** Threads that failed instead of finishing. */
  failedThreads: number;
}

export class AgentRelay {
  readonly #threads = new Map<number, WorkerPort>();
  /** The latest totals and state of each thread of the current run. */
  readonly #latest = new Map<number, { totals: WorkerTotals; planned: number; done: boolean; failed: boolean }>();
  #reported = false;
  /** Long messages from the dashboard arrive in pieces (pieces.ts). */
  readonly #pieces = new PieceJoiner();

  constructor(
    private readonly channel: AgentChannel,
    private readonly clock: Clock,
    private readonly createPort: (thread: number) => WorkerPort,
    /** Called when every thread of a run has reported its end. */
    private readonly onRunEnd: (report: AgentRunReport) => void,
    /** Called when the dashboard says the run is over (its closing clock round answered). */
    private readonly onRunOver: () => void = () => {},
    /** Called when the lead turns this agent away (core/fleet/agent-secrets.ts), with why. */
    private readonly onRefused: (reason: string) => void = () => {},
  ) {}

  handle(text: string): void {
    const whole = this.#pieces.add(text);
    if (whole === null) return;
    let message: ToAgent;
    try {
      message = JSON.parse(whole) as ToAgent;
    } catch {
      return;
    }
    if (message.type === 'clock-ping') {
      this.#send({ type: 'clock-pong', pingId: message.pingId, agentUs: this.clock.nowUs() });
    } else if (message.type === 'worker') {
      if (message.message.type === 'start') this.#startThread(message.thread);
      this.#threads.get(message.thread)?.post(message.message);
    } else if (message.type === 'run-over') {
      this.onRunOver();
    } else if (message.type === 'refused') {
      this.onRefused(message.reason);
    }
  }

  /** Ends every thread (the agent is leaving). */
  close(): void {
    for (const port of this.#threads.values()) port.terminate();
    this.#threads.clear();
  }

  #startThread(thread: number): void {
    // A start after a finished run begins a new run: the previous run's threads go.
    if ([...this.#latest.values()].every((t) => t.done || t.failed)) {
      this.close();
      this.#latest.clear();
      this.#reported = false;
    }
    this.#threads.get(thread)?.terminate();
    const port = this.createPort(thread);
    this.#threads.set(thread, port);
    this.#latest.set(thread, { totals: emptyTotals(), planned: 0, done: false, failed: false });
    port.onMessage((message) => this.#fromThread(thread, message));
  }

  #fromThread(thread: number, message: FromWorker): void {
    this.#send({ type: 'worker', thread, message });
    const state = this.#latest.get(thread);
    if (!state) return;
    if (message.type === 'snapshot') {
      state.totals = message.totals;
      for (const delta of message.fates) state.planned += delta.planned;
      state.done = message.final;
    } else if (message.type === 'fatal') {
      state.failed = true;
    }
    if (message.type !== 'ready' && [...this.#latest.values()].every((t) => t.done || t.failed)) this.#runEnded();
  }

  /** The run under way as its threads last reported it, before its end was reported; null when
   *  no run is under way. An agent cut off from the control hub mid-run prints it: the
   *  dashboard will never have these figures. */
  runSoFar(): AgentRunReport | null {
    return this.#reported || this.#latest.size === 0 ? null : this.#sum();
  }

  #runEnded(): void {
    if (this.#reported) return;
    this.#reported = true;
    const report = this.#sum();
    for (const port of this.#threads.values()) port.terminate();
    this.#threads.clear();
    this.onRunEnd(report);
  }

  #sum(): AgentRunReport {
    const totals = emptyTotals();
    let failedThreads = 0;
    let planned = 0;
    for (const state of this.#latest.values()) {
      planned += state.planned;
      for (const key of Object.keys(totals) as (keyof WorkerTotals)[]) totals[key] += state.totals[key] ?? 0;
      if (state.failed) failedThreads++;
    }
    return { threads: this.#latest.size, totals, planned, failedThreads };
  }

  #send(message: FromAgent): void {
    for (const piece of toPieces(JSON.stringify(message))) {
      this.channel.toDashboard(piece).catch(() => {
        // The control connection is gone; the runner learns that from the connection's close.
      });
    }
  }
}
