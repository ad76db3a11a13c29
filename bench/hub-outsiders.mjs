// What outsiders can make the hub-sample hold on its control hub. N raw WebSockets to /control,
// none joining a session, each sending the SignalR handshake and then a hub message it never
// finishes, just under MaxControlMessageBytes (64 KiB): the most one connection can make the hub
// buffer. Measures the hub's resident memory before and its peak while they come and go, how
// many it kept (at most MaxControlOutsiders; the rest are closed as they open), and
// how long until the join deadline had closed them all. Run once with the default limit and once with the limit lifted
// (`--limit N`) to see what the limit saves.
// Usage: node bench/hub-outsiders.mjs [--outsiders 1000] [--limit 100] [--port 5680] [--record]
//   (after `npm run build:hub` and `npx vite build`; --record adds a row to bench/RESULTS.md)
import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import WebSocket from 'ws';
import { addResultRow } from './results-table.mjs';
import { startHub } from '../scripts/hub.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const { values } = parseArgs({
  options: {
    outsiders: { type: 'string', default: '1000' },
    limit: { type: 'string' },
    port: { type: 'string', default: '5680' },
    record: { type: 'boolean', default: false },
  },
});
const outsiders = Number(values.outsiders);
const port = Number(values.port);
const unfinishedBytes = 64 * 1024 - 1_024;
const joinSeconds = 10;
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/** Resident memory of a process, in MB (Linux /proc via ps). */
const rssMb = (pid) => Number(execFileSync('ps', ['-o', 'rss=', '-p', String(pid)]).toString().trim()) / 1024;

/** One outsider: the handshake, then most of a hub message without its record separator. */
function outsider(url) {
  return new Promise((resolve) => {
    const socket = new WebSocket(url);
    const state = { socket, openedAtMs: null, closedAtMs: null };
    socket.on('open', () => {
      state.openedAtMs = performance.now();
      socket.send('{"protocol":"json","version":1}\u001e');
      socket.send(`{"type":1,"target":"ToDashboard","arguments":["${'x'.repeat(unfinishedBytes)}`);
      resolve(state);
    });
    socket.on('close', () => {
      state.closedAtMs = performance.now();
      resolve(state);
    });
    socket.on('error', () => resolve(state));
  });
}

const extraArgs = ['--ControlJoinSeconds', String(joinSeconds)];
if (values.limit) extraArgs.push('--MaxControlOutsiders', values.limit);
const hub = await startHub({ port, extraArgs });
try {
  await sleep(2_000);
  let baselineMb = 0;
  for (let i = 0; i < 8; i++, await sleep(250)) baselineMb = Math.max(baselineMb, rssMb(hub.process.pid));
  // The hub's resident memory, sampled every 250 ms from the first outsider until the last is closed.
  let peakMb = 0;
  const sampler = setInterval(() => (peakMb = Math.max(peakMb, rssMb(hub.process.pid))), 250);
  const url = `ws://127.0.0.1:${port}/control`;
  const openedAtMs = performance.now();
  const states = [];
  // 50 at a time, so the client is not what limits how many the hub sees at once.
  for (let i = 0; i < outsiders; i += 50) states.push(...(await Promise.all(Array.from({ length: Math.min(50, outsiders - i) }, () => outsider(url)))));
  const openingS = (performance.now() - openedAtMs) / 1_000;
  // Wait for the join deadline to close the rest.
  while (states.some((s) => s.closedAtMs === null) && performance.now() - openedAtMs < (joinSeconds + 20) * 1_000 + openingS * 1_000) await sleep(250);
  await sleep(1_000);
  clearInterval(sampler);
  const stillOpen = states.filter((s) => s.closedAtMs === null).length;
  const lastCloseS = (Math.max(...states.map((s) => s.closedAtMs ?? Infinity)) - openedAtMs) / 1_000;
  for (const s of states) s.socket.terminate();
  // Kept: lived over 2 s (the gate closes the ones over the limit at once, the deadline the rest).
  const kept = states.filter((s) => s.openedAtMs !== null && (s.closedAtMs ?? Infinity) - s.openedAtMs > 2_000).length;
  const limit = values.limit ?? '100 (default)';
  const result = {
    outsiders, limit, kept, openingS: openingS.toFixed(1), baselineMb: baselineMb.toFixed(1), peakMb: peakMb.toFixed(1),
    aboveBaselineMb: (peakMb - baselineMb).toFixed(1), stillOpenAfterDeadline: stillOpen, lastClosedAfterS: lastCloseS.toFixed(1),
  };
  console.log(JSON.stringify(result));
  if (values.record) {
    const date = new Date().toISOString().slice(0, 10);
    const command = `node bench/hub-outsiders.mjs --outsiders ${outsiders}${values.limit ? ` --limit ${values.limit}` : ''}`;
    addResultRow('Hub: outsiders on the control hub', `| ${date} | ${outsiders} | ${limit} | ${kept} | ${result.openingS} | ${result.baselineMb} | ${result.peakMb} | ${result.aboveBaselineMb} | ${stillOpen} | ${result.lastClosedAfterS} | \`${command}\` |`);
  }
} finally {
  await hub.stop();
}
