/**
 * The peer benchmark's smallest step as CI's smoke test (bench/peers/peers.mjs): the runner, the
 * plain-library Node control and the .NET peer each run the same small echo load against a real
 * hub-sample, and each one's accounting sums (every message it sent arrived or is counted lost).
 * Never a timing assertion: the figures are the benchmark's (bench/PEERS-RESULTS.md).
 */
import { spawn } from 'node:child_process';
import { mkdtemp, readFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { accountingHolds } from '../../bench/peers/peers-compare.mjs';

const ROOT = path.resolve(import.meta.dirname, '../..');

function peers(args: string[]): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve) => {
    const child = spawn('node', ['bench/peers/peers.mjs', ...args], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (d) => (output += d));
    child.stderr.on('data', (d) => (output += d));
    child.on('exit', (code) => resolve({ code, output }));
  });
}

describe('the peer benchmark, its smallest step', () => {
  it('runs the runner, the Node control and the .NET client, and each one sent = received + lost', async () => {
    const dir = await mkdtemp(path.join(os.tmpdir(), 'peers-smoke-'));
    const json = path.join(dir, 'rows.json');
    const run = await peers(['--steps', '20x10', '--duration', '3', '--warmup', '1', '--port', '0', '--json', json]);
    expect(run.code, run.output).toBe(0);
    const rows = JSON.parse(await readFile(json, 'utf8')) as { client: string; opened: number; sent: number; received: number; lost: number; accounting: string }[];
    expect(rows.map((r) => r.client).sort()).toEqual(['control', 'dotnet', 'runner']);
    for (const row of rows) {
      expect(row.opened, row.client).toBe(20);
      // 20 connections x 10 a second x the 2 s after the warm-up: a client that sent nothing fails here.
      expect(row.sent, row.client).toBeGreaterThan(300);
      expect(row.sent, row.client).toBe(row.received + row.lost);
      expect(accountingHolds(row)).toBe(true);
      expect(row.accounting).toBe('sums');
    }
  }, 240_000);
});
