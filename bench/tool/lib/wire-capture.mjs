// The round trips as the wire saw them: a tshark capture on loopback, matched message by
// message. Every benchmark message carries "<runId>:<sender>:<seq>:" at the start of its payload and its
// planned send time as `ts`, so each Echo frame (client to hub) pairs with its Measure frame
// (hub to client). tshark unmasks the client's WebSocket frames itself.
import { execFileSync, spawn, spawnSync } from 'node:child_process';

/** Whether tshark is there; installs it with apt-get when missing and running as root. */
export function ensureTshark(log) {
  const has = () => spawnSync('tshark', ['--version'], { stdio: 'ignore' }).status === 0;
  if (has()) return true;
  if (process.getuid?.() !== 0) {
    log('tshark is missing and this is not root: the latency-truth benchmark falls back to the raw client as its reference.');
    return false;
  }
  log('tshark is missing: installing it with apt-get (Debian package tshark)...');
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  spawnSync('apt-get', ['update', '-q'], { stdio: 'ignore', env });
  spawnSync('apt-get', ['install', '-y', '-q', 'tshark'], { stdio: 'ignore', env });
  if (!has()) log('tshark could not be installed: the latency-truth benchmark falls back to the raw client as its reference.');
  return has();
}

/** Starts capturing loopback traffic to and from `port` into `file`; resolves once tshark captures. */
export async function startCapture(port, file) {
  const child = spawn('tshark', ['-i', 'lo', '-f', `tcp port ${port}`, '-w', file, '-q'], { stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  await new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`tshark did not start capturing within 10 s: ${stderr}`)), 10_000);
    child.stderr.on('data', (chunk) => {
      stderr += chunk;
      if (/Capturing on/.test(stderr)) {
        clearTimeout(timer);
        resolve();
      }
    });
    child.on('exit', (code) => reject(new Error(`tshark exited with ${code}: ${stderr}`)));
  });
  const exited = new Promise((resolve) => child.on('exit', resolve));
  return {
    async stop() {
      // SIGINT lets tshark flush and close the file.
      child.kill('SIGINT');
      await exited;
    },
  };
}

const FRAME = /"target":"(Echo|Measure)","arguments":\[(\d+),"(?:[0-9a-z]{8}:)?(\d+):(\d+):(\d+)\|/g;

/**
 * Pairs each Echo with its Measure. Returns per-message microseconds: wire round trip (Echo frame
 * to Measure frame), planned time to Echo on the wire (the client's send path), split into the
 * timer (planned time to the send call, which every client writes into its payload header as
 * sendLagUs) and the way out (send call to the frame on the wire), and planned time to Measure on
 * the wire (what a client that read it instantly would report). Messages planned before
 * `warmupSec` after the first send are left out, as the tool leaves them out.
 */
export function analyzeCapture(file, warmupSec) {
  const text = execFileSync('tshark', ['-r', file, '-Y', 'websocket.payload.text', '-T', 'fields', '-e', 'frame.time_epoch', '-e', 'websocket.payload.text',
    '-E', 'separator=/t', '-E', 'occurrence=a'], { maxBuffer: 1 << 30, stdio: ['ignore', 'pipe', 'ignore'] }).toString();
  const echoes = new Map();
  const measures = new Map();
  let firstTs = Infinity;
  for (const line of text.split('\n')) {
    const tab = line.indexOf('\t');
    if (tab < 0) continue;
    // Whole microseconds since the epoch, as the tool's ts (frame.time_epoch has ns digits).
    const [sec, frac = ''] = line.slice(0, tab).split('.');
    const atUs = Number(sec) * 1_000_000 + Number(frac.padEnd(6, '0').slice(0, 6));
    for (const [, target, ts, sender, seq, sendLagUs] of line.slice(tab + 1).matchAll(FRAME)) {
      const key = `${sender}:${seq}`;
      if (target === 'Echo') {
        echoes.set(key, { ts: Number(ts), atUs, sendLagUs: Number(sendLagUs) });
        firstTs = Math.min(firstTs, Number(ts));
      } else if (!measures.has(key)) measures.set(key, atUs);
    }
  }
  const warmupEndUs = firstTs + warmupSec * 1_000_000;
  const rtt = [];
  const sendPath = [];
  const timer = [];
  const wayOut = [];
  const plannedToWireIn = [];
  let unanswered = 0;
  for (const [key, { ts, atUs, sendLagUs }] of echoes) {
    if (ts < warmupEndUs) continue;
    const inUs = measures.get(key);
    if (inUs === undefined) {
      unanswered++;
      continue;
    }
    rtt.push(inUs - atUs);
    sendPath.push(atUs - ts);
    timer.push(sendLagUs);
    wayOut.push(atUs - ts - sendLagUs);
    plannedToWireIn.push(inUs - ts);
  }
  return { matched: rtt.length, unanswered, rttUs: percentiles(rtt), sendPathUs: percentiles(sendPath), timerUs: percentiles(timer), wayOutUs: percentiles(wayOut),
    plannedToWireInUs: percentiles(plannedToWireIn) };
}

function percentiles(values) {
  const sorted = Float64Array.from(values).sort();
  const at = (q) => (sorted.length === 0 ? null : sorted[Math.min(sorted.length - 1, Math.ceil((q / 100) * sorted.length) - 1)]);
  return { count: sorted.length, minUs: at(0.0001), p50Us: at(50), p90Us: at(90), p99Us: at(99), p999Us: at(99.9), maxUs: sorted.at(-1) ?? null };
}
