/** A finished run document made by the real engine and coordinator on a fake clock and fake hub. */
import { validateRunConfig, type RunConfig } from '../../core/run-config/config.ts';
import { type RunResult } from '../../core/result/result.ts';
import { runResult } from '../../core/result/document.ts';
import { fakeRun } from './fake-run.ts';
import type { FakeHubOptions } from './fake-connections.ts';

export function testConfig(overrides: Partial<RunConfig> = {}): RunConfig {
  const result = validateRunConfig({ endpointUrl: 'http://fake/signalrbench', connections: 4, workers: 1, sendIntervalMs: 100, durationSec: 3, ...overrides });
  if (!result.ok) throw new Error(result.errors.join('\n'));
  return result.config;
}

export async function finishedRun(overrides: Partial<RunConfig> = {}, hub: FakeHubOptions = { deliveryDelayMs: 5 }): Promise<RunResult> {
  const { time, coordinator } = fakeRun(testConfig(overrides), hub);
  coordinator.start();
  await time.advanceByMs(60_000);
  if (coordinator.phase !== 'done') throw new Error(`the fake run did not finish (phase ${coordinator.phase})`);
  return runResult(coordinator, new Date('2026-01-02T03:04:05.000Z'), 'test client');
}
