/**
 * The dashboard's side of its agents: who joined, how far each one's clock is from ours, and a
 * WorkerPort for each of their threads, so a RunCoordinator runs them like its own Web Workers.
 * The control connection is injected (a real SignalR connection to the control hub in the
 * page, a fake in unit tests).
 */
import type { Clock, Timers } from '../clock.ts';
import type { WorkerPort } from '../run-coordinator.ts';
import type { RunAgent } from '../run-result.ts';
import type { FromWorker } from '../../workers/protocol.ts';
import { estimateClockOffset, type ClockEstimate, type ClockSample } from './clock-offset.ts';
import { parseAgentInfo, type AgentInfo, type FromAgent, type ToAgent } from './control-messages.ts';
import { PieceJoiner, toPieces } from './pieces.ts';

/** The dashboard's end of the control hub. */
export interface DashboardChannel {
  toAgent(agentId: string, message: string): Promise<void>;
}

export interface AgentView {
  id: string;
  info: AgentInfo;
  clock: ClockEstimate | null;
  /** `left`: it disconnected; kept in the list so a run can say what became of it. */
  state: 'ready' | 'left';
}

/** Round trips per clock estimate, and how long to wait for one answer. */
export const CLOCK_ROUNDS = 8;
export const CLOCK_PING_TIMEOUT_MS = 2_000;

interface Agent extends AgentView {
  samples: ClockSample[];
  pings: Map<number, { sentUs: number; resolve: () => void }>;
  /** The run's handler and worker index for each of its threads taking part in the current run. */
  threads: Map<number, { workerIndex: number; handler: (message: FromWorker) => void }>;
  measuring: Promise<ClockEstimate | null> | null;
  /** Long messages from this agent arrive in pieces (pieces.ts). */
  pieces: PieceJoiner;
}

export class Fleet {
  readonly #agents = new Map<string, Agent>();
  /** Introductions refused, worded for people (shown beside the agent list). */
  readonly refusals: string[] = [];
  #nextPingId = 1;

  constructor(
    private readonly channel: DashboardChannel,
    private readonly clock: Clock,
    private readonly timers: Timers,
    /** Called whenever the list or an agent's state changes. */
    private readonly onChange: () => void = () => {},
  ) {}

  agents(): AgentView[] {
    return [...this.#agents.values()].map(({ id, info, clock, state }) => ({ id, info, clock, state }));
  }

  agentJoined(agentId: string, infoText: string): void {
    const info = parseAgentInfo(infoText);
    if (typeof info === 'string') {
      this.refusals.push(`An agent was refused because ${info}. Start it with the same version of the tool as this dashboard.`);
      this.onChange();
      return;
    }
    this.#agents.set(agentId, { id: agentId, info, clock: null, state: 'ready', samples: [], pings: new Map(), threads: new Map(), measuring: null, pieces: new PieceJoiner() });
    this.onChange();
    void this.measureClock(agentId);
  }

  /** The agent disconnected: each of its threads in a run is reported to the run as lost. */
  agentLeft(agentId: string): void {
    const agent = this.#agents.get(agentId);
    if (!agent || agent.state === 'left') return;
    agent.state = 'left';
    for (const [thread, { workerIndex, handler }] of agent.threads) {
      handler({ type: 'fatal', workerIndex, message: `agent "${agent.info.name}" (thread ${thread + 1}) left the run: it disconnected from the control hub, so its connections count as lost` });
    }
    agent.threads.clear();
    for (const ping of agent.pings.values()) ping.resolve();
    this.onChange();
  }

  fromAgent(agentId: string, text: string): void {
    const agent = this.#agents.get(agentId);
    if (!agent || agent.state === 'left') return;
    const whole = agent.pieces.add(text);
    if (whole === null) return;
    let message: FromAgent;
    try {
      message = JSON.parse(whole) as FromAgent;
    } catch {
      return;
    }
    if (message.type === 'clock-pong') {
      const ping = agent.pings.get(message.pingId);
      if (!ping) return;
      agent.pings.delete(message.pingId);
      agent.samples.push({ sentUs: ping.sentUs, receivedUs: this.clock.nowUs(), agentUs: message.agentUs });
      ping.resolve();
    } else if (message.type === 'worker') {
      const thread = agent.threads.get(message.thread);
      // A worker that failed to load cannot know its index; the run gave it one.
      const inner = message.message.type === 'fatal' && thread ? { ...message.message, workerIndex: thread.workerIndex } : message.message;
      thread?.handler(inner);
    }
  }

  /** Takes CLOCK_ROUNDS round trips, one after another, and keeps the best estimate so far.
   *  A measurement already under way is shared: pings in parallel would lengthen each other's trips. */
  measureClock(agentId: string): Promise<ClockEstimate | null> {
    const agent = this.#agents.get(agentId);
    if (!agent) return Promise.resolve(null);
    agent.measuring ??= this.#measure(agent).finally(() => (agent.measuring = null));
    return agent.measuring;
  }

  async #measure(agent: Agent): Promise<ClockEstimate | null> {
    for (let round = 0; round < CLOCK_ROUNDS && agent.state !== 'left'; round++) {
      const pingId = this.#nextPingId++;
      await new Promise<void>((resolve) => {
        const timeout = this.timers.setTimeout(() => {
          agent.pings.delete(pingId);
          resolve();
        }, CLOCK_PING_TIMEOUT_MS);
        agent.pings.set(pingId, { sentUs: this.clock.nowUs(), resolve: () => { this.timers.clearTimeout(timeout); resolve(); } });
        this.#send(agent, { type: 'clock-ping', pingId });
      });
    }
    // Older samples stay in: a good round trip from earlier is still a good estimate, clocks drift slowly.
    agent.clock = estimateClockOffset(agent.samples.slice(-4 * CLOCK_ROUNDS));
    this.onChange();
    return agent.clock;
  }

  /** One WorkerPort per thread of each listed agent that is still here, in order. */
  ports(agentIds: readonly string[]): WorkerPort[] {
    const ports: WorkerPort[] = [];
    for (const id of agentIds) {
      const agent = this.#agents.get(id);
      if (!agent || agent.state === 'left') continue;
      for (let thread = 0; thread < agent.info.threads; thread++) ports.push(this.#port(agent, thread));
    }
    return ports;
  }

  /** The ports of the agents still here, and how each maps onto the run's workers from `firstWorkerIndex` on. */
  runWorkers(agentIds: readonly string[], firstWorkerIndex: number): { ports: WorkerPort[]; agents: RunAgent[] } {
    const agents: RunAgent[] = [];
    let next = firstWorkerIndex;
    for (const id of agentIds) {
      const agent = this.#agents.get(id);
      if (!agent || agent.state === 'left') continue;
      const { name, kind, client, threads } = agent.info;
      agents.push({ name, kind, client, threads, firstWorkerIndex: next, clockOffsetUs: agent.clock?.offsetUs ?? null, clockUncertaintyUs: agent.clock?.uncertaintyUs ?? null, lost: false });
      next += threads;
    }
    return { ports: this.ports(agentIds), agents };
  }

  #port(agent: Agent, thread: number): WorkerPort {
    let handler: (message: FromWorker) => void = () => {};
    return {
      post: (message) => {
        if (message.type === 'start') {
          agent.threads.set(thread, { workerIndex: message.workerIndex, handler });
          message = { ...message, clockOffsetUs: agent.clock?.offsetUs ?? 0 };
        }
        this.#send(agent, { type: 'worker', thread, message });
      },
      onMessage: (h) => (handler = h),
      terminate: () => void agent.threads.delete(thread),
    };
  }

  #send(agent: Agent, message: ToAgent): void {
    // A message that cannot be delivered means the agent is gone (the hub says so too, with AgentLeft).
    for (const piece of toPieces(JSON.stringify(message))) this.channel.toAgent(agent.id, piece).catch(() => this.agentLeft(agent.id));
  }
}

/** What the dashboard's control connection must offer to feed a Fleet. */
export interface FleetEvents {
  on(method: string, handler: (...args: never[]) => void): void;
}

/** Feeds the control hub's events for the dashboard into `fleet`. */
export function attachFleet(control: FleetEvents, fleet: Fleet): void {
  control.on('AgentJoined', (agentId: string, info: string) => fleet.agentJoined(agentId, info));
  control.on('AgentLeft', (agentId: string) => fleet.agentLeft(agentId));
  control.on('FromAgent', (agentId: string, message: string) => fleet.fromAgent(agentId, message));
}
