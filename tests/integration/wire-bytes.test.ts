/**
 * The run's byte figures against the wire: the built runner drives the hub-sample through a
 * proxy that parses what crosses it (tests/support/wire-count-proxy.ts), and the run document's
 * `totals.sentBytes` and `totals.receivedBytes` must be within 1% of what the proxy counted, on
 * every transport and protocol, for the built-in echo and for hub profiles: the chat tutorial's
 * hub, whose welcome messages are not the tool's and cross the wire all the same, and a hub that
 * appends to the text (the Microsoft Learn tutorial's echo: a model of the message missed it).
 *
 * Like with like: both sides count transport payload, never framing. On WebSockets the proxy
 * counts the payload of every data frame (frame headers, masks and control frames left out); on
 * long polling the POST bodies and the polls' answer bodies; on Server-Sent Events the POST
 * bodies and each event's data (without its `data: ` prefix and line ends). Negotiate is outside
 * both, and so are the answers to POSTs and DELETEs (no transport data). What the capture has and
 * the run cannot: what crosses after the runner's final snapshot (the close message, 4 to 11
 * bytes a connection): well under 1% here. The chat hub delivers to all of its connections, so
 * its runs go one after another: a run beside another would receive the other's messages, some
 * after its own end.
 */
import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseRunResult, type RunResult } from '../../core/result/result.ts';
import { startHub, type RunningHub } from '../support/hub-process.ts';
import { liveBench, type CliRun } from '../support/live-bench.ts';
import { startWireCountProxy, type WireCounts } from '../support/wire-count-proxy.ts';

let hub: RunningHub;
let dir: string;

beforeAll(async () => {
  hub = await startHub({ extraArgs: ['--EnableTestHubs', 'true'] });
  dir = await mkdtemp(path.join(os.tmpdir(), 'live-bench-wire-'));
}, 60_000);

afterAll(async () => {
  await hub?.stop();
});

const COMBINATIONS = [
  ['WebSockets', 'json'],
  ['WebSockets', 'messagepack'],
  ['ServerSentEvents', 'json'],
  ['LongPolling', 'json'],
  ['LongPolling', 'messagepack'],
] as const;
const CONNECTIONS = 4;
const INTERVAL_MS = 100;
const WARMUP_SEC = 1;
const DURATION_SEC = 2;
/** Small messages: a count off by a few bytes a message would be more than 1% of them. */
const MESSAGE_BYTES = 256;
/** Each sender's slots, the warm-up's (the duration's first second) included: every one crossed the wire. */
const SLOTS = (DURATION_SEC * 1_000) / INTERVAL_MS;

interface Measured {
  label: string;
  run: CliRun;
  result: RunResult | null;
  wire: WireCounts;
}

async function measure(hubPath: string, runArgs: string[], transport: string, protocol: string): Promise<Measured> {
  const proxy = await startWireCountProxy(hub.httpUrl, hubPath);
  const label = `${hubPath} ${transport} ${protocol}`;
  const jsonPath = path.join(dir, `${hubPath.slice(1)}-${transport}-${protocol}.json`);
  try {
    const run = await liveBench(['--endpoint', `${proxy.url}${hubPath}`, ...runArgs, '--transport', transport, '--protocol', protocol,
      '--connections', String(CONNECTIONS), '--interval-ms', String(INTERVAL_MS), '--warmup', String(WARMUP_SEC), '--duration', String(DURATION_SEC),
      '--message-bytes', String(MESSAGE_BYTES), '--drain-s', '10', '--workers', '1', '--quiet', '--json', jsonPath]);
    const text = await readFile(jsonPath, 'utf8').catch(() => null);
    return { label, run, result: text === null ? null : parseRunResult(text), wire: proxy.counts() };
  } finally {
    await proxy.stop();
  }
}

/** |run − wire| / wire, for the report's table and the assertion. */
const errorOf = (counted: number, wire: number) => Math.abs(counted - wire) / wire;

function expectWithinOnePercent({ label, run, result, wire }: Measured, senders: number): void {
  expect(run.code, `${label}: ${run.stderr}`).toBe(0);
  expect(result!.verdict.status, label).toBe('pass');
  // Nothing the comparison leaves out: no compressed frames, no requests outside the transport's,
  // no other run's messages.
  expect(wire.compressed, label).toBe(false);
  expect(wire.otherBodies, label).toBe(0);
  expect(result!.totals.foreign, label).toBe(0);
  // The capture saw the run: at least every slot's message went out.
  expect(wire.sent, label).toBeGreaterThan(senders * SLOTS * MESSAGE_BYTES);
  const { sentBytes, receivedBytes } = result!.totals;
  console.log(`${label}: sent ${sentBytes} B counted, ${wire.sent} B on the wire (${(errorOf(sentBytes, wire.sent) * 100).toFixed(3)}%); ` +
    `received ${receivedBytes} B counted, ${wire.received} B on the wire (${(errorOf(receivedBytes, wire.received) * 100).toFixed(3)}%)`);
  expect(errorOf(sentBytes, wire.sent), `${label}: sent ${sentBytes} against ${wire.sent} on the wire`).toBeLessThan(0.01);
  expect(errorOf(receivedBytes, wire.received), `${label}: received ${receivedBytes} against ${wire.received} on the wire`).toBeLessThan(0.01);
}

describe('bytes counted against a capture of the wire', () => {
  it('built-in echo on every transport and protocol: sent and received within 1%', async () => {
    const runs = await Promise.all(COMBINATIONS.map(([transport, protocol]) => measure('/signalrbench', ['--scenario', 'echo'], transport, protocol)));
    for (const measured of runs) expectWithinOnePercent(measured, CONNECTIONS);
  }, 180_000);

  it('a hub profile (the chat tutorial\'s SendMessage to all, welcome messages included) on every transport and protocol: within 1%', async () => {
    const runs: Measured[] = [];
    for (const [transport, protocol] of COMBINATIONS) runs.push(await measure('/chathub', ['--hub-profile', 'profiles/chat-all.json'], transport, protocol));
    for (const measured of runs) {
      // Broadcast: 2 senders; every connection was greeted once, a message that is not the tool's.
      expectWithinOnePercent(measured, 2);
      expect(measured.result!.totals.unsolicited, measured.label).toBe(CONNECTIONS);
    }
  }, 180_000);

  it('a hub that appends to the text (WrapChatHub.EchoBack: " (echo from server)"): what it added is counted, within 1%', async () => {
    const profile = path.join(dir, 'echo-back.json');
    await writeFile(profile, JSON.stringify({ name: 'echo back', send: { method: 'EchoBack', args: ['{message}'] }, receive: { method: 'Echo', arg: 0 }, deliver: 'self' }));
    const runs = await Promise.all(COMBINATIONS.map(([transport, protocol]) => measure('/wrapchathub', ['--hub-profile', profile], transport, protocol)));
    // Each delivery carries 19 characters more than the message sent, about 6% of a delivery
    // here: a count that modelled the delivery from the message would be that far under.
    for (const measured of runs) expectWithinOnePercent(measured, CONNECTIONS);
  }, 180_000);
});
