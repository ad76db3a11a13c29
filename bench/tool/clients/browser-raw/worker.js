// One worker of the raw browser client (index.html): raw WebSockets, SignalR's JSON protocol by
// hand, and the engine's own open loop, payload and drain rule (bench/tool/kit.ts), latency from
// the planned time. Latencies are kept in arrays and posted once at the end.
import { drainPlan, OpenLoop, PayloadBuilder, systemClock, systemTimers } from './kit.js';

const RS = '\x1e';
const MEASURE_PREFIX = '{"type":1,"target":"Measure","arguments":[';
const nowUs = () => systemClock.nowUs();
let load;
const sockets = [];
const stats = { sent: 0, received: 0, missedSlots: 0, latencyUs: [], uncorrectedUs: [] };
let warmupEndUs = Infinity;

async function connect(index) {
  const endpoint = new URL(load.endpointUrl);
  const negotiate = await fetch(`${endpoint.origin}${endpoint.pathname}/negotiate?negotiateVersion=1`, { method: 'POST' });
  const { connectionToken } = await negotiate.json();
  const socket = new WebSocket(`${endpoint.origin.replace(/^http/, 'ws')}${endpoint.pathname}?id=${encodeURIComponent(connectionToken)}`);
  await new Promise((resolve, reject) => {
    socket.onerror = () => reject(new Error('WebSocket error'));
    socket.onopen = () => socket.send(`{"protocol":"json","version":1}${RS}`);
    socket.onmessage = (e) => (String(e.data).startsWith(`{}${RS}`) ? resolve() : reject(new Error(`handshake refused: ${e.data}`)));
  });
  socket.onmessage = (e) => {
    const text = e.data;
    let start = 0;
    for (let end = text.indexOf(RS); end >= 0; start = end + 1, end = text.indexOf(RS, start)) receive(text.slice(start, end));
  };
  sockets.push({ index, socket });
}

function receive(frame) {
  const atUs = nowUs();
  if (!frame.startsWith(MEASURE_PREFIX)) return;
  const comma = frame.indexOf(',', MEASURE_PREFIX.length);
  const plannedUs = Number(frame.slice(MEASURE_PREFIX.length, comma));
  if (plannedUs < warmupEndUs) return;
  const header = frame.slice(comma + 2, frame.indexOf('|', comma)).split(':');
  stats.received++;
  stats.latencyUs.push(atUs - plannedUs);
  stats.uncorrectedUs.push(atUs - plannedUs - Number(header[2]));
}

function run(sendStartUs) {
  const intervalUs = load.intervalMs * 1_000;
  const sendEndUs = sendStartUs + load.durationSec * 1_000_000;
  warmupEndUs = sendStartUs + load.warmupSec * 1_000_000;
  const payload = new PayloadBuilder(load.messageBytes);
  for (const { index, socket } of sockets) {
    const firstUs = sendStartUs + (index / load.connections) * intervalUs;
    new OpenLoop(systemClock, systemTimers, firstUs, intervalUs, sendEndUs, (plannedUs, lagUs, seq) => {
      if (plannedUs >= warmupEndUs) {
        stats.sent++;
        if (lagUs > intervalUs) stats.missedSlots++;
      }
      socket.send(`{"type":1,"target":"Echo","arguments":[${Math.round(plannedUs)},"${payload.build({ sender: index, seq, sendLagUs: lagUs })}"]}${RS}`);
    }).start();
  }
  // The engine's drain: while messages still arrive, up to the cap.
  const { capMs, quietMs } = drainPlan({ sendIntervalMs: load.intervalMs, drainSec: load.drainSec ?? 30 });
  setTimeout(() => {
    const drainStartMs = Date.now();
    let lastProgressMs = drainStartMs;
    let received = stats.received;
    (function drain() {
      if (stats.received !== received) {
        received = stats.received;
        lastProgressMs = Date.now();
      }
      if (stats.received < stats.sent && Date.now() - drainStartMs < capMs && Date.now() - lastProgressMs < quietMs) return setTimeout(drain, 20);
      for (const { socket } of sockets) socket.close(1000);
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
        await connect(index).catch(() => {});
      }
    };
    await Promise.all(Array.from({ length: data.concurrency }, opener));
    postMessage({ type: 'ready', opened: sockets.length });
  } else if (data.type === 'go') run(data.sendStartUs);
};
