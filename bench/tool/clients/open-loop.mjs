// The load the dashboard's engine runs, for the Node clients it is compared with, built from the
// engine's own parts (bench/tool/kit.ts, bundled into dist-bench/kit.js by `npm run build:bench`)
// so that the clients differ only in how they talk to the hub:
// - the open loop: workers/engine/open-loop.ts (send n of connection i planned at
//   start + i/N x interval + n x interval, one timer chain per connection, never early);
// - the hub's ts argument carries the planned time in us since the epoch; latency = receive time
//   minus planned time, recorded with the engine's HdrHistogram settings (core/latency/latency.ts); a
//   send more than one interval late is a missed slot;
// - the engine's payload with its "<runId>:<sender>:<seq>:<sendLagUs>|" header (workers/engine/payload.ts);
// - connects paced like the tool's (8 in flight), warm-up sends left out, and the engine's drain
//   rule (core/run-config/config.ts drainPlan): wait while messages still arrive, up to the cap.
import { createLatencyHistogram, drainPlan, newRunId, OpenLoop, parsePayloadHeader, PayloadBuilder, recordLatencyUs, summarizeLatency, systemClock, systemTimers } from '../../../dist-bench/kit.js';

const nowUs = () => systemClock.nowUs();
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Runs one echo load and prints its result as JSON on stdout.
 * @param connect (index, onMeasure(ts, payload)) => Promise<{ send(ts, payload): void, stop(): Promise<void> }>
 */
export async function runEchoLoad(client, connect, options) {
  const load = new EchoLoad(client, { warmupSec: 0, messageBytes: 2_048, connectConcurrency: 8, ...options });
  const rampStartMs = Date.now();
  const rampMs = await load.open(connect);
  load.start();
  await load.drain();
  // The ramp's ends in epoch ms, for a bench that cuts its CPU samples by phase (bench/peers/peers.mjs).
  process.stdout.write(JSON.stringify({ ...load.result(rampMs), rampStartMs, rampEndMs: rampStartMs + rampMs }) + '\n');
}

class EchoLoad {
  latency = createLatencyHistogram();
  uncorrected = createLatencyHistogram();
  totals = { sent: 0, received: 0, missedSlots: 0, sendErrors: 0, connectFailures: 0 };
  opened = [];
  loops = [];

  constructor(client, options) {
    this.client = client;
    this.options = options;
    this.intervalUs = options.intervalMs * 1_000;
    this.payload = new PayloadBuilder(options.messageBytes, newRunId());
    // Before the start time is known, anything that arrives is from the warm-up, if there is one.
    this.warmupEndUs = options.warmupSec > 0 ? Infinity : -Infinity;
  }

  receive(ts, payload) {
    const receivedUs = nowUs();
    const plannedUs = Number(ts);
    if (plannedUs < this.warmupEndUs) return;
    const header = parsePayloadHeader(payload);
    if (!header || header.runId !== this.payload.runId) return;
    const correctedUs = receivedUs - plannedUs;
    recordLatencyUs(this.latency, correctedUs);
    recordLatencyUs(this.uncorrected, correctedUs - header.sendLagUs);
    this.totals.received++;
  }

  /** Paced connects, at most `connectConcurrency` in flight; returns how long they took, in ms. */
  async open(connect) {
    const { connections, connectConcurrency } = this.options;
    const rampStartMs = Date.now();
    let nextIndex = 0;
    const opener = async () => {
      while (nextIndex < connections) {
        const index = nextIndex++;
        try {
          this.opened[index] = await connect(index, (ts, payload) => this.receive(ts, payload));
        } catch (error) {
          this.totals.connectFailures++;
          if (this.totals.connectFailures === 1) console.error(`${this.client}: connection ${index} failed: ${error.message}`);
        }
      }
    };
    await Promise.all(Array.from({ length: Math.min(connectConcurrency, connections) }, opener));
    return Date.now() - rampStartMs;
  }

  start() {
    // Whole microseconds, like the tool's: a rounded planned time never falls before the warm-up's end.
    this.sendStartUs = Math.round(nowUs()) + 200_000;
    this.warmupEndUs = this.sendStartUs + this.options.warmupSec * 1_000_000;
    this.sendEndUs = this.sendStartUs + this.options.durationSec * 1_000_000;
    this.opened.forEach((conn, index) => conn && this.schedule(conn, index));
  }

  /** One connection's open loop: the engine's own (workers/engine/open-loop.ts). */
  schedule(conn, index) {
    const firstUs = this.sendStartUs + (index / this.options.connections) * this.intervalUs;
    const loop = new OpenLoop(systemClock, systemTimers, firstUs, this.intervalUs, this.sendEndUs, (plannedUs, sendLagUs, seq) => {
      if (plannedUs >= this.warmupEndUs) {
        this.totals.sent++;
        if (sendLagUs > this.intervalUs) this.totals.missedSlots++;
      }
      try {
        conn.send(Math.round(plannedUs), this.payload.build({ sender: index, seq, sendLagUs, plannedUs: Math.round(plannedUs) }));
      } catch {
        this.totals.sendErrors++;
      }
    });
    this.loops.push(loop);
    loop.start();
  }

  /** Waits for the last send, then drains by the engine's rule: while messages still arrive, up to the cap. */
  async drain() {
    await sleep((this.sendEndUs - nowUs()) / 1_000);
    const { capMs, quietMs } = drainPlan({ sendIntervalMs: this.options.intervalMs, drainSec: this.options.drainSec ?? 30 });
    const drainStartMs = Date.now();
    let lastProgressMs = drainStartMs;
    let received = this.totals.received;
    while (this.totals.received < this.totals.sent && Date.now() - drainStartMs < capMs && Date.now() - lastProgressMs < quietMs) {
      await sleep(20);
      if (this.totals.received !== received) {
        received = this.totals.received;
        lastProgressMs = Date.now();
      }
    }
    for (const loop of this.loops) loop.stop();
    await Promise.all(this.opened.filter(Boolean).map((c) => c.stop().catch(() => {})));
  }

  result(rampMs) {
    const toEpochMs = (us) => Math.round(us / 1_000);
    return {
      client: this.client,
      connectionsOpened: this.opened.filter(Boolean).length,
      ...this.totals,
      lost: Math.max(0, this.totals.sent - this.totals.received),
      rampMs,
      latency: summarizeLatency(this.latency),
      uncorrectedLatency: summarizeLatency(this.uncorrected),
      // The measured window in epoch ms, to cut the process's CPU samples.
      measuredFromMs: toEpochMs(this.warmupEndUs),
      measuredToMs: toEpochMs(this.sendEndUs),
    };
  }
}

/** Options from the command line: one JSON argument. */
export function optionsFromArgv() {
  const text = process.argv[2];
  if (!text) throw new Error('Pass the load as one JSON argument, e.g. \'{"endpointUrl":"http://127.0.0.1:5300/signalrbench","connections":255,"intervalMs":100,"durationSec":10}\'.');
  return JSON.parse(text);
}
