/**
 * Runs a scenario on a worker's open connections: one open-loop schedule per sending
 * connection, and, on every connection, the accounting of what arrives on the profile's receive
 * method (new, duplicated, too old to tell, foreign: another run's, or unsolicited: not the
 * tool's at all, such as a hub's welcome message or another client's chat line), measured from
 * the planned send time the message carries. With deliver "return" the reception is the
 * invocation's completion, at the sender. Warm-up messages are sent and received but left out
 * of every figure.
 *
 * A slot plans what the configuration says (every configured receiver, SendSpec.recipients),
 * whatever opened or joined: the receivers absent at "go" are counted as never sent for
 * "receiverAbsent", the rest are sent or counted unsent for a reason of their own. So `planned`
 * is what the arguments say, and a run whose receivers could not connect never passes.
 */
import type { Clock, Timers } from '../../core/clocks/index.ts';
import { instanceOf, NEEDS_NEGOTIATION, type NotSentReason, type GoMessage } from '../../core/run/index.ts';
import { PayloadBuilder, readPayloadHeader, type HeaderNumbers } from './payload.ts';
import { ReceptionLedger, windowSeqsFor } from './reception-ledger.ts';
import { PROBE_TS, type Scenario, type SendSpec } from '../scenarios/scenario.ts';
import type { PooledConnection } from './connection-pool.ts';
import { OpenLoop } from './open-loop.ts';
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

export interface RunnerContext {
  clock: Clock;
  timers: Timers;
  stats: WorkerStats;
  messageBytes: number;
  sendIntervalMs: number;
  /** Connections in the whole run: send offsets are spread evenly across the interval over all of them. */
  totalConnections: number;
  warmupSec: number;
  /** The run's id (core/run/id.ts): in every payload header; a message with another is foreign. */
  runId: string;
  /** Encoded size in bytes of a hub call (method + arguments) in the run's protocol. */
  encodedBytes: (method: string, args: unknown[]) => number;
  /** With several hub instances (core/run/instances.ts): how many, and the receptions a sender's
   *  slots plan on each. Absent for one. */
  instances?: { count: number; recipients: (sender: number, localIndex: number, go: GoMessage) => number[] };
  /** Senders a connection hears, by run-wide index (ScenarioPlan.sendersHeardBy): sizes its duplicate window. */
  sendersHeardBy: (connectionIndex: number) => number;
}

export class ScenarioRunner {
  readonly #loops: { loop: OpenLoop; spec: SendSpec; pooled: PooledConnection }[] = [];
  readonly #payload: PayloadBuilder;
  readonly #intervalUs: number;
  /** Before "go" the warm-up's end is unknown, but anything that arrives then is from the very
   *  start of the sends: warm-up if there is one. */
  #warmupEndUs: number;
  /** Encoded size of one delivery, estimated once for every message of a run: the message at its
   *  argument of the receive method, a number of a timestamp's size before it (the bundled
   *  contract's Measure(ts, payload) exactly). */
  readonly #deliveryBytes: number;
  /** Receptions per hub instance that each sender's slots plan, with several instances. */
  readonly #perInstance = new Map<SendSpec, number[]>();
  /** The numbers of the header being read: one object, reused for every received message. */
  readonly #header: HeaderNumbers = { sender: 0, seq: 0, sendLagUs: 0, plannedUs: 0 };
  /** Each connection's ledger, for receptions at the sender (deliver "return"). */
  readonly #ledgers = new Map<PooledConnection, ReceptionLedger>();

  constructor(private readonly ctx: RunnerContext, private readonly scenario: Scenario) {
    this.#payload = new PayloadBuilder(ctx.messageBytes, ctx.runId);
    this.#intervalUs = ctx.sendIntervalMs * 1_000;
    this.#warmupEndUs = ctx.warmupSec > 0 ? Infinity : -Infinity;
    const sample = this.#payload.build({ sender: 0, seq: 0, sendLagUs: 0, plannedUs: sampleTs() });
    const receive = scenario.profile.receive;
    this.#deliveryBytes = receive ? ctx.encodedBytes(receive.method, deliverySample(receive.arg, sample)) : ctx.encodedBytes(scenario.profile.send.method, [sample]);
  }

  /** Receiving starts now (before "go" and before connecting), so nothing that arrives early is missed. */
  listen(connections: readonly PooledConnection[]): void {
    const receive = this.scenario.receive;
    for (const pooled of connections) {
      const ledger = new ReceptionLedger({ expectedSenders: this.ctx.sendersHeardBy(pooled.index), windowSeqs: windowSeqsFor(this.ctx.sendIntervalMs) });
      const instance = this.#instanceOf(pooled);
      this.#ledgers.set(pooled, ledger);
      if (receive) pooled.connection.on(receive.method, (...args) => this.#receive(ledger, receive.read(args), instance));
    }
  }

  start(connections: readonly PooledConnection[], go: GoMessage): void {
    this.#warmupEndUs = go.warmupEndUs;
    // Connections that failed to open get a schedule too: their slots come due and count as not
    // sent, so a run that could not open what it planned never passes.
    connections.forEach((pooled, localIndex) => {
      const spec = this.scenario.sendSpec(pooled, localIndex, go);
      if (!spec) return;
      if (this.ctx.instances) this.#perInstance.set(spec, this.ctx.instances.recipients(pooled.index, localIndex, go));
      const sendBytes = this.ctx.encodedBytes(spec.method, spec.args(sampleTs(), this.#payload.build({ sender: pooled.index, seq: 0, sendLagUs: 0, plannedUs: sampleTs() })));
      // Spreading first sends across the interval keeps the hub's load even instead of in bursts.
      const offsetUs = (pooled.index / this.ctx.totalConnections) * this.#intervalUs;
      const unwritten: Unwritten = { count: 0, written: () => unwritten.count-- };
      const loop = new OpenLoop(this.ctx.clock, this.ctx.timers, go.sendStartUs + offsetUs, this.#intervalUs, go.sendEndUs,
        (plannedUs, sendLagUs, seq) => this.#send(pooled, spec, sendBytes, unwritten, plannedUs, sendLagUs, seq));
      this.#loops.push({ loop, spec, pooled });
      loop.start();
    });
  }

  /** Plans no send at or after `endUs` (the user's Stop); slots already due still go, late. */
  endAt(endUs: number): void {
    for (const { loop } of this.#loops) loop.endAt(endUs);
  }

  /**
   * Stops every schedule now (the drain is over); messages in flight may still arrive. Slots
   * that came due and never fired because the client fell behind are counted as planned, not
   * sent and missed: a client too slow to send its plan must never pass for having planned less.
   * A run ended early because every connection closed (core/run/coordinator.ts) stops before its
   * planned end: the slots left of a closed connection are planned and never sent for its
   * disconnection, as they would have been had the run waited for them, never the client's fault.
   */
  stop(): void {
    for (const { loop, spec, pooled } of this.#loops) {
      for (const plannedUs of loop.stop()) {
        if (!this.#measured(plannedUs)) continue;
        this.#plan(plannedUs, spec);
        if (spec.absent >= spec.recipients) continue;
        if (pooled.state === 'closed' || pooled.state === 'failed') this.#notSent(true, plannedUs, 'disconnected', spec);
        else this.ctx.stats.recordUnfired(plannedUs, spec.recipients - spec.absent);
      }
    }
  }

  /**
   * One slot came due. Its receptions are planned whatever happens next (every planned message
   * counts): a slot that cannot be sent is counted with why, never silently skipped.
   */
  #send(pooled: PooledConnection, spec: SendSpec, sendBytes: number, unwritten: Unwritten, plannedUs: number, sendLagUs: number, seq: number): void {
    const stats = this.ctx.stats;
    const measured = this.#measured(plannedUs);
    if (measured) this.#plan(plannedUs, spec);
    // Nobody to send to (a target that never opened, a group none of whose members joined).
    if (spec.absent >= spec.recipients) return;
    if (pooled.state === 'reconnecting') {
      this.#notSent(measured, plannedUs, 'reconnecting', spec);
      stats.recordError('send', `${spec.method} not sent: the connection was reconnecting.`);
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
    if (measured) stats.recordSend(sendLagUs, this.#intervalUs, sendBytes);
    unwritten.count++;
    const failed = (error: unknown) => {
      unwritten.count--;
      // Never written (or, invoked, refused by the hub): nothing of it can arrive.
      this.#notSent(measured, plannedUs, 'writeFailed', spec);
      stats.recordError('send', `${spec.method} ${spec.awaitsReturn ? 'failed' : 'could not be sent'}: ${error instanceof Error ? error.message : String(error)}`);
    };
    if (spec.awaitsReturn) {
      // Until it completes the call is unwritten too: at most MAX_UNWRITTEN_SENDS in flight.
      pooled.connection.invoke(spec.method, ...spec.args(timeUs, payload)).then((value) => {
        unwritten.count--;
        this.#returned(pooled, value, seq, timeUs, sendLagUs);
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
    for (const { method, args, role } of this.scenario.probe(first)) {
      try {
        await first.connection.invoke(method, ...args(PROBE_TS, probeMessage));
      } catch (error) {
        // The connection closed under the call (a hub that stalled until the client's server
        // timeout, or died): nothing was learned about the method, and the close is counted.
        if (first.state !== 'open') return null;
        // A join the hub ran and refused (a limit, a full room) is this connection's; prepare
        // counts it. A call the hub could not bind (no such method, arguments that do not fit) is
        // the profile's, and no connection would do better.
        if (role === 'join' && !CANNOT_BIND.test(error instanceof Error ? error.message : String(error))) continue;
        // The client's messages often end with a full stop already ("Method does not exist."): one is enough.
        const said = (error instanceof Error ? error.message : String(error)).replace(/\.+\s*$/, '');
        const profile = this.scenario.profile;
        const advice = this.scenario.builtIn
          ? 'This tool needs the benchmark contract (Echo, Broadcast, GroupBroadcast, SendToConnection, JoinGroup, LeaveGroup, delivering Measure(ts, payload)): point the endpoint at the hub-sample or a hub with the same methods, or give a hub profile that maps the scenario onto this hub\'s own methods.'
          : `The hub profile "${profile.name}" ${role === 'join' ? 'joins' : 'sends'} with ${method}: check the hub's method names and their arguments (${method}(${profile[role]!.args.map((a) => JSON.stringify(a)).join(', ')})) against the profile.`;
        // An app server whose hubs run through Azure SignalR Service accepts a WebSocket opened
        // without negotiate, then fails every call that sends: the service never saw the connection.
        const unnegotiated = skipNegotiation && !CANNOT_BIND.test(said) && !/Method does not exist/i.test(said)
          ? `With negotiation skipped, a hub that runs through Azure SignalR Service accepts the WebSocket on its app server but cannot send over it: ${NEEDS_NEGOTIATION}. Otherwise: `
          : '';
        const refusal = `The hub at ${endpointUrl} did not accept ${method}(…): ${said}. ${unnegotiated}${advice}`;
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
      const refusal = `The hub at ${endpointUrl} cannot drop connections on request (${error instanceof Error ? error.message : String(error)}). ` +
        'Server drops need the hub-sample started with --EnableServerDrops true; for any other hub choose a network drop.';
      this.ctx.stats.recordError('protocol', refusal);
      return refusal;
    }
  }

  /** The hub instance a connection is on (0 with one). */
  #instanceOf(pooled: PooledConnection): number {
    return this.ctx.instances ? instanceOf(pooled.index, this.ctx.instances.count) : 0;
  }

  /** A call of the receive method: its message is read in place, never kept. */
  #receive(ledger: ReceptionLedger, message: unknown, instance: number): void {
    const nowUs = this.ctx.clock.nowUs();
    const match = readPayloadHeader(message, this.ctx.runId, this.#header);
    // Not the tool's message at all (a welcome message, another client's line): counted apart.
    if (match === 'none') return this.ctx.stats.recordUnsolicited();
    // Another run on the same hub: never an arrival, never a duplicate (its probe is not even that).
    if (match === 'foreign') return this.#header.plannedUs === PROBE_TS ? undefined : this.ctx.stats.recordForeign();
    this.#arrived(ledger, this.#header.sender, this.#header.seq, this.#header.plannedUs, this.#header.sendLagUs, nowUs, instance);
  }

  /** A "return" call completed: its value is the reception, when it is the message sent (a
   *  string that is not is counted as unsolicited, and the reception stays missing). */
  #returned(pooled: PooledConnection, value: unknown, seq: number, plannedUs: number, sendLagUs: number): void {
    const nowUs = this.ctx.clock.nowUs();
    if (typeof value === 'string') {
      const header = this.#header;
      if (readPayloadHeader(value, this.ctx.runId, header) !== 'ours' || header.sender !== pooled.index || header.seq !== seq) return this.ctx.stats.recordUnsolicited();
    }
    this.#arrived(this.#ledgers.get(pooled)!, pooled.index, seq, plannedUs, sendLagUs, nowUs, this.#instanceOf(pooled));
  }

  #arrived(ledger: ReceptionLedger, sender: number, seq: number, plannedUs: number, sendLagUs: number, nowUs: number, instance: number): void {
    if (plannedUs === PROBE_TS || plannedUs < this.#warmupEndUs) return;
    const outcome = ledger.record(sender, seq);
    if (outcome === 'duplicate') this.ctx.stats.recordDuplicate();
    else if (outcome === 'stale') this.ctx.stats.recordStale();
    else this.ctx.stats.recordReceive(plannedUs, nowUs, sendLagUs, this.#deliveryBytes, instance);
  }

  /** The profile's leave on every open connection, waited for at most `waitMs`. */
  async leave(connections: readonly PooledConnection[], waitMs: number): Promise<void> {
    if (!this.scenario.leave) return;
    let timer: unknown = null;
    await Promise.race([this.scenario.leave(connections), new Promise<void>((resolve) => (timer = this.ctx.timers.setTimeout(() => resolve(), waitMs)))]);
    this.ctx.timers.clearTimeout(timer);
  }
}

/** A delivery's arguments for sizing: the message at its argument (or inside an object there),
 *  a timestamp-sized number before it. */
function deliverySample(arg: number | string, message: string): unknown[] {
  const [index, ...keys] = String(arg).split('.');
  const inner = keys.reduceRight<unknown>((value, key) => ({ [key]: value }), message);
  return [...new Array<number>(Number(index)).fill(sampleTs()), inner];
}

/** How the SignalR server answers a call it cannot bind to a hub method ("Failed to invoke 'X'
 *  due to an error on the server. HubException: Method does not exist."), unlike a method that
 *  ran and threw ("An unexpected error occurred invoking 'X' on the server."). */
const CANNOT_BIND = /Failed to invoke/;

/** A timestamp of today's size (16 digits), for sizing encoded messages. */
function sampleTs(): number {
  return 1_700_000_000_000_000;
}
