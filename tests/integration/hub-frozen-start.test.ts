/**
 * A hub frozen (SIGSTOP) before the run starts gets a quick answer: a 5-s run of 2,000
 * connections ends with exit 3 within a bound, the stall named. The bound is on the runner's
 * own speed at opening 2,000 connects, so this file runs alone (scripts/test-groups.mjs).
 */
import { describe, expect, it } from 'vitest';
import { startHub } from '../support/hub-process.ts';
import { liveBench } from '../support/live-bench.ts';

describe('a hub frozen before the run', () => {
  it('a 5-s run of 2,000 connections ends with exit 3 in under 18 s, the stall named', async () => {
    const hub = await startHub();
    try {
      hub.process.kill('SIGSTOP');
      const run = await liveBench(['--endpoint', `${hub.httpUrl}/signalrbench`, '--connections', '2000', '--duration', '5', '--quiet']);
      expect(run.code, run.stderr).toBe(3);
      // FIRST_ANSWER_MS (12 s: a fresh hub on a loaded machine gets a second chance) decides;
      // before, two waves of 15-s connect timeouts took 30 s.
      expect(run.elapsedMs).toBeLessThan(18_000);
      expect(run.stderr).toMatch(/no connection has opened after 3 s of connecting; the connects are still waiting for .* to answer\. The hub may be stalled/);
      expect(run.stderr).toMatch(/nothing could be measured: no connection could be opened\. .*no connect answered within 12 s and none opened: the hub is stalled or not answering/);
    } finally {
      hub.process.kill('SIGCONT');
      await hub.stop();
    }
  }, 60_000);
});
