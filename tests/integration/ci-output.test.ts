/**
 * The runner's output in a CI job, against the real hub-sample: a run that lost every message
 * fails even with --no-guide-rule (unless --allow-loss accepts it), and `--json -` puts nothing
 * but the JSON on standard output. The hub loses everything honestly: it is frozen (SIGSTOP) once
 * the connections are open and stays frozen until the run has ended.
 */
import type { ChildProcess } from 'node:child_process';
import { describe, expect, inject, it } from 'vitest';
import { arrivedOf } from '../../core/accounting/fates.ts';
import { parseRunResult } from '../../core/result/result.ts';
import { startHub } from '../support/hub-process.ts';
import { liveBench } from '../support/live-bench.ts';

const CONNECTIONS = 4;

/** A run whose hub freezes as soon as every connection is open (inside the 2-s warm-up, so no
 *  measured message can arrive), thawed only after the runner has exited. */
async function runWithFrozenHub(extra: string[]) {
  const hub = await startHub();
  let frozen = false;
  const freezeOnceOpen = (child: ChildProcess) => {
    child.stderr!.on('data', (chunk: Buffer) => {
      if (!frozen && chunk.toString().includes(`open ${CONNECTIONS} of ${CONNECTIONS}`)) {
        frozen = true;
        hub.process.kill('SIGSTOP');
      }
    });
  };
  try {
    const run = await liveBench(['--endpoint', `${hub.httpUrl}/signalrbench`, '--connections', String(CONNECTIONS), '--workers', '1', '--interval-ms', '200',
      '--warmup', '2', '--duration', '4', '--drain-s', '3', '--json', '-', ...extra], freezeOnceOpen);
    return { run, frozen };
  } finally {
    hub.process.kill('SIGCONT');
    await hub.stop();
  }
}

describe('CI output a machine can trust', () => {
  it('--no-guide-rule with every message lost exits 1; stdout is the JSON alone', async () => {
    const { run, frozen } = await runWithFrozenHub(['--no-guide-rule']);
    expect(frozen).toBe(true);
    // The whole of stdout is one JSON document (what `| jq` needs): the summary went to stderr.
    const result = parseRunResult(run.stdout);
    expect(JSON.parse(run.stdout).format).toBe('signalr-live-bench/run');
    expect(run.stderr).toMatch(/Verdict: Fail/);
    expect(run.stderr).toMatch(/Planned receptions: /);
    // 2 measured seconds (4 less the 2-s warm-up) at 5 sends a second: planned from the arguments.
    expect(result.fates.planned).toBe(CONNECTIONS * 2 * 5);
    expect(arrivedOf(result.fates)).toBe(0);
    expect(result.latency.p99Us).toBeNull();
    expect(run.stderr).toMatch(/live-bench: .*did not arrive exactly once, and no loss was allowed\. A run that loses messages is not a pass, with or without --no-guide-rule/);
    expect(run.code).toBe(1);
  }, 90_000);

  it('--allow-loss 1 accepts that loss: exit 0', async () => {
    const { run, frozen } = await runWithFrozenHub(['--no-guide-rule', '--allow-loss', '1']);
    expect(frozen).toBe(true);
    const result = parseRunResult(run.stdout);
    expect(arrivedOf(result.fates)).toBe(0);
    expect(result.verdict.status).toBe('fail');
    expect(run.stderr).not.toMatch(/did not arrive exactly once/);
    expect(run.code).toBe(0);
  }, 90_000);

  it('a capacity search with --json - also writes only its JSON to stdout, its lines to stderr', async () => {
    // A hub without the benchmark's methods: the search ends after its first step, in seconds.
    const run = await liveBench(['--find-capacity', '--endpoint', `${inject('hubHttpUrl')}/emptyhub`, '--connections', '4', '--ramp', 'rate', '--start', '10', '--step', '10', '--max', '20',
      '--step-duration', '3', '--settle', '1', '--workers', '1', '--quiet', '--json', '-']);
    const search = JSON.parse(run.stdout);
    expect(search.steps.length).toBeGreaterThan(0);
    expect(run.stderr, run.stderr).toMatch(/step 1 .*not judged/);
    expect(run.stdout).not.toMatch(/^step 1/m);
  }, 60_000);
});
