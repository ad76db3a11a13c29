/**
 * The dashboard's side of its agents: who joined, how far each one's clock is from ours, and a
 * WorkerPort for each of their threads, so a RunCoordinator runs them like its own Web Workers.
 * The control connection is injected (a real SignalR connection to the control hub in the
 * page, a fake in unit tests).
 */
import { estimateClockOffset, type Clock, type Timers, type ClockEstimate, type ClockSample } from '../clocks/index.ts';
import { type WorkerPort, type FromWorker } from '../execution/index.ts';
import { controlLostText } from '../outcome/index.ts';
import { type ScenarioName } from '../plan/index.ts';
import { type RunAgent } from '../result/index.ts';
import { SCENARIO_LABELS } from '../run-config/index.ts';
import { parseAgentInfo, type AgentInfo, type FromAgent, type ToAgent } from './control-messages.ts';
import { PieceJoiner, toPieces } from './pieces.ts';
import { sameSecret, wrongSecretText } from './agent-secrets.ts';
import { FLEET_WORDS } from './words.ts';

/** The dashboard's end of the control hub. */
export interface DashboardChannel {
  toAgent(agentId: string, message: string): Promise<void>;
}

export interface AgentView {
  id: string;
  info: AgentInfo;
  /** From the latest clock round alone; null before the first round ends, or when the latest
   *  round got no answer (an unknown clock). */
  clock: ClockEstimate | null;
  /** A clock round for it is under way or waiting for the one under way. */
  measuring: boolean;
  /** `left`: it disconnected; kept in the list so a run can say what became of it. */
  state: 'ready' | 'left';
}

/** Round trips in one clock round, taken one after another, and how long to wait for each answer. */
export const CLOCK_ROUND_TRIPS = 8;
export const CLOCK_PING_TIMEOUT_MS = 2_000;
/** The longest a clock round can take, ms: every answer timed out. */
export const CLOCK_ROUND_MAX_MS = CLOCK_ROUND_TRIPS * CLOCK_PING_TIMEOUT_MS;

interface Agent extends Omit<AgentView, 'measuring'> {
  /** Rounds asked for that have not ended yet. */
  roundsPending: number;
  pings: Map<number, { sentUs: number; answer: (sample: ClockSample | null) => void }>;
  /** The run's handler and worker index for each of its threads taking part in the current run. */
  threads: Map<number, { workerIndex: number; handler: (message: FromWorker) => void }>;
  /** Settles when the last round asked for has ended; the next round starts after it. */
  measuring: Promise<void>;
  /** Long messages from this agent arrive in pieces (pieces.ts). */
  pieces: PieceJoiner;
}

/** A run's share of the agents: a port per thread, and each agent as the run records it. */
export interface RunAgents {
  ports: WorkerPort[];
  agents: RunAgent[];
}

export class Fleet {
  readonly #agents = new Map<string, Agent>();
  /** Introductions refused, worded for people (shown beside the agent list). */
  readonly refusals: string[] = [];
  #nextPingId = 1;
  /** Which agent each RunAgent that prepareRun made stands for (closeRun measures it again). */
  readonly #agentOfRun = new WeakMap<RunAgent, string>();
  /** When the control hub last said anything about an agent (a message from one, one joining or
   *  leaving), epoch µs; Infinity quiet once the lead's connection to it closed. */
  #heardUs: number;
  #controlLost = false;

  constructor(
    private readonly channel: DashboardChannel,
    private readonly clock: Clock,
    private readonly timers: Timers,
    /** Called whenever the list or an agent's state changes. */
    private readonly onChange: () => void = () => {},
    /** The session's secret every agent must present besides the public code
     *  (core/fleet/agent-secrets.ts); null: the code alone admits (a code chosen in advance). */
    private readonly sessionSecret: string | null = null,
  ) {
    this.#heardUs = clock.nowUs();
  }

  /** How long the control hub has relayed nothing from any agent, ms (Infinity once it is lost):
   *  a silent agent thread with a quiet hub cannot be blamed on the agent (core/outcome/worker-loss.ts). */
  quietMs(): number {
    return this.#controlLost ? Infinity : (this.clock.nowUs() - this.#heardUs) / 1_000;
  }

  /** The lead's connection to the control hub closed: every agent is out of reach, and their
   *  threads in a run are lost without being known to have failed. */
  controlLost(): void {
    this.#controlLost = true;
    for (const agent of this.#agents.values()) this.#leave(agent, true);
  }

  agents(): AgentView[] {
    return [...this.#agents.values()].map(({ id, info, clock, state, roundsPending }) => ({ id, info, clock, measuring: roundsPending > 0, state }));
  }

  agentJoined(agentId: string, infoText: string): void {
    this.#heardUs = this.clock.nowUs();
    const info = parseAgentInfo(infoText);
    if (typeof info === 'string') {
      this.refusals.push(FLEET_WORDS.agentRefused({ why: info }));
      this.onChange();
      return;
    }
    if (this.sessionSecret !== null) {
      const presented = secretOf(infoText);
      if (!sameSecret(presented, this.sessionSecret)) {
        // Told why, and sent nothing else: no clock round, no start message, no credentials.
        const reason = wrongSecretText(info.name, presented !== undefined);
        this.refusals.push(reason);
        this.onChange();
        for (const piece of toPieces(JSON.stringify({ type: 'refused', reason } satisfies ToAgent))) this.channel.toAgent(agentId, piece).catch(() => {});
        return;
      }
    }
    this.#agents.set(agentId, { id: agentId, info, clock: null, state: 'ready', roundsPending: 0, pings: new Map(), threads: new Map(), measuring: Promise.resolve(), pieces: new PieceJoiner() });
    this.onChange();
    void this.measureClock(agentId);
  }

  /** The agent disconnected (the control hub says so): each of its threads in a run is reported to the run as lost. */
  agentLeft(agentId: string): void {
    this.#heardUs = this.clock.nowUs();
    const agent = this.#agents.get(agentId);
    if (agent) this.#leave(agent, false);
  }

  #leave(agent: Agent, controlLost: boolean): void {
    if (agent.state === 'left') return;
    agent.state = 'left';
    for (const [thread, { workerIndex, handler }] of agent.threads) {
      handler(controlLost
        ? { type: 'fatal', workerIndex, message: controlLostText(agent.info.name, thread), relayLost: true }
        : { type: 'fatal', workerIndex, message: FLEET_WORDS.agentLeft({ name: agent.info.name, thread: thread + 1 }) });
    }
    agent.threads.clear();
    for (const ping of agent.pings.values()) ping.answer(null);
    this.onChange();
  }

  fromAgent(agentId: string, text: string): void {
    this.#heardUs = this.clock.nowUs();
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
      // An answer after its time-out finds no ping: it belongs to no round.
      const ping = agent.pings.get(message.pingId);
      ping?.answer({ sentUs: ping.sentUs, receivedUs: this.clock.nowUs(), agentUs: message.agentUs });
    } else if (message.type === 'worker') {
      const thread = agent.threads.get(message.thread);
      // A worker that failed to load cannot know its index; the run gave it one.
      const inner = message.message.type === 'fatal' && thread ? { ...message.message, workerIndex: thread.workerIndex } : message.message;
      thread?.handler(inner);
      // A thread that has reported its end is no longer in the run: its agent may leave now (an
      // agent started with --once does) without its figures being counted as lost.
      if (inner.type === 'snapshot' && inner.final) agent.threads.delete(message.thread);
    }
  }

  /**
   * One clock round: CLOCK_ROUND_TRIPS round trips, one after another, estimated from that
   * round's samples alone, so a clock that drifted or jumped shows its new offset. Null (an
   * unknown clock) when no answer came. Each call gets a round that begins after the call,
   * queued behind any round under way: pings in parallel would lengthen each other's trips.
   */
  measureClock(agentId: string): Promise<ClockEstimate | null> {
    const agent = this.#agents.get(agentId);
    if (!agent) return Promise.resolve(null);
    agent.roundsPending++;
    const round = agent.measuring.then(() => this.#measure(agent));
    agent.measuring = round.then(() => {});
    return round;
  }

  async #measure(agent: Agent): Promise<ClockEstimate | null> {
    const samples: ClockSample[] = [];
    for (let trip = 0; trip < CLOCK_ROUND_TRIPS && agent.state !== 'left'; trip++) {
      const sample = await this.#roundTrip(agent);
      if (sample) samples.push(sample);
    }
    agent.clock = estimateClockOffset(samples);
    agent.roundsPending--;
    this.onChange();
    return agent.clock;
  }

  #roundTrip(agent: Agent): Promise<ClockSample | null> {
    const pingId = this.#nextPingId++;
    return new Promise((resolve) => {
      const timeout = this.timers.setTimeout(() => {
        agent.pings.delete(pingId);
        resolve(null);
      }, CLOCK_PING_TIMEOUT_MS);
      const answer = (sample: ClockSample | null) => {
        this.timers.clearTimeout(timeout);
        agent.pings.delete(pingId);
        resolve(sample);
      };
      agent.pings.set(pingId, { sentUs: this.clock.nowUs(), answer });
      this.#send(agent, { type: 'clock-ping', pingId });
    });
  }

  /**
   * The listed agents' part in a run of `scenario`, their threads numbered from
   * `firstWorkerIndex` on: a fresh clock round with every agent (all at once), then a port per
   * thread of each agent still here, stamped with that round's offset. Refused, naming them,
   * when an agent's clock stayed unknown and the scenario's receivers may be on another machine.
   */
  async prepareRun(agentIds: readonly string[], firstWorkerIndex: number, scenario: ScenarioName): Promise<RunAgents | { error: string }> {
    const listed = agentIds.map((id) => this.#agents.get(id)).filter((agent): agent is Agent => agent !== undefined && agent.state !== 'left');
    const clocks = await Promise.all(listed.map((agent) => this.measureClock(agent.id)));
    const taking = listed.map((agent, i) => ({ agent, clock: clocks[i] ?? null })).filter(({ agent }) => agent.state !== 'left');
    const unknown = taking.filter(({ clock }) => clock === null).map(({ agent }) => agent.info.name);
    if (unknown.length > 0 && scenario !== 'echo') return { error: unknownClockReason(unknown, scenario) };
    const ports: WorkerPort[] = [];
    const agents: RunAgent[] = [];
    let next = firstWorkerIndex;
    for (const { agent, clock } of taking) {
      const { name, kind, client, threads } = agent.info;
      const runAgent: RunAgent = { name, kind, client, threads, firstWorkerIndex: next, clockOffsetUs: clock?.offsetUs ?? null, clockUncertaintyUs: clock?.uncertaintyUs ?? null, clockMeasuredAtUs: clock?.measuredAtUs ?? null, lost: false };
      this.#agentOfRun.set(runAgent, agent.id);
      agents.push(runAgent);
      for (let thread = 0; thread < threads; thread++) ports.push(this.#port(agent, thread, clock));
      next += threads;
    }
    return { ports, agents };
  }

  /**
   * The run's end: a second clock round with each of its agents still here (all at once), so the
   * run can tell how far each clock drifted while it ran (core/clocks/clock-drift.ts), then "run-over" to
   * each (an agent started for one run leaves on it). Returns the run's agents with `clockEnd`
   * set: the round's estimate, or null for an agent that left or did not answer.
   */
  async closeRun(runAgents: readonly RunAgent[]): Promise<RunAgent[]> {
    const present = runAgents.map((runAgent) => {
      const agent = this.#agents.get(this.#agentOfRun.get(runAgent) ?? '');
      return agent && agent.state !== 'left' ? agent : undefined;
    });
    const ends = await Promise.all(present.map((agent) => (agent ? this.measureClock(agent.id) : Promise.resolve(null))));
    for (const agent of present) if (agent && agent.state !== 'left') this.#send(agent, { type: 'run-over' });
    return runAgents.map((runAgent, i) => {
      const end = ends[i] ?? null;
      return { ...runAgent, clockEnd: end && { offsetUs: end.offsetUs, uncertaintyUs: end.uncertaintyUs, measuredAtUs: end.measuredAtUs } };
    });
  }

  #port(agent: Agent, thread: number, clock: ClockEstimate | null): WorkerPort {
    let handler: (message: FromWorker) => void = () => {};
    return {
      post: (message) => {
        if (message.type === 'start') {
          agent.threads.set(thread, { workerIndex: message.workerIndex, handler });
          // An unknown clock gets no offset, never 0: the agent then runs on its own clock, which
          // prepareRun allows only for echo, whose sender and receiver read the same clock.
          if (clock) message = { ...message, clockOffsetUs: clock.offsetUs };
        }
        this.#send(agent, { type: 'worker', thread, message });
      },
      onMessage: (h) => (handler = h),
      terminate: () => void agent.threads.delete(thread),
    };
  }

  #send(agent: Agent, message: ToAgent): void {
    // A message the hub would not deliver means the agent is gone (the hub says so too, with
    // AgentLeft); one that never reached the hub because the lead's own connection closed says
    // nothing about the agent.
    for (const piece of toPieces(JSON.stringify(message))) {
      this.channel.toAgent(agent.id, piece).catch((error: unknown) => {
        if (this.#controlLost) return;
        if (CONNECTION_CLOSED.test(error instanceof Error ? error.message : String(error))) this.controlLost();
        else this.agentLeft(agent.id);
      });
    }
  }
}

/** The secret an introduction presents, if any (parseAgentInfo keeps none of it). */
function secretOf(infoText: string): unknown {
  try {
    return (JSON.parse(infoText) as { secret?: unknown } | null)?.secret;
  } catch {
    return undefined;
  }
}

/** @microsoft/signalr's words for an invocation that failed because the connection itself closed. */
const CONNECTION_CLOSED = /underlying connection being closed|not in the 'Connected' State/i;

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

/** Why a run of `scenario` cannot take these agents, whose clock round got no answer. */
export function unknownClockReason(names: readonly string[], scenario: ScenarioName): string {
  return FLEET_WORDS.unknownClocks({ names, roundSec: CLOCK_ROUND_MAX_MS / 1_000, scenario: SCENARIO_LABELS[scenario] });
}
