/**
 * Runs a scenario on a worker's open connections: one open-loop schedule per sending
 * connection, and, on every connection, the accounting of what arrives on the profile's receive
 * method (new, and altered when the hub cut or changed the text; duplicated, too old to tell,
 * foreign: another run's, or unsolicited: not the tool's at all, such as a hub's welcome message
 * or another client's chat line), wherever the hub put the text in what the profile reads,
 * measured from the planned send time the message carries. With deliver "return" the reception is the
 * invocation's completion, at the sender. Warm-up messages are sent and received but left out
 * of every figure.
 *
 * A slot plans what the configuration says (every configured receiver, SendSpec.recipients),
 * whatever opened or joined: the receivers absent at "go" are counted as never sent for
 * "receiverAbsent", the rest are sent or counted unsent for a reason of their own. So `planned`
 * is what the arguments say, and a run whose receivers could not connect never passes.
 */
import type { Clock, Timers } from '../../core/clocks/index.ts';
import { type NotSentReason } from '../../core/accounting/index.ts';
import { type GoMessage } from '../../core/execution/index.ts';
import { instanceOf } from '../../core/plan/index.ts';
import { NEEDS_NEGOTIATION } from '../../core/run-config/index.ts';
import { findPayloadHeader, locateText, PayloadBuilder, textIntact, type FoundHeader } from './payload.ts';
import { callSample } from '../../core/profiles/index.ts';
import { ReceptionLedger, windowSeqsFor } from './reception-ledger.ts';
import { PROBE_TS, type Scenario, type SendSpec } from '../scenarios/scenario.ts';
import type { PooledConnection } from './connection-pool.ts';
import { LaneSchedule, LoopPerLane, type SendSchedule } from './open-loop.ts';
import { StreamSends } from './stream-sends.ts';
import type { RestSends } from './rest-sends.ts';
import { probeCall } from './stream-probe.ts';
import { STREAM_WORDS } from './stream-words.ts';
import { ENGINE_WORDS } from './words.ts';
import { Answerer, carriesRunText } from './client-results.ts';
import type { WorkerStats } from './worker-stats.ts';

/** Sends one connection may have unwritten at once. Long polling and SSE send by HTTP POST and
 *  queue in the client while a POST hangs; past this, slots are counted as backed up instead. */
export const MAX_UNWRITTEN_SENDS = 64;
/** Bytes a WebSocket may hold unsent before slots are counted as backed up: WebSocket sends
 *  resolve at once, and the socket's buffer is where a stall piles up. */
export const MAX_BUFFERED_BYTES = 1_048_576;

/** A connection's sends handed to the client and not yet written, and the callback that counts one written. */
interface Unwritten {
  count: number;
  written: () => void;
}

/** One sending connection's lane of the schedule: what its slots send with. */
interface Lane {
  pooled: PooledConnection;
  spec: SendSpec;
  unwritten: Unwritten;
}

export interface RunnerContext {
  clock: Clock;
  timers: Timers;
  stats: WorkerStats;
  messageBytes: number;
  sendIntervalMs: number;
  /** Connections in the whole run: send offsets are spread evenly across the interval over all of them. */
  totalConnections: number;
  warmupSec: number;
  /** The run's id (core/execution/run-id.ts): in every payload header; a message with another is foreign. */
  runId: string;
  /** With several hub instances (core/run-config/hub-instances.ts): how many, and the receptions a sender's
   *  slots plan on each. Absent for one. */
  instances?: { count: number; recipients: (sender: number, localIndex: number, go: GoMessage) => number[] };
  /** Senders a connection hears, by run-wide index (ScenarioPlan.sendersHeardBy): sizes its duplicate window. */
  sendersHeardBy: (connectionIndex: number) => number;
  /** A timer per sending connection instead of the engine's one schedule: browsers, which clamp
   *  deeply nested timers to 4 ms (open-loop.ts LoopPerLane). Absent: one schedule. */
  timerPerConnection?: boolean;
  /** A REST scenario's sender (SendSpec.rest); absent otherwise. */
  rest?: RestSends;
}

export class ScenarioRunner {
  /** Every sending connection's open loop: one schedule with one timer (open-loop.ts LaneSchedule),
   *  or a timer each where the context asks for it (browsers). */
  #schedule: SendSchedule<Lane> | null = null;
  readonly #payload: PayloadBuilder;
  readonly #intervalUs: number;
  /** Before "go" the warm-up's end is unknown, but anything that arrives then is from the very
   *  start of the sends: warm-up if there is one. */
  #warmupEndUs: number;
  /** Receptions per hub instance that each sender's slots plan, with several instances. */
  readonly #perInstance = new Map<SendSpec, number[]>();
  /** The header being read: one object, reused for every received message. */
  readonly #header: FoundHeader = { sender: 0, seq: 0, sendLagUs: 0, plannedUs: 0, at: 0, headEnd: 0 };
  /** When sending begins (go.sendStartUs); until "go", later than anything. */
  #sendStartUs = Infinity;
  /** Calls without this run's text where the profile reads it, searched for it elsewhere so far (locateText). */
  #located = 0;
  /** Each connection's ledger, for receptions at the sender (deliver "return"). */
  readonly #ledgers = new Map<PooledConnection, ReceptionLedger>();
  /** Sends that are streams ({stream}, deliver "stream"): their items come back as receptions. */
  readonly #streams: StreamSends;
  /** Client results: each connection's answers; null without an answer in the profile. */
  readonly #answerer: Answerer | null;

  constructor(private readonly ctx: RunnerContext, private readonly scenario: Scenario) {
    this.#payload = new PayloadBuilder(ctx.messageBytes, ctx.runId);
    this.#intervalUs = ctx.sendIntervalMs * 1_000;
    this.#warmupEndUs = ctx.warmupSec > 0 ? Infinity : -Infinity;
    // A stream's item is read as a receive method's only argument.
    this.#streams = new StreamSends(ctx.stats, (pooled, item) => {
      if (!this.#receive(this.#ledgers.get(pooled)!, item, this.#instanceOf(pooled))) this.#textless([item], item);
    });
    this.#answerer = scenario.answer ? new Answerer(this.#payload, ctx.clock, scenario.answer.with) : null;
  }

  /** Receiving starts as each connection is built, before its connect (ConnectionPool's onBuilt),
   *  so nothing that arrives early is missed. */
  listen(pooled: PooledConnection): void {
    const receive = this.scenario.receive;
    const ledger = new ReceptionLedger({ expectedSenders: this.ctx.sendersHeardBy(pooled.index), windowSeqs: windowSeqsFor(this.ctx.sendIntervalMs) });
    const instance = this.#instanceOf(pooled);
    this.#ledgers.set(pooled, ledger);
    if (receive) {
      const read = receive.read;
      // The message is read here and passed on alone: arguments that never leave the handler
      // are never made into an array, where passed to #receive they were, for every call, once
      // V8 stopped inlining it (bench/RESULTS.md, "Receive path"). They leave only with a call
      // that holds no text (#textless).
      pooled.connection.on(receive.method, (...args) => {
        const message = read(args);
        if (!this.#receive(ledger, message, instance)) this.#textless(args, message);
      });
    }
    const answerer = this.#answerer;
    if (answerer) pooled.connection.answer(this.scenario.answer!.method, () => answerer.answer(pooled));
  }

  start(connections: readonly PooledConnection[], go: GoMessage): void {
    this.#warmupEndUs = go.warmupEndUs;
    this.#sendStartUs = go.sendStartUs;
    const onSlot = (lane: Lane, plannedUs: number, sendLagUs: number, seq: number) => this.#send(lane.pooled, lane.spec, lane.unwritten, plannedUs, sendLagUs, seq);
    const schedule: SendSchedule<Lane> = this.ctx.timerPerConnection
      ? new LoopPerLane<Lane>(this.ctx.clock, this.ctx.timers, this.#intervalUs, go.sendEndUs, onSlot)
      : new LaneSchedule<Lane>(this.ctx.clock, this.ctx.timers, this.#intervalUs, go.sendEndUs, onSlot);
    this.#schedule = schedule;
    // Connections that failed to open get a schedule too: their slots come due and count as not
    // sent, so a run that could not open what it planned never passes.
    connections.forEach((pooled, localIndex) => {
      const spec = this.scenario.sendSpec(pooled, localIndex, go);
      if (!spec) return;
      if (this.ctx.instances) this.#perInstance.set(spec, this.ctx.instances.recipients(pooled.index, localIndex, go));
      // Spreading first sends across the interval keeps the hub's load even instead of in bursts.
      const offsetUs = (pooled.index / this.ctx.totalConnections) * this.#intervalUs;
      const unwritten: Unwritten = { count: 0, written: () => unwritten.count-- };
      schedule.add({ pooled, spec, unwritten }, go.sendStartUs + offsetUs);
    });
    schedule.start();
  }

  /** Plans no send at or after `endUs` (the user's Stop); slots already due still go, late. */
  endAt(endUs: number): void {
    this.#schedule?.endAt(endUs);
  }

  /**
   * Stops every schedule now (the drain is over); messages in flight may still arrive. Slots
   * that came due and never fired because the client fell behind are counted as planned, not
   * sent and missed: a client too slow to send its plan must never pass for having planned less.
   * A run ended early because every connection closed (core/execution/coordinator.ts) stops before its
   * planned end: the slots left of a closed connection are planned and never sent for its
   * disconnection, as they would have been had the run waited for them, never the client's fault.
   * `stoppedEarly`: the run failed before its planned end (core/execution/coordinator.ts): what was left
   * is never sent for that failure, not for the client.
   */
  stop(stoppedEarly = false): void {
    this.#schedule?.stop(({ spec, pooled }, plannedUs) => {
      if (!this.#measured(plannedUs)) return;
      this.#plan(plannedUs, spec);
      if (spec.absent >= spec.recipients) return;
      if (pooled.state === 'closed' || pooled.state === 'failed') this.#notSent(true, plannedUs, 'disconnected', spec);
      else if (stoppedEarly) this.#notSent(true, plannedUs, 'runStopped', spec);
      else this.ctx.stats.recordUnfired(plannedUs, spec.recipients - spec.absent);
    });
    this.#streams.completeAll();
  }

  /**
   * One slot came due. Its receptions are planned whatever happens next (every planned message
   * counts): a slot that cannot be sent is counted with why, never silently skipped.
   */
  #send(pooled: PooledConnection, spec: SendSpec, unwritten: Unwritten, plannedUs: number, sendLagUs: number, seq: number): void {
    const stats = this.ctx.stats;
    const measured = this.#measured(plannedUs);
    if (measured) this.#plan(plannedUs, spec);
    // Nobody to send to (a target that never opened, a group none of whose members joined).
    if (spec.absent >= spec.recipients) return;
    if (pooled.state === 'reconnecting') {
      this.#notSent(measured, plannedUs, 'reconnecting', spec);
      stats.recordError('send', ENGINE_WORDS.notSentReconnecting({ method: spec.method }));
      return;
    }
    if (pooled.state !== 'open') {
      // Closed during the run, or never opened: its slots still came due.
      this.#notSent(measured, plannedUs, 'disconnected', spec);
      return;
    }
    if (unwritten.count >= MAX_UNWRITTEN_SENDS || pooled.connection.bufferedBytes() > MAX_BUFFERED_BYTES) {
      this.#notSent(measured, plannedUs, 'backedUp', spec);
      stats.recordBackedUp();
      return;
    }
    const timeUs = Math.round(plannedUs);
    const payload = this.#payload.build({ sender: pooled.index, seq, sendLagUs, plannedUs: timeUs });
    if (measured) stats.recordSend(sendLagUs, this.#intervalUs);
    // An item of the connection's stream: the client takes it at once (it tells of no item's write).
    if (spec.uploads) return this.#streams.write(pooled, spec, payload);
    unwritten.count++;
    // A REST API call (a REST scenario): in flight until answered; a refusal was never sent, a 5xx or no answer may have been.
    if (spec.rest !== undefined) {
      return this.ctx.rest!.send(spec.rest, spec.method, spec.args(timeUs, payload), unwritten.written, (maySent, said) => {
        unwritten.count--;
        if (!maySent) this.#notSent(measured, plannedUs, 'writeFailed', spec);
        stats.recordError('send', said);
      });
    }
    const failed = (error: unknown) => {
      unwritten.count--;
      const said = error instanceof Error ? error.message : String(error);
      // Never written (or, invoked, refused by the hub): nothing of it can arrive. A client result
      // or a streaming call the hub took and then failed (no answer, the hub threw) was sent: lost.
      if (!((spec.answered || spec.streamsBack) && !NOT_CONNECTED.test(said))) this.#notSent(measured, plannedUs, 'writeFailed', spec);
      const unanswered = spec.answered ? STREAM_WORDS.unanswered(said, this.scenario.answer!.method) : '';
      stats.recordError('send', `${spec.method} ${spec.awaitsReturn || spec.streamsBack ? 'failed' : 'could not be sent'}: ${said}${unanswered}`);
    };
    if (spec.streamsBack) {
      // In flight until its stream completes, as an invocation until its completion.
      this.#streams.slot(pooled, spec, spec.args(timeUs, payload), { completed: unwritten.written, failed });
      return;
    }
    if (spec.awaitsReturn) {
      // Until it completes the call is unwritten too: at most MAX_UNWRITTEN_SENDS in flight.
      pooled.connection.invoke(spec.method, ...spec.args(timeUs, payload)).then((value) => {
        unwritten.count--;
        if (spec.answered) this.#answered(pooled, value, seq, timeUs, sendLagUs);
        else this.#returned(pooled, value, seq, timeUs, sendLagUs);
      }, failed);
      return;
    }
    // One reaction per send (the success path's function is the connection's own): this runs
    // thousands of times a second.
    pooled.connection.send(spec.method, ...spec.args(timeUs, payload)).then(unwritten.written, failed);
  }

  /** Receivers measure by the planned time as it travels (whole µs): the sender decides with the
   *  same figure, or a slot a fraction of a µs before the warm-up's end would arrive unplanned. */
  #measured(plannedUs: number): boolean {
    return Math.round(plannedUs) >= this.#warmupEndUs;
  }

  /** A measured slot came due: every configured receiver is planned; the absent ones are never sent. */
  #plan(plannedUs: number, spec: SendSpec): void {
    this.ctx.stats.recordSlot(plannedUs, spec.recipients, this.#perInstance.get(spec));
    if (spec.absent > 0) this.ctx.stats.recordNotSent(plannedUs, 'receiverAbsent', spec.absent);
  }

  /** A slot not sent: its receptions owed to present receivers get the reason (the absent ones have theirs). */
  #notSent(measured: boolean, plannedUs: number, reason: NotSentReason, spec: SendSpec): void {
    if (measured) this.ctx.stats.recordNotSent(plannedUs, reason, spec.recipients - spec.absent);
  }

  /**
   * Calls the profile's methods once (its join, then its send, on the first open connection) and
   * says plainly when the hub does not have one. Returns null when the hub accepted the calls (or
   * no connection is open to ask, or it closed while asking), else why it refused, naming the method, worded for people:
   * the run cannot measure anything then.
   */
  async probe(connections: readonly PooledConnection[], endpointUrl: string, skipNegotiation = false): Promise<string | null> {
    const first = connections.find((c) => c.state === 'open');
    if (!first) return null;
    // The header alone: a probe checks the method, and must not meet the hub's size limit before the run does.
    const probeMessage = new PayloadBuilder(0, this.ctx.runId).build({ sender: first.index, seq: 0, sendLagUs: 0, plannedUs: PROBE_TS });
    for (const call of this.scenario.probe(first)) {
      const { method, role } = call;
      try {
        const verdict = await probeCall(first.connection, call, probeMessage, PROBE_TS, this.ctx.timers);
        if (verdict) {
          const refusal = STREAM_WORDS[verdict.problem](endpointUrl, method, verdict.first, this.scenario.profile.name);
          this.ctx.stats.recordError('protocol', refusal);
          return refusal;
        }
      } catch (error) {
        // The connection closed under the call (a hub that stalled until the client's server
        // timeout, or died): nothing was learned about the method, and the close is counted.
        if (first.state !== 'open') return null;
        // A join the hub ran and refused (a limit, a full room) is this connection's; prepare
        // counts it. A call the hub could not bind (no such method, arguments that do not fit) is
        // the profile's, and no connection would do better.
        // So is a client result the hub ran and failed (nobody answered): the run counts it lost.
        if ((role === 'join' || call.bindOnly) && !CANNOT_BIND.test(error instanceof Error ? error.message : String(error))) continue;
        // The client's messages often end with a full stop already ("Method does not exist."): one is enough.
        const said = (error instanceof Error ? error.message : String(error)).replace(/\.+\s*$/, '');
        const profile = this.scenario.profile;
        const advice = this.scenario.builtIn
          ? ENGINE_WORDS.needsContract()
          : ENGINE_WORDS.checkProfileMethod({ profile: profile.name, role, method, args: profile[role]!.args.map((a) => JSON.stringify(a)).join(', ') });
        // An app server whose hubs run through Azure SignalR Service accepts a WebSocket opened
        // without negotiate, then fails every call that sends: the service never saw the connection.
        const unnegotiated = skipNegotiation && !CANNOT_BIND.test(said) && !/Method does not exist/i.test(said)
          ? ENGINE_WORDS.unnegotiated({ needsNegotiation: NEEDS_NEGOTIATION })
          : '';
        const refusal = ENGINE_WORDS.methodRefused({ endpointUrl, method, said, unnegotiated, advice });
        this.ctx.stats.recordError('protocol', refusal);
        return refusal;
      }
    }
    return null;
  }

  /**
   * Asks the hub whether it will abort connections on request (the hub-sample's DropAvailable,
   * on only with --EnableServerDrops true). Null when it will; else why not, for people.
   */
  async probeServerDrops(connections: readonly PooledConnection[], endpointUrl: string): Promise<string | null> {
    const first = connections.find((c) => c.state === 'open');
    if (!first) return null;
    try {
      await first.connection.invoke('DropAvailable');
      return null;
    } catch (error) {
      const refusal = ENGINE_WORDS.noServerDrops({ endpointUrl, error });
      this.ctx.stats.recordError('protocol', refusal);
      return refusal;
    }
  }

  /** The hub instance a connection is on (0 with one). */
  #instanceOf(pooled: PooledConnection): number {
    return this.ctx.instances ? instanceOf(pooled.index, this.ctx.instances.count) : 0;
  }

  /**
   * A call of the receive method, by the message the profile reads in it: read in place, never
   * kept. The tool's text is found wherever the hub put it in that string (payload.ts
   * findPayloadHeader: as sent, or wrapped in the hub's own words); a text the hub cut or changed
   * arrives altered. False when it holds no text of any run: the caller counts the call with its
   * arguments (#textless).
   */
  #receive(ledger: ReceptionLedger, message: unknown, instance: number): boolean {
    const nowUs = this.ctx.clock.nowUs();
    const stats = this.ctx.stats;
    stats.recordReceiveCall();
    const header = this.#header;
    const match = findPayloadHeader(message, this.ctx.runId, header);
    // Not the tool's message at all (a welcome message, another client's line): counted apart.
    if (match === 'none') return false;
    // Another run on the same hub: never an arrival, never a duplicate (its probe is not even that).
    if (match === 'foreign') {
      if (header.plannedUs !== PROBE_TS) stats.recordForeign();
      return true;
    }
    this.#arrived(ledger, header.sender, header.seq, header.plannedUs, header.sendLagUs, nowUs, instance, textIntact(message as string, header, this.ctx.messageBytes));
    return true;
  }

  /**
   * A call without a text of any run where the profile reads it: unsolicited, and kept apart for
   * naming a profile that reads the wrong place (core/execution/coordinator.ts textNotFound): what the
   * first such call carried there (and the first while sending: a hub's welcome message comes
   * before), and where this run's text was in the call instead, looked for in the first
   * {@link MAX_LOCATED} only (a hub's own messages may keep coming all run long).
   */
  #textless(args: readonly unknown[], message: unknown): void {
    const stats = this.ctx.stats;
    stats.recordUnsolicited();
    const whileSending = this.ctx.clock.nowUs() >= this.#sendStartUs;
    const known = stats.textless;
    const sample = known === null || (whileSending && known.whileSending === 0) ? callSample(message ?? args, stats.scrub) : null;
    const look = (known?.foundAt ?? null) === null && this.#located < MAX_LOCATED;
    if (look) this.#located++;
    stats.recordTextless(whileSending, sample, look ? locateText(args, this.ctx.runId) : null);
  }

  /** A "return" call completed: its value is the reception, when it is the message sent (a
   *  string must carry it, as sent or wrapped: "Echo: " + message; a string that does not is
   *  counted as unsolicited, and the reception stays missing). */
  #returned(pooled: PooledConnection, value: unknown, seq: number, plannedUs: number, sendLagUs: number): void {
    const nowUs = this.ctx.clock.nowUs();
    let intact = true;
    if (typeof value === 'string') {
      const header = this.#header;
      if (findPayloadHeader(value, this.ctx.runId, header) !== 'ours' || header.sender !== pooled.index || header.seq !== seq) return this.ctx.stats.recordUnsolicited();
      intact = textIntact(value, header, this.ctx.messageBytes);
    }
    this.#arrived(this.#ledgers.get(pooled)!, pooled.index, seq, plannedUs, sendLagUs, nowUs, this.#instanceOf(pooled), intact);
  }

  /** A client result's call completed: the reception of the caller's slot when its value carries
   *  an answer of this run (wherever the hub put it), latency from the planned send; a value
   *  without one is counted as unsolicited, and the reception stays missing. */
  #answered(pooled: PooledConnection, value: unknown, seq: number, plannedUs: number, sendLagUs: number): void {
    const nowUs = this.ctx.clock.nowUs();
    if (!carriesRunText(value, this.ctx.runId)) return this.ctx.stats.recordUnsolicited();
    this.#arrived(this.#ledgers.get(pooled)!, pooled.index, seq, plannedUs, sendLagUs, nowUs, this.#instanceOf(pooled));
  }

  /** A reception of this run's text: new (and altered, when the hub cut or changed the text), a duplicate, or too old to tell. */
  #arrived(ledger: ReceptionLedger, sender: number, seq: number, plannedUs: number, sendLagUs: number, nowUs: number, instance: number, intact = true): void {
    if (plannedUs === PROBE_TS || plannedUs < this.#warmupEndUs) return;
    const outcome = ledger.record(sender, seq);
    if (outcome === 'duplicate') this.ctx.stats.recordDuplicate();
    else if (outcome === 'stale') this.ctx.stats.recordStale();
    else {
      this.ctx.stats.recordReceive(plannedUs, nowUs, sendLagUs, instance);
      if (!intact) this.ctx.stats.recordAltered();
    }
  }

  /** The profile's leave on every open connection, waited for at most `waitMs`. */
  async leave(connections: readonly PooledConnection[], waitMs: number): Promise<void> {
    if (!this.scenario.leave) return;
    let timer: unknown = null;
    await Promise.race([this.scenario.leave(connections), new Promise<void>((resolve) => (timer = this.ctx.timers.setTimeout(() => resolve(), waitMs)))]);
    this.ctx.timers.clearTimeout(timer);
  }
}

/** Calls without this run's text where the profile reads it that are searched for it elsewhere
 *  (every argument, every member): enough to find a profile's wrong place, bounded for a hub
 *  whose own messages keep coming. */
const MAX_LOCATED = 32;

/** How the SignalR server answers a call it cannot bind to a hub method ("Failed to invoke 'X'
 *  due to an error on the server. HubException: Method does not exist."), unlike a method that
 *  ran and threw ("An unexpected error occurred invoking 'X' on the server."). */
const CANNOT_BIND = /Failed to invoke/;

/** How the client refuses a call on a connection that is not open: nothing was written. */
const NOT_CONNECTED = /not in the 'Connected' State/;
