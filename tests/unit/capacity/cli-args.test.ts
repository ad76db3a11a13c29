import { describe, expect, it } from 'vitest';
import { parseCliArgs } from '../../../cli/args.ts';

const endpoint = ['--endpoint', 'http://h/signalrbench'];

describe('live-bench --find-capacity options', () => {
  it('maps the ramp onto the capacity settings, the rest onto the base run', () => {
    const parsed = parseCliArgs([...endpoint, '--find-capacity', '--ramp', 'rate', '--connections', '1000', '--start', '1000', '--step', '500', '--max', '8000', '--step-duration', '10', '--settle', '2', '--bisect', '3']);
    expect(parsed.ok === true && parsed.options.capacity).toEqual({ ramp: 'rate', start: 1_000, step: 500, max: 8_000, stepSec: 10, settleSec: 2, bisectSteps: 3 });
    expect(parsed.ok === true && parsed.options.config.connections).toBe(1_000);
  });

  it('is a single run without --find-capacity', () => {
    const parsed = parseCliArgs(endpoint);
    expect(parsed.ok === true && parsed.options.capacity).toBeNull();
  });

  it('refuses ramp options without --find-capacity', () => {
    const parsed = parseCliArgs([...endpoint, '--ramp', 'rate', '--max', '5']);
    expect(parsed.ok === false && parsed.errors).toEqual(['--ramp, --max belong to a capacity search: add --find-capacity, or drop them.']);
  });

  it('lists every problem at once: missing ramp options, single-run options, bad numbers, a bad base', () => {
    const parsed = parseCliArgs(['--endpoint', '', '--find-capacity', '--ramp', 'rate', '--start', 'x', '--warmup', '2', '--max-p99-ms', '100']);
    const errors = parsed.ok === false ? parsed.errors : [];
    expect(errors).toEqual([
      expect.stringMatching(/^Endpoint is empty/),
      expect.stringMatching(/^--warmup does not apply to a capacity search \(each step leaves --settle out of its verdict\)/),
      expect.stringMatching(/^--max-p99-ms does not apply to a capacity search/),
      '--find-capacity needs --step <n>: the ramp\'s step.',
      '--find-capacity needs --max <n>: the ramp\'s max.',
      expect.stringMatching(/^Ramp start .* but is "x"/),
    ]);
  });

  it('refuses a step the engine cannot run, naming its load', () => {
    const parsed = parseCliArgs([...endpoint, '--find-capacity', '--ramp', 'rate', '--connections', '10', '--start', '100', '--step', '100', '--max', '5000']);
    expect(parsed.ok === false && parsed.errors[0]).toMatch(/5,000 msg\/s from 10 sending connections needs a send interval of 2\.0 ms/);
  });
});
