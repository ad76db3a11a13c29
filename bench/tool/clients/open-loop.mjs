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
  const { connections, intervalMs, durationSec, warmupSec = 0, messageBytes = 2_048, connectConcurrency = 8 } = options;
  const intervalUs = intervalMs * 1_000;
  const filler = 'x'.repeat(messageBytes);
  const latency = histogram();
  const uncorrected = histogram();
  const totals = { sent: 0, received: 0, missedSlots: 0, sendErrors: 0, connectFailures: 0 };
  let warmupEndUs = warmupSec > 0 ? Infinity : -Infinity;

  const onMeasure = (ts, payload) => {
    const receivedUs = nowUs();
    const plannedUs = Number(ts);
    if (plannedUs < warmupEndUs) return;
    const header = payload.slice(0, payload.indexOf('|')).split(':');
    const correctedUs = receivedUs - plannedUs;
    latency.recordValue(Math.min(600_000_000, Math.max(1, Math.round(correctedUs))));
    uncorrected.recordValue(Math.min(600_000_000, Math.max(1, Math.round(correctedUs - Number(header[2])))));
    totals.received++;
  };

  // Paced connects: at most `connectConcurrency` in flight.
  const rampStartMs = Date.now();
  const opened = new Array(connections);
  let nextIndex = 0;
  const opener = async () => {
    while (nextIndex < connections) {
      const index = nextIndex++;
      try {
        opened[index] = await connect(index, onMeasure);
      } catch (error) {
        totals.connectFailures++;
        if (totals.connectFailures === 1) console.error(`${client}: connection ${index} failed: ${error.message}`);
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(connectConcurrency, connections) }, opener));
  const rampMs = Date.now() - rampStartMs;

  // Whole microseconds, like the tool's: a rounded planned time never falls before the warm-up's end.
  const sendStartUs = Math.round(nowUs()) + 200_000;
  warmupEndUs = sendStartUs + warmupSec * 1_000_000;
  const sendEndUs = sendStartUs + durationSec * 1_000_000;
  const timers = [];
  opened.forEach((conn, index) => {
    if (!conn) return;
    const firstUs = sendStartUs + (index / connections) * intervalUs;
    let seq = 0;
    const arm = () => {
      const plannedUs = firstUs + seq * intervalUs;
      if (plannedUs >= sendEndUs) return;
      timers[index] = setTimeout(fire, Math.max(0, (plannedUs - nowUs()) / 1_000));
    };
    const fire = () => {
      const plannedUs = firstUs + seq * intervalUs;
      const sendLagUs = nowUs() - plannedUs;
      if (sendLagUs < 0) return arm();
      const head = `${index}:${seq}:${Math.round(sendLagUs)}|`;
      seq++;
      if (plannedUs >= warmupEndUs) {
        totals.sent++;
        if (sendLagUs > intervalUs) totals.missedSlots++;
      }
      try {
        conn.send(Math.round(plannedUs), head + filler.slice(head.length));
      } catch {
        totals.sendErrors++;
      }
      arm();
    };
    arm();
  });

  await sleep((sendEndUs - nowUs()) / 1_000);
  const drainMs = Math.min(10_000, Math.max(2_000, 2 * intervalMs));
  for (let waitedMs = 0; waitedMs < drainMs && totals.received < totals.sent; waitedMs += 20) await sleep(20);
  timers.forEach((t) => clearTimeout(t));
  await Promise.all(opened.filter(Boolean).map((c) => c.stop().catch(() => {})));

  const toEpochMs = (us) => Math.round(us / 1_000);
  const result = {
    client,
    connectionsOpened: opened.filter(Boolean).length,
    ...totals,
    lost: Math.max(0, totals.sent - totals.received),
    rampMs,
    latency: summary(latency),
    uncorrectedLatency: summary(uncorrected),
    // The measured window in epoch ms, to cut the process's CPU samples.
    measuredFromMs: toEpochMs(warmupEndUs),
    measuredToMs: toEpochMs(sendEndUs),
  };
  process.stdout.write(JSON.stringify(result) + '\n');
}

/** Options from the command line: one JSON argument. */
export function optionsFromArgv() {
  const text = process.argv[2];
  if (!text) throw new Error('Pass the load as one JSON argument, e.g. \'{"endpointUrl":"http://127.0.0.1:5300/signalrbench","connections":255,"intervalMs":100,"durationSec":10}\'.');
  return JSON.parse(text);
}
