import { describe, expect, it } from 'vitest';
import { chooseEngines, enginesText, stepEngines } from '../../cli/engine-kind.ts';
import { checkClientLimits, connectionsOneProcessFits, FD_HEADROOM, loadOfRun } from '../../cli/client-limits.ts';
import { MAX_ENGINES } from '../../cli/engine-count.ts';
import { parseCliArgs } from '../../cli/args.ts';

const limits = (soft: number, hard = soft, ports = 28_232) => ({ openFiles: { soft, hard }, portRange: { low: 1, high: ports } });

describe('threads or processes (--engines)', () => {
  it('threads while the connections fit one process, whatever the count', () => {
    expect(chooseEngines({ connections: 10_000, workers: 2, asked: null, openFilesSoft: 20_000 })).toEqual({ kind: 'threads', count: 2, reason: null });
    expect(chooseEngines({ connections: 20_000 - FD_HEADROOM, workers: 1, asked: null, openFilesSoft: 20_000 })).toMatchObject({ kind: 'threads', count: 1 });
    // Unknown limits (not Linux): nothing says one process cannot hold them.
    expect(chooseEngines({ connections: 1_000_000, workers: 1, asked: null, openFilesSoft: null })).toMatchObject({ kind: 'threads', count: 1 });
  });

  it('processes when they do not, at least as many as the connections need, and says why', () => {
    const choice = chooseEngines({ connections: 25_000, workers: 1, asked: null, openFilesSoft: 20_000 });
    expect(choice).toMatchObject({ kind: 'processes', count: 2 });
    expect(enginesText(choice)).toBe('2 engine processes (one process may open 20,000 files: 25,000 connections need 2)');
    expect(chooseEngines({ connections: 20_000 - FD_HEADROOM + 1, workers: 1, asked: null, openFilesSoft: 20_000 }).count).toBe(2);
    expect(chooseEngines({ connections: 60_000, workers: 2, asked: null, openFilesSoft: 20_000 }).count).toBe(4);
    // More given with --workers: kept, and said.
    expect(enginesText(chooseEngines({ connections: 25_000, workers: 3, asked: null, openFilesSoft: 20_000 }))).toBe('3 engine processes (one process may open 20,000 files: 25,000 connections need 2, 3 with --workers)');
  });

  it('as asked: threads stay threads (the limits then refuse what does not fit); processes are raised to what is needed', () => {
    expect(chooseEngines({ connections: 25_000, workers: 2, asked: 'threads', openFilesSoft: 20_000 })).toEqual({ kind: 'threads', count: 2, reason: null });
    expect(enginesText(chooseEngines({ connections: 40, workers: 2, asked: 'processes', openFilesSoft: 20_000 }))).toBe('2 engine processes (asked with --engines processes)');
    expect(enginesText(chooseEngines({ connections: 40, workers: 1, asked: 'processes', openFilesSoft: null }))).toBe('1 engine process (asked with --engines processes)');
    expect(chooseEngines({ connections: 400, workers: 2, asked: 'processes', openFilesSoft: 150 })).toMatchObject({ kind: 'processes', count: 5, reason: 'asked with --engines processes; one process may open 150 files: 400 connections need 5' });
  });

  it('--engines takes threads or processes; anything else is said, with what each means', () => {
    const endpoint = ['--endpoint', 'http://127.0.0.1:5000/hub'];
    const given = parseCliArgs([...endpoint, '--engines', 'processes']);
    expect(given.ok === true && given.options.engines).toBe('processes');
    const absent = parseCliArgs(endpoint);
    expect(absent.ok === true && absent.options.engines).toBeNull();
    const wrong = parseCliArgs([...endpoint, '--engines', 'forks']);
    expect(wrong.ok === false && wrong.errors).toEqual(['--engines must be threads or processes, not "forks": threads share the runner\'s open files, processes each have their own.']);
  });

  it('the start line names threads as before', () => {
    expect(enginesText({ kind: 'threads', count: 2, reason: null })).toBe('2 worker threads');
    expect(enginesText({ kind: 'threads', count: 1, reason: null })).toBe('the engine in the runner\'s own thread');
  });
});

describe('the engines of a capacity step', () => {
  const soft = 20_000;
  const fits = connectionsOneProcessFits(soft);
  it('threads: the step\'s count alone, whatever its connections', () => {
    expect(stepEngines({ connections: 30_000, workers: 1 }, 'connections', false, 'threads', soft, 2)).toBe(1);
  });
  it('processes: at least what the step\'s connections need at one process\'s open files', () => {
    expect(stepEngines({ connections: 5_000, workers: 1 }, 'connections', false, 'processes', soft, 2)).toBe(1);
    expect(stepEngines({ connections: fits + 1, workers: 1 }, 'connections', false, 'processes', soft, 2)).toBe(2);
    expect(stepEngines({ connections: 3 * fits, workers: 1 }, 'connections', false, 'processes', soft, 2)).toBe(3);
  });
  it('processes: more when --workers asked for more', () => {
    expect(stepEngines({ connections: fits + 1, workers: 4 }, 'connections', true, 'processes', soft, 2)).toBe(4);
  });
  it('processes with no known limit: the step\'s count', () => {
    expect(stepEngines({ connections: 100_000, workers: 1 }, 'connections', false, 'processes', null, 2)).toBe(1);
  });
});

describe('the limits judged per process and per hub instance', () => {
  it('one process fits its soft limit less the runner\'s own files', () => {
    expect(connectionsOneProcessFits(20_000)).toBe(20_000 - FD_HEADROOM);
    expect(connectionsOneProcessFits(null)).toBe(Number.POSITIVE_INFINITY);
    expect(connectionsOneProcessFits(Number.POSITIVE_INFINITY)).toBe(Number.POSITIVE_INFINITY);
  });

  it('25,000 in one process is refused, naming the split; in two processes each holds its share', () => {
    const threads = checkClientLimits(limits(20_000), loadOfRun({ connections: 25_000, workers: 2 }, null, true, 2, { kind: 'threads', count: 2 }));
    expect(threads.refusals).toEqual([expect.stringMatching(/^25,000 connections need at least as many open files, but this runner may open 20,000 .*--engines processes --workers n/)]);
    const processes = checkClientLimits(limits(20_000, 20_000, 60_000), loadOfRun({ connections: 25_000, workers: 2 }, null, true, 2, { kind: 'processes', count: 2 }));
    expect(processes).toEqual({ refusals: [], warnings: [] });
  });

  it('a process over its share is refused or warned about by its share, and no split past the most engines fits', () => {
    const over = checkClientLimits(limits(10_000), { connections: 25_000, processes: 2 });
    expect(over.refusals).toEqual([expect.stringMatching(/^12,500 connections in each of 2 engine processes need at least as many open files, but each may open 10,000 .*EMFILE/)]);
    expect(over.refusals[0]).not.toMatch(/--engines processes/);
    const close = checkClientLimits(limits(12_520), { connections: 25_000, processes: 2 });
    expect(close.warnings).toEqual([expect.stringMatching(/^12,500 connections in each of 2 engine processes are close to each one's limit of 12,520 open files/)]);
    const tooMany = checkClientLimits(limits(150, 150, 200_000), { connections: 100_000, processes: Math.ceil(100_000 / (150 - FD_HEADROOM)) });
    expect(tooMany.refusals).toEqual([expect.stringMatching(new RegExp(`^100,000 connections need 1,163 engine processes of 86 connections each .*at most ${MAX_ENGINES} engines`))]);
  });

  it('ephemeral ports are counted per hub instance', () => {
    expect(checkClientLimits(limits(1_000_000), { connections: 50_000, processes: 3 }).refusals).toEqual([expect.stringMatching(/^50,000 connections to one hub need as many ephemeral ports, but this machine has 28,232 per hub address/)]);
    const two = loadOfRun({ connections: 50_000, workers: 3, endpointUrls: ['http://a:1/h', 'http://a:2/h'] }, null, false, 2, { kind: 'processes', count: 3 });
    expect(two).toEqual({ connections: 50_000, processes: 3, instances: 2 });
    expect(checkClientLimits(limits(1_000_000), two)).toEqual({ refusals: [], warnings: [] });
    expect(checkClientLimits(limits(1_000_000), { ...two, connections: 60_000 }).refusals).toEqual([expect.stringMatching(/^30,000 connections to each of 2 hub instances need as many ephemeral ports/)]);
  });
});
