/**
 * The built runner refuses one hub instance listed under two spellings, or under a name and the
 * address it resolves to, before it connects (exit 2, both endpoints named, what to do), and
 * runs two instances that are two. No hub is needed for a refusal: the ports are free ones.
 */
import { lookup } from 'node:dns/promises';
import os from 'node:os';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { canonicalHost } from '../../core/run-config/index.ts';
import { liveBench } from '../support/live-bench.ts';
import { startHub, type RunningHub } from '../support/hub-process.ts';
import { freePort } from '../support/redis-process.ts';

/** Under the engine's wait for a first answer (FIRST_ANSWER_MS, 12 s): a refusal that waited for
 *  connects would take longer. */
const BEFORE_CONNECTING_MS = 10_000;

/** This machine's name and the first address it resolves to; null where it does not resolve. */
const machine = await lookup(os.hostname()).then((answer) => ({ name: os.hostname().toLowerCase(), address: canonicalHost(answer.address) }), () => null);

describe('one hub instance under two names', () => {
  it('two spellings of one address: exit 2 before connecting, both named, what to do', async () => {
    const port = await freePort();
    const first = `http://127.0.0.1:${port}/signalrbench`;
    const second = `http://localhost:${port}/signalrbench/`;
    const run = await liveBench(['--endpoint', first, '--endpoint', second, '--duration', '10']);
    expect(run.code, run.stderr).toBe(2);
    expect(run.stderr).toContain(`live-bench: Endpoints ${first} and ${second} both reach 127.0.0.1:${port}/signalrbench: one hub instance, whose connections and server metrics would count as two. List each hub instance once.`);
    expect(run.stderr).toContain('nothing was run');
    expect(run.stdout).toBe('');
    expect(run.elapsedMs).toBeLessThan(BEFORE_CONNECTING_MS);
  });

  it.skipIf(machine === null || machine.name === 'localhost')('this machine\'s name and its address, told by DNS: exit 2, with what the name resolved to', async () => {
    const port = await freePort();
    const byName = `http://${machine!.name}:${port}/signalrbench`;
    const byAddress = `http://${machine!.address}:${port}/signalrbench`;
    const run = await liveBench(['--endpoint', byAddress, '--endpoint', byName, '--duration', '10']);
    expect(run.code, run.stderr).toBe(2);
    expect(run.stderr).toContain(`live-bench: Endpoints ${byAddress} and ${byName} both reach ${machine!.address}:${port}/signalrbench (${machine!.name} is `);
    expect(run.stderr).toContain('nothing was run. List each hub instance once.');
    expect(run.elapsedMs).toBeLessThan(BEFORE_CONNECTING_MS);
  });

  it('one instance\'s /metrics under two spellings: exit 2', async () => {
    const [a, b] = [await freePort(), await freePort()];
    const run = await liveBench(['--endpoint', `http://127.0.0.1:${a}/signalrbench`, '--endpoint', `http://127.0.0.1:${b}/signalrbench`,
      '--server-metrics', `http://127.0.0.1:${a}/metrics`, '--server-metrics', `http://[::1]:${a}/metrics`, '--duration', '10']);
    expect(run.code, run.stderr).toBe(2);
    expect(run.stderr).toContain(`live-bench: --server-metrics http://127.0.0.1:${a}/metrics and http://[::1]:${a}/metrics both reach 127.0.0.1:${a}/metrics: one instance's metrics would be summed twice.`);
  });
});

describe('two hub instances', () => {
  let other: RunningHub;
  beforeAll(async () => {
    other = await startHub();
  });
  afterAll(async () => {
    await other?.stop();
  });

  it('are not refused, whatever their spelling, and the run passes over both', async () => {
    const first = `${inject('hubHttpUrl')}/signalrbench`;
    const second = `${other.httpUrl!.replace('127.0.0.1', 'localhost')}/signalrbench`;
    const run = await liveBench(['--endpoint', first, '--endpoint', second, '--connections', '4', '--workers', '1', '--duration', '2', '--quiet']);
    expect(run.stderr).not.toContain('both reach');
    expect(run.stderr).toContain(`to 2 hub instances round-robin (${first}, ${second})`);
    expect(run.code, run.stderr).toBe(0);
  });
});
