/** The runner's own limits, read from sample /proc text, against the connections asked for. */
import { describe, expect, it } from 'vitest';
import { checkClientLimits, FD_HEADROOM, loadOfRun, parseOpenFilesLimit, parsePortRange, portCount, readClientLimits } from '../../cli/client-limits.ts';
import { stepEngineCount } from '../../cli/engine-count.ts';

const LIMITS = `Limit                     Soft Limit           Hard Limit           Units
Max cpu time              unlimited            unlimited            seconds
Max file size             unlimited            unlimited            bytes
Max open files            1024                 524288               files
Max locked memory         8388608              8388608              bytes
`;

describe('reading the limits', () => {
  it('reads the soft and hard open-files limits', () => {
    expect(parseOpenFilesLimit(LIMITS)).toEqual({ soft: 1024, hard: 524_288 });
    expect(parseOpenFilesLimit(LIMITS.replace('1024                 524288', 'unlimited            unlimited'))).toEqual({ soft: Infinity, hard: Infinity });
    expect(parseOpenFilesLimit('Max processes 10 10 processes')).toBeNull();
  });

  it('reads the ephemeral port range', () => {
    expect(parsePortRange('32768\t60999\n')).toEqual({ low: 32_768, high: 60_999 });
    expect(portCount({ low: 32_768, high: 60_999 })).toBe(28_232);
    expect(parsePortRange('nonsense')).toBeNull();
  });

  it('reads nothing where /proc is not there', () => {
    expect(readClientLimits(() => { throw new Error('ENOENT'); })).toEqual({ openFiles: null, portRange: null });
    expect(readClientLimits((path) => (path.endsWith('limits') ? LIMITS : '32768 60999'))).toEqual({ openFiles: { soft: 1024, hard: 524_288 }, portRange: { low: 32_768, high: 60_999 } });
  });
});

describe('against the connections asked for', () => {
  const limits = (soft: number, hard = soft, ports = 28_232) => ({ openFiles: { soft, hard }, portRange: { low: 1, high: ports } });

  it('refuses what cannot fit, saying what to type', () => {
    const check = checkClientLimits(limits(1024, 524_288), { connections: 2_000 });
    expect(check.refusals).toEqual([expect.stringMatching(/^2,000 connections need at least as many open files, but this runner may open 1,024 .* EMFILE\. Raise it in the shell that starts the runner: ulimit -n 65535/)]);
  });

  it('warns when close to the limit, and says the hard limit when it is in the way', () => {
    const check = checkClientLimits(limits(150), { connections: 120 });
    expect(check.refusals).toEqual([]);
    expect(check.warnings[0]).toMatch(/close to this runner's limit of 150 open files .*Its hard limit is 150: raise it/);
  });

  it('a ramp whose first step fits is warned about its later steps, not refused', () => {
    const check = checkClientLimits(limits(150), loadOfRun({ connections: 10, workers: 1 }, { ramp: 'connections', start: 50, max: 350 }));
    expect(check.refusals).toEqual([]);
    expect(check.warnings).toEqual([expect.stringMatching(new RegExp(`^Steps above about ${150 - FD_HEADROOM} connections will run out of this runner's 150 open files \\(EMFILE\\): they will be judged client-limited`))]);
  });

  it('a rate ramp checks its fixed connections', () => {
    expect(loadOfRun({ connections: 40, workers: 1 }, { ramp: 'rate', start: 100, max: 1_000 })).toEqual({ connections: 40 });
  });

  it('refuses more connections to one hub than there are ephemeral ports, and warns near them', () => {
    expect(checkClientLimits(limits(1_000_000), { connections: 30_000 }).refusals).toEqual([expect.stringMatching(/^30,000 connections to one hub need as many ephemeral ports, but this machine has 28,232 .*EADDRNOTAVAIL.*more agents/)]);
    expect(checkClientLimits(limits(1_000_000), { connections: 26_000 }).warnings).toEqual([expect.stringMatching(/close to this machine's 28,232 ephemeral ports/)]);
  });

  it('suggests --workers when one engine carries past its share on a machine with idle cores', () => {
    const load = loadOfRun({ connections: 20_000, workers: 1 }, null, true, 8);
    expect(checkClientLimits(limits(1_000_000, 1_000_000, 60_000), load).warnings).toEqual([expect.stringMatching(/^20,000 connections on 1 engine is over 5,000 per engine while this machine has 8 cores: .*--workers 4\.$/)]);
    // Not given: the default already spread them; on 2 cores one engine is the advice.
    expect(loadOfRun({ connections: 20_000, workers: 4 }, null, false, 8)).toEqual({ connections: 20_000 });
    expect(checkClientLimits(limits(1_000_000, 1_000_000, 60_000), loadOfRun({ connections: 20_000, workers: 1 }, null, true, 2)).warnings).toEqual([]);
  });

  it('says nothing when the limits hold the run, or cannot be read', () => {
    expect(checkClientLimits(limits(65_535), { connections: 1_000 })).toEqual({ refusals: [], warnings: [] });
    expect(checkClientLimits({ openFiles: null, portRange: null }, { connections: 1_000_000 })).toEqual({ refusals: [], warnings: [] });
  });
});

describe('engines per capacity step', () => {
  it('a connections ramp without --workers scales its engines with each step', () => {
    expect(stepEngineCount({ connections: 1_000, workers: 1 }, 'connections', false, 8)).toBe(1);
    expect(stepEngineCount({ connections: 12_000, workers: 1 }, 'connections', false, 8)).toBe(3);
  });

  it('keeps --workers when given, and the rate ramp\'s fixed engines', () => {
    expect(stepEngineCount({ connections: 12_000, workers: 2 }, 'connections', true, 8)).toBe(2);
    expect(stepEngineCount({ connections: 12_000, workers: 1 }, 'rate', false, 8)).toBe(1);
  });
});
