import { describe, expect, it } from 'vitest';
import { nearestJs, packageOf, parseArgs, placeOf, samplesWithin, sideBySide } from '../../bench/ramp-profile.mjs';

// Frames as `perf script -F time,ip,sym,dso` writes them, from a runner recorded with --perf-basic-prof.
const GC = '\t    7f21a3 v8::internal::ConcurrentMarking::RunMajor(v8::JobDelegate*) (/usr/bin/node)';
const BUILTIN = '\t    1a2b3c Builtins_LoadIC (/usr/bin/node)';
const RUNNER_JS = '\t    3f00aa JS:*#open file:///work/main/dist-cli/assets/memory-log-ByIRVuHp.js:9948:13+0x2c (/tmp/perf-24875.map)';
const SIGNALR_JS = '\t    3f01bb JS:^_startInternal /work/main/node_modules/@microsoft/signalr/dist/cjs/HttpConnection.js:149:25+0x40 (/tmp/perf-24875.map)';
const UNDICI_JS = '\t    3f02cc JS:*httpNetworkFetch node:internal/deps/undici/undici:11193:36+0x10 (/tmp/perf-24875.map)';
const KERNEL = '\tffffffff8221acec finish_task_switch.isra.0 ([kernel.kallsyms])';
const LIBC = '\t   fdc47 __brk (/usr/lib/x86_64-linux-gnu/libc.so.6)';

describe('the ramp profile', () => {
  it('places a sample by its leaf frame: the collector, builtins, the kernel, the C library, JavaScript by package', () => {
    expect(placeOf(GC)).toBe('V8 garbage collector');
    expect(placeOf(BUILTIN)).toBe('V8 builtins');
    expect(placeOf(KERNEL)).toBe('kernel');
    expect(placeOf(LIBC)).toBe('C library');
    expect(placeOf('\t 1234 v8::internal::compiler::GraphReducer::ReduceTop() (/usr/bin/node)')).toBe('V8 compiler');
    expect(placeOf('\t 1234 v8::internal::LookupIterator::LookupInRegularHolder<false>() (/usr/bin/node)')).toBe('V8 runtime');
    expect(placeOf(RUNNER_JS)).toBe('JS the runner');
    expect(placeOf(SIGNALR_JS)).toBe('JS @microsoft/signalr');
    expect(placeOf(UNDICI_JS)).toBe('JS node:deps/undici');
    expect(packageOf('JS:*frame ws/lib/sender.js /work/main/node_modules/ws/lib/sender.js:55:15')).toBe('ws');
    expect(packageOf('JS:*x file:///work/main/dist-bench/kit.js:1:1')).toBe('the control');
  });

  it('names the nearest JavaScript frame above a builtin, and none when the chain has no JavaScript', () => {
    expect(nearestJs([BUILTIN, RUNNER_JS, SIGNALR_JS])).toBe('#open runner:9948:13');
    expect(nearestJs([BUILTIN, SIGNALR_JS])).toBe('_startInternal @microsoft/signalr/dist/cjs/HttpConnection.js:149:25');
    expect(nearestJs([GC, KERNEL])).toBeNull();
  });

  it('keeps the samples within the window, each with its call chain leaf first', () => {
    const text = ['100.000100: ', RUNNER_JS, '', '100.500000: ', BUILTIN, SIGNALR_JS, '', '101.000001: ', GC, ''].join('\n');
    const samples = samplesWithin(text, 100.2, 101);
    expect(samples).toEqual([[BUILTIN, SIGNALR_JS]]);
    expect(samplesWithin(text, 100, 101.5)).toHaveLength(3);
  });

  it('puts the runner and the control side by side in µs a connection, the biggest excess first', () => {
    const runner = { opened: 2, samples: [[GC], [GC], [GC], [BUILTIN, RUNNER_JS], [KERNEL]] };
    const control = { opened: 4, samples: [[GC], [GC], [KERNEL], [KERNEL]] };
    const rows = sideBySide(runner, control, (frames) => placeOf(frames[0]!), 1_000);
    expect(rows[0]).toEqual({ key: 'V8 garbage collector', runnerUs: 1_500, controlUs: 500 });
    expect(rows[1]).toEqual({ key: 'V8 builtins', runnerUs: 500, controlUs: 0 });
    expect(rows.at(-1)).toEqual({ key: 'kernel', runnerUs: 500, controlUs: 500 });
  });

  it('refuses an unknown option or client by name', () => {
    expect(parseArgs(['--connections', '5000']).connections).toBe(5_000);
    expect(() => parseArgs(['--conections', '5000'])).toThrow(/Unknown option --conections: use --connections/);
    expect(() => parseArgs(['--clients', 'runner,dotnet'])).toThrow(/--clients takes runner and control, not "dotnet"/);
    expect(() => parseArgs(['--connections', 'many'])).toThrow(/--connections takes a positive number, not "many"/);
  });
});
