/**
 * The built runner refuses what it would otherwise ignore or overwrite without a word, and says
 * conflicts with the values typed: exit 2, nothing run, every line saying what to add or change.
 */
import { mkdtemp, readdir } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, inject, it } from 'vitest';
import { liveBench } from '../support/live-bench.ts';

const endpoint = () => `${inject('hubHttpUrl')}/signalrbench`;

describe('options that would mean nothing', () => {
  const cases: [string, string[], RegExp][] = [
    ['--drop-share without --drop-at', ['--drop-share', '50'], /--drop-share needs --drop-at \(the second of the sends at which connections drop/],
    ['--drop-kind without --drop-at', ['--reconnect', '--drop-kind', 'server'], /--drop-kind needs --drop-at/],
    ['--reconnect-policy without --reconnect', ['--reconnect-policy', 'jittered'], /--reconnect-policy needs --reconnect \(without it a lost connection does not come back/],
    ['one hub instance given twice', ['--endpoint', endpoint()], /Endpoint lists .* more than once: list each hub instance once/],
  ];
  for (const [name, args, line] of cases) {
    it(`${name}: exit 2, said, nothing run`, async () => {
      const run = await liveBench(['--endpoint', endpoint(), '--duration', '10', ...args]);
      expect(run.code, run.stderr).toBe(2);
      expect(run.stderr).toMatch(line);
      expect(run.stderr).toContain('nothing was run');
      expect(run.stdout).toBe('');
    });
  }

  it('--json and --html on one path: exit 2, and no file is written', async () => {
    const dir = await mkdtemp(path.join(os.tmpdir(), 'live-bench-'));
    const file = path.join(dir, 'result');
    const run = await liveBench(['--endpoint', endpoint(), '--duration', '1', '--json', file, '--html', file]);
    expect(run.code, run.stderr).toBe(2);
    expect(run.stderr).toContain(`--json and --html both write ${file}: the second would overwrite the first. Give each its own file.`);
    expect(await readdir(dir)).toEqual([]);
  });
});

describe('conflicts said with the values typed', () => {
  const cases: [string[], string][] = [
    [['--scenario', 'smallGroup', '--connections', '20', '--group-size', '50'], '50 members per group but only 20 connections: not one group fits. Lower the group size to at most 20, or raise the connections to at least 50.'],
    [['--scenario', 'bigGroup', '--connections', '20', '--group-size', '50'], '50 members per group but only 20 connections'],
    [['--scenario', 'bigGroup', '--connections', '20', '--group-count', '50'], '50 groups but only 20 connections: each group needs at least 2 members, so 50 groups need 100.'],
  ];
  for (const [args, expected] of cases) {
    it(`${args.join(' ')}: exit 2, naming the typed values, never a derived 0`, async () => {
      const run = await liveBench(['--endpoint', endpoint(), ...args]);
      expect(run.code, run.stderr).toBe(2);
      expect(run.stderr).toContain(expected);
      expect(run.stderr).not.toMatch(/but is 0/);
    });
  }
});
