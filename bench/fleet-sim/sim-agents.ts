/**
 * The fleet simulator's agents (bench only, never the product): N agents in one Node process,
 * each on its own connection to the real control hub, joined to a real headless lead's session
 * exactly as `live-bench --agent` joins (the same introduction, the session's secret, the same
 * pieces), answering its clock rounds and running the threads it starts, but with no benchmark
 * connection behind them. Each thread reports what a real engine reports, the same message, once
 * a second on the run's time base (workers/engine/bench-engine.ts): its interval histograms,
 * counters, fates by planned second and run totals. The counts are synthetic but exact: each
 * second's fates are what the configuration plans for the thread's share
 * (core/accounting/planned-receptions.ts), every one of them arrived under 1 s, so the lead's
 * merged totals must equal the configuration's plan to the message.
 *
 * The histograms have the size of a real thread's: a template drawn once from a log-normal
 * latency (median SIM_LATENCY_MEDIAN_US), its bucket counts scaled to each second's receptions.
 *
 *   node sim-agents.mjs --control URL --session CODE --secret S --agents N [--threads 2] --out FILE
 *
 * It writes FILE (JSON) when every agent has left: when each thread got start and go (the start
 * barrier's spread), the clock pings answered, and the messages and bytes each way.
 */
import { writeFileSync } from 'node:fs';
import { openControlConnection, type ControlConnection } from '../../signalr/control-connection.ts';
import type { AgentInfo, ToAgent, FromAgent } from '../../core/fleet/index.ts';
import { PieceJoiner, toPieces } from '../../core/fleet/pieces.ts';
import { plannedOfShare } from '../../core/accounting/index.ts';
import { createLatencyHistogram, postHistogram } from '../../core/latency/index.ts';
import { emptyDropTotals } from '../../core/drops/index.ts';
import { emptyErrorCounts, emptyTotals, runNeedsConnectionIds, type FromWorker, type GoMessage, type StartMessage, type WorkerTotals } from '../../core/execution/index.ts';

const args = process.argv.slice(2);
const option = (name: string, fallback?: string): string => {
  const at = args.indexOf(name);
  if (at >= 0 && args[at + 1] !== undefined) return args[at + 1]!;
  if (fallback === undefined) throw new Error(`${name} is required`);
  return fallback;
};
const CONTROL_URL = option('--control');
const SESSION = option('--session');
const SECRET = option('--secret');
const AGENTS = Number(option('--agents'));
const THREADS = Number(option('--threads', '2'));
const OUT = option('--out');
/** The number of this process's first agent, when several processes share the fleet. */
const FIRST = Number(option('--first', '0'));
/** Joins in flight at once: the control hub closes connections past MaxControlOutsiders. */
const JOIN_CONCURRENCY = 16;

const nowUs = () => (performance.timeOrigin + performance.now()) * 1_000;

/** Latency of the synthetic receptions: a log-normal around a local hub's few milliseconds. */
const SIM_LATENCY_MEDIAN_US = 4_000;
const SIM_LATENCY_SIGMA = 0.8;
const TEMPLATE_SAMPLES = 20_000;

/** Bucket indices and their share of the template's samples, drawn once. */
function template(medianUs: number): { indices: number[]; weights: number[] } {
  const histogram = createLatencyHistogram();
  for (let i = 0; i < TEMPLATE_SAMPLES; i++) {
    const normal = Math.sqrt(-2 * Math.log(1 - Math.random())) * Math.cos(2 * Math.PI * Math.random());
    histogram.recordValue(Math.max(1, Math.round(medianUs * Math.exp(SIM_LATENCY_SIGMA * normal))));
  }
  const posted = postHistogram(histogram);
  const indices: number[] = [];
  const weights: number[] = [];
  for (let i = 0; i < posted.length; i += 2) {
    indices.push(posted[i]!);
    weights.push(posted[i + 1]! / TEMPLATE_SAMPLES);
  }
  return { indices, weights };
}
const LATENCY = template(SIM_LATENCY_MEDIAN_US);
const UNCORRECTED = template(SIM_LATENCY_MEDIAN_US * 0.9);
const CONNECT = template(30_000);

/** `count` samples spread over the template's buckets (largest remainder), posted as the engine posts. */
function scaled({ indices, weights }: { indices: number[]; weights: number[] }, count: number): number[] {
  if (count === 0) return [];
  const exact = weights.map((w) => w * count);
  const whole = exact.map(Math.floor);
  let left = count - whole.reduce((a, b) => a + b, 0);
  const order = exact.map((x, i) => [x - whole[i]!, i] as const).sort((a, b) => b[0] - a[0]);
  for (let k = 0; left > 0; k = (k + 1) % order.length, left--) whole[order[k]![1]]!++;
  const posted: number[] = [];
  whole.forEach((n, i) => n > 0 && posted.push(indices[i]!, n));
  return posted;
}

interface Tally {
  messagesUp: number;
  bytesUp: number;
  messagesDown: number;
  bytesDown: number;
}
const tally: Tally = { messagesUp: 0, bytesUp: 0, messagesDown: 0, bytesDown: 0 };
/** When each thread got start and go, epoch µs (the start barrier); the run's time base. */
const startsUs: number[] = [];
const gosUs: number[] = [];
let runStartUs = 0;
let sendStartUs = 0;
let clockPings = 0;
/** The last agent's join, the first start message, the last final report and the last "run-over",
 *  epoch µs: the lead's clock rounds before the run and after it. */
let firstStartUs = 0;
let lastFinalUs = 0;
let lastRunOverUs = 0;
/** second → when the last thread sent its report of it, epoch µs: the simulator's own lateness,
 *  told apart from the relay's and the lead's. */
const sentBySecond = new Map<number, number>();
/** When each agent had joined (JoinSession answered), epoch µs. */
const joinedUs: number[] = [];
/** The clock offsets the lead measured for the agents (all on this machine's one clock). */
const offsetsUs: number[] = [];
/** What the threads reported in all, to check against the lead's merged totals. */
const reported = { planned: 0, sent: 0, received: 0, snapshots: 0, snapshotBytes: 0, largestSnapshot: 0 };

/** One agent thread: an engine's messages, without an engine. */
class SimThread {
  #start: StartMessage | null = null;
  #plan = new Map<number, number>();
  #second = 0;
  #timer: ReturnType<typeof setTimeout> | null = null;
  #totals: WorkerTotals = emptyTotals();
  #done = false;

  constructor(private readonly post: (message: FromWorker) => void, private readonly offsetUs: () => number) {}

  start(message: StartMessage): void {
    this.#start = message;
    // As the engine: ids only where the run reads them (send to connection, deliveries to users).
    const ids = runNeedsConnectionIds(message.config) ? Array.from({ length: message.share.count }, (_, i) => `sim-${message.workerIndex}-${i}-${Math.random().toString(36).slice(2, 12)}`) : [];
    this.#totals.connectionsOpened = message.share.count;
    this.post({ type: 'ready', workerIndex: message.workerIndex, connectionsOpen: message.share.count, connectionsFailed: 0, connectionIds: ids, groupMembers: [], refusal: null });
    this.#schedule();
  }

  go(message: GoMessage): void {
    const start = this.#start!;
    this.#plan = plannedOfShare(start.config, start.share, { runStartUs: start.runStartUs, sendStartUs: message.sendStartUs, sendEndUs: message.sendEndUs, warmupEndUs: message.warmupEndUs });
  }

  finish(): void {
    if (this.#done) return;
    if (this.#timer) clearTimeout(this.#timer);
    this.#second++;
    this.#report(true);
    this.#done = true;
    lastFinalUs = Math.max(lastFinalUs, nowUs());
  }

  /** The next report at the run's next whole second, on this agent's clock (the lead's plus its offset). */
  #schedule(): void {
    const dueUs = this.#start!.runStartUs + this.offsetUs() + (this.#second + 1) * 1_000_000;
    this.#timer = setTimeout(() => {
      this.#second++;
      this.#report(false, Math.max(0, (nowUs() - dueUs) / 1_000));
      if (!this.#done) this.#schedule();
    }, Math.max(0, (dueUs - nowUs()) / 1_000));
  }

  #report(final: boolean, lagMs = 0): void {
    const start = this.#start!;
    // Every planned second reported so far; the final report takes whatever is left.
    const seconds = [...this.#plan.keys()].filter((s) => final || s <= this.#second);
    const fates = seconds.map((second) => {
      const planned = this.#plan.get(second)!;
      this.#plan.delete(second);
      return { second, planned, underOneSecond: planned, late: 0, afterDrain: 0, notSent: { backedUp: 0, reconnecting: 0, writeFailed: 0, disconnected: 0, clientBehind: 0, receiverAbsent: 0, workerLost: 0, runStopped: 0 }, lost: null };
    });
    const count = fates.reduce((sum, f) => sum + f.planned, 0);
    // Echo: one send per reception, each carrying the configured payload both ways.
    const bytes = count * (start.config.messageBytes + 120);
    this.#totals.sent += count;
    this.#totals.received += count;
    this.#totals.sentBytes += bytes;
    this.#totals.receivedBytes += bytes;
    this.#totals.receiveCalls += count;
    reported.planned += count;
    reported.sent += count;
    reported.received += count;
    reported.snapshots++;
    if (!final) sentBySecond.set(this.#second, Math.max(sentBySecond.get(this.#second) ?? 0, nowUs()));
    this.post({
      type: 'snapshot',
      workerIndex: start.workerIndex,
      phase: final ? 'done' : 'running',
      second: this.#second,
      final,
      latencyHistogram: scaled(LATENCY, count),
      uncorrectedHistogram: scaled(UNCORRECTED, count),
      connectHistogram: this.#second === 1 ? scaled(CONNECT, start.share.count) : [],
      reconnectHistogram: [],
      drops: { totals: emptyDropTotals(), back: 0, dropped: 0 },
      interval: { sent: count, received: count, sentBytes: bytes, receivedBytes: bytes },
      fates,
      totals: { ...this.#totals },
      connectionsOpen: final ? 0 : start.share.count,
      connectionsConnecting: 0,
      eventLoopLagMs: lagMs,
      maxSendLagMs: 0,
      maxNegativeLatencyUs: 0,
      errorCounts: emptyErrorCounts(),
      connectCauses: {},
      errorSamples: [],
    });
  }
}

/** One agent: a control connection and its threads, as cli/agent.ts and core/fleet/agent-relay.ts run them. */
async function agent(index: number): Promise<{ gone: Promise<void> }> {
  const control: ControlConnection = await openControlConnection(CONTROL_URL);
  const pieces = new PieceJoiner();
  let offsetUs = 0;
  const send = (message: FromAgent) => {
    const text = JSON.stringify(message);
    if (message.type === 'worker' && message.message.type === 'snapshot') {
      reported.snapshotBytes += text.length;
      reported.largestSnapshot = Math.max(reported.largestSnapshot, text.length);
    }
    for (const piece of toPieces(text)) {
      tally.messagesUp++;
      tally.bytesUp += Buffer.byteLength(piece);
      control.invoke('ToDashboard', piece).catch(() => {});
    }
  };
  const threads = new Map<number, SimThread>();
  let left!: () => void;
  const gone = new Promise<void>((resolve) => (left = resolve));
  control.on('Control', (text: string) => {
    tally.messagesDown++;
    tally.bytesDown += Buffer.byteLength(text);
    const whole = pieces.add(text);
    if (whole === null) return;
    const message = JSON.parse(whole) as ToAgent;
    if (message.type === 'clock-ping') {
      clockPings++;
      send({ type: 'clock-pong', pingId: message.pingId, agentUs: nowUs() });
    } else if (message.type === 'worker') {
      const inner = message.message;
      if (inner.type === 'start') {
        startsUs.push(nowUs());
        firstStartUs ||= nowUs();
        runStartUs = inner.runStartUs;
        offsetUs = inner.clockOffsetUs ?? 0;
        offsetsUs.push(offsetUs);
        const thread = new SimThread((m) => send({ type: 'worker', thread: message.thread, message: m }), () => offsetUs);
        threads.set(message.thread, thread);
        thread.start(inner);
      } else if (inner.type === 'go') {
        gosUs.push(nowUs());
        sendStartUs = inner.sendStartUs;
        threads.get(message.thread)?.go(inner);
      } else if (inner.type === 'finish') {
        threads.get(message.thread)?.finish();
      }
    } else if (message.type === 'run-over' || message.type === 'refused') {
      lastRunOverUs = Math.max(lastRunOverUs, nowUs());
      if (message.type === 'refused') console.error(`sim agent ${index}: refused: ${message.reason}`);
      left();
    }
  });
  control.on('SessionClosed', () => left());
  control.onClose(() => left());
  const info: AgentInfo = { name: `sim-${FIRST + index}`, kind: 'node', threads: THREADS, client: `fleet-sim node ${process.version}`, secret: SECRET };
  await control.invoke('JoinSession', SESSION, JSON.stringify(info));
  joinedUs.push(nowUs());
  // Wrapped: an async function returning the promise itself would wait for it.
  return { gone: gone.then(() => control.stop().catch(() => {})) };
}

const joinedAtUs = nowUs();
const running: Promise<void>[] = [];
for (let next = 0; next < AGENTS; ) {
  const batch = Array.from({ length: Math.min(JOIN_CONCURRENCY, AGENTS - next) }, (_, i) => agent(next + i));
  next += batch.length;
  running.push(...(await Promise.all(batch)).map((a) => a.gone));
}
const allJoinedUs = nowUs();
await Promise.all(running);
const range = (times: number[]) => ({ min: Math.min(...times), max: Math.max(...times) });
const cpu = process.cpuUsage();
// Ranges, not spreads: the harness may run several of these processes and merge them.
writeFileSync(OUT, JSON.stringify({
  agents: AGENTS,
  threads: THREADS,
  joinUs: allJoinedUs - joinedAtUs,
  joinedUs: range(joinedUs),
  firstStartUs,
  lastFinalUs,
  lastRunOverUs,
  sentBySecond: [...sentBySecond].map(([second, lastUs]) => ({ second, lastUs })),
  runStartUs,
  sendStartUs,
  startsUs: range(startsUs),
  gosUs: range(gosUs),
  starts: startsUs.length,
  cpuS: (cpu.user + cpu.system) / 1e6,
  wallS: (nowUs() - joinedAtUs) / 1e6,
  clockPings,
  offsetUs: range(offsetsUs),
  tally,
  reported,
}, null, 2));
process.exit(0);
