// The schedule and measurement the dashboard's engine uses (workers/engine/open-loop.ts,
// scenario-runner.ts), for the two Node clients it is compared with, so the three differ only in
// how they talk to the hub:
// - send n of connection i is planned at start + i/N x interval + n x interval, whatever
//   happened before (open loop); one setTimeout chain per connection, never sending early;
// - the hub's ts argument carries the planned time in us since the epoch; latency = receive time
//   minus planned time (corrected for coordinated omission), recorded in an HdrHistogram with
//   the tool's settings (1 us to 10 min, 3 digits); a send more than one interval late is a missed slot;
// - the payload is the tool's "<sender>:<seq>:<sendLagUs>|xxx..." padded to the message size;
// - connects are paced like the tool's (8 in flight), warm-up sends are left out, the end waits
//   for what is in flight for two intervals (2-10 s).
import hdr from 'hdr-histogram-js';

const nowUs = () => (performance.timeOrigin + performance.now()) * 1_000;
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

function histogram() {
  return hdr.build({ bitBucketSize: 32, lowestDiscernibleValue: 1, highestTrackableValue: 600_000_000, numberOfSignificantValueDigits: 3, useWebAssembly: false });
}

function summary(h) {
  const p = (q) => h.getValueAtPercentile(q);
  return { count: h.totalCount, p50Us: p(50), p90Us: p(90), p99Us: p(99), p999Us: p(99.9), maxUs: h.maxValue, meanUs: h.mean };
}

/**
 * Runs one echo load and prints its result as JSON on stdout.
 * @param connect (index, onMeasure(ts, payload)) => Promise<{ send(ts, payload): void, stop(): Promise<void> }>
 */
export async function runEchoLoad(client, connect, options) {
  const load = new EchoLoad(client, { warmupSec: 0, messageBytes: 2_048, connectConcurrency: 8, ...options });
  const rampMs = await load.open(connect);
  load.start();
  await load.drain();
  process.stdout.write(JSON.stringify(load.result(rampMs)) + '\n');
}

class EchoLoad {
  latency = histogram();
  uncorrected = histogram();
  totals = { sent: 0, received: 0, missedSlots: 0, sendErrors: 0, connectFailures: 0 };
  opened = [];
  timers = [];

  constructor(client, options) {
    this.client = client;
    this.options = options;
    this.intervalUs = options.intervalMs * 1_000;
    this.filler = 'x'.repeat(options.messageBytes);
    // Before the start time is known, anything that arrives is from the warm-up, if there is one.
    this.warmupEndUs = options.warmupSec > 0 ? Infinity : -Infinity;
  }

  receive(ts, payload) {
    const receivedUs = nowUs();
    const plannedUs = Number(ts);
    if (plannedUs < this.warmupEndUs) return;
    const header = payload.slice(0, payload.indexOf('|')).split(':');
    const correctedUs = receivedUs - plannedUs;
    this.latency.recordValue(Math.min(600_000_000, Math.max(1, Math.round(correctedUs))));
    this.uncorrected.recordValue(Math.min(600_000_000, Math.max(1, Math.round(correctedUs - Number(header[2])))));
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

  /** One connection's open loop: a setTimeout chain to each planned slot, never sending early. */
  schedule(conn, index) {
    const firstUs = this.sendStartUs + (index / this.options.connections) * this.intervalUs;
    let seq = 0;
    const arm = () => {
      const plannedUs = firstUs + seq * this.intervalUs;
      if (plannedUs >= this.sendEndUs) return;
      this.timers[index] = setTimeout(fire, Math.max(0, (plannedUs - nowUs()) / 1_000));
    };
    const fire = () => {
      const plannedUs = firstUs + seq * this.intervalUs;
      const sendLagUs = nowUs() - plannedUs;
      if (sendLagUs < 0) return arm();
      const head = `${index}:${seq}:${Math.round(sendLagUs)}|`;
      seq++;
      if (plannedUs >= this.warmupEndUs) {
        this.totals.sent++;
        if (sendLagUs > this.intervalUs) this.totals.missedSlots++;
      }
      try {
        conn.send(Math.round(plannedUs), head + this.filler.slice(head.length));
      } catch {
        this.totals.sendErrors++;
      }
      arm();
    };
    arm();
  }

  /** Waits for the last send, then up to two intervals (2-10 s) for what is in flight, and closes. */
  async drain() {
    await sleep((this.sendEndUs - nowUs()) / 1_000);
    const drainMs = Math.min(10_000, Math.max(2_000, 2 * this.options.intervalMs));
    for (let waitedMs = 0; waitedMs < drainMs && this.totals.received < this.totals.sent; waitedMs += 20) await sleep(20);
    this.timers.forEach((t) => clearTimeout(t));
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
      latency: summary(this.latency),
      uncorrectedLatency: summary(this.uncorrected),
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
