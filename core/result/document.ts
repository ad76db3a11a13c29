/**
 * A run's document as every host makes it: the figures (result.ts runDocument) and the diagnosis
 * made from them (run-evidence.ts, core/diagnosis), so the runner, the page and the capacity
 * search keep the same "why" with the same figures.
 */
import { diagnose } from '../diagnosis/index.ts';
import { runDocument, type ReusedPoints, type RunAgent, type RunResult } from './result.ts';
import { evidenceOfRun, type EvidenceContext } from './run-evidence.ts';
import type { RunCoordinator } from '../execution/index.ts';
import type { ServerMetricsRecord } from '../server-metrics/index.ts';

/** A run as one document (result.ts runDocument), with its diagnosis made from it. */
export function runResult(coordinator: RunCoordinator, startedAt: Date, client: string, agents?: RunAgent[], server?: ServerMetricsRecord | null, reuse?: ReusedPoints, context: EvidenceContext = {}): RunResult {
  const read = runDocument(coordinator, startedAt, client, agents, server, reuse);
  const result = context.health && context.health.length > 0 ? { ...read, health: context.health } : read;
  return { ...result, diagnosis: diagnose(evidenceOfRun(result, { hasToken: coordinator.hasToken, ...context })) };
}

