// What both same-browser comparison workers share (worker.js: raw WebSockets; library-worker.js:
// plain @microsoft/signalr): the engine's own open loop, payload and drain rule
// (bench/tool/kit.ts), the page's messages, and the accounting: latency from the planned time,
// kept in arrays and posted once at the end.
import { drainPlan, newRunId, OpenLoop, PayloadBuilder, systemClock, systemTimers } from './kit.js';

export const nowUs = () => systemClock.nowUs();
export const stats = { sent: 0, received: 0, missedSlots: 0, latencyUs: [], uncorrectedUs: [] };
let warmupEndUs = Infinity;

/** Whether a message planned at `plannedUs` counts (warm-up messages do not). */
export const measured = (plannedUs) => plannedUs >= warmupEndUs;

/** A measured reception at `atUs` of a message planned at `plannedUs`, sent `sendLagUs` late. */
export function received(atUs, plannedUs, sendLagUs) {
  stats.received++;
  stats.latencyUs.push(atUs - plannedUs);
  stats.uncorrectedUs.push(atUs - plannedUs - sendLagUs);
}

/**
 * Serves the page's "open" and "go": `connect(index, load)` opens connection `index` and returns
 * it; `echo(connection, plannedUs, payload)` sends one Echo; `close(connection)` ends it.
 */
export function serve({ connect, echo, close }) {
  const connections = [];
  let load;
  function run(sendStartUs) {
    const intervalUs = load.intervalMs * 1_000;
    const sendEndUs = sendStartUs + load.durationSec * 1_000_000;
    warmupEndUs = sendStartUs + load.warmupSec * 1_000_000;
    const payload = new PayloadBuilder(load.messageBytes, newRunId());
    for (const { index, connection } of connections) {
      const firstUs = sendStartUs + (index / load.connections) * intervalUs;
      new OpenLoop(systemClock, systemTimers, firstUs, intervalUs, sendEndUs, (plannedUs, lagUs, seq) => {
        if (plannedUs >= warmupEndUs) {
          stats.sent++;
          if (lagUs > intervalUs) stats.missedSlots++;
        }
        echo(connection, Math.round(plannedUs), payload.build({ sender: index, seq, sendLagUs: lagUs, plannedUs: Math.round(plannedUs) }));
      }).start();
    }
    // The engine's drain: while messages still arrive, up to the cap.
    const { capMs, quietMs } = drainPlan({ sendIntervalMs: load.intervalMs, drainSec: load.drainSec ?? 30 });
    setTimeout(() => {
      const drainStartMs = Date.now();
      let lastProgressMs = drainStartMs;
      let count = stats.received;
      (function drain() {
        if (stats.received !== count) {
          count = stats.received;
          lastProgressMs = Date.now();
        }
        if (stats.received < stats.sent && Date.now() - drainStartMs < capMs && Date.now() - lastProgressMs < quietMs) return setTimeout(drain, 20);
        for (const { connection } of connections) close(connection);
        postMessage({ type: 'done', ...stats });
      })();
    }, Math.max(0, (sendEndUs - nowUs()) / 1_000));
  }

  onmessage = async ({ data }) => {
    if (data.type === 'open') {
      load = data;
      const mine = [];
      for (let i = data.workerIndex; i < data.connections; i += data.workers) mine.push(i);
      let next = 0;
      const opener = async () => {
        while (next < mine.length) {
          const index = mine[next++];
          await connect(index, load).then((connection) => connections.push({ index, connection }), () => {});
        }
      };
      await Promise.all(Array.from({ length: data.concurrency }, opener));
      postMessage({ type: 'ready', opened: connections.length });
    } else if (data.type === 'go') run(data.sendStartUs);
  };
}
