/**
 * How long the lead takes to validate, plan and size a 1,000,000-connection run (the guide's
 * Unit1000) over 133 two-thread agents, per scenario: the configuration's checks (which plan the
 * scenario), the split over 266 agent threads within what each engine holds, the sizing row, and
 * for send to connection the targets' derangement. Also what a lost worker's plan costs
 * (core/accounting/planned-receptions.ts): for one thread's share, and for every connection at once
 * (the lead lost the control hub: every agent thread is lost). Bench only; bundled and run by
 * `node bench/fleet-sim/fleet-sim.mjs --plan`.
 */
import { validateRunConfig } from '../../core/run-config/index.ts';
import { derangement, splitWithinCapacity } from '../../core/plan/index.ts';
import { plannedOfShare } from '../../core/accounting/index.ts';
import { sizingRow } from '../../core/sizing/index.ts';
import { ENGINE_CONNECTIONS } from '../../core/fleet/fleet-run.ts';

const CONNECTIONS = 1_000_000;
const THREADS = 266;
const DURATION_SEC = 60;
const ms = (since: number) => Math.round((performance.now() - since) * 10) / 10;

for (const scenario of ['echo', 'broadcast', 'smallGroup', 'bigGroup', 'sendToConnection'] as const) {
  const t0 = performance.now();
  const valid = validateRunConfig({ scenario, connections: CONNECTIONS, durationSec: DURATION_SEC, endpointUrl: 'http://hub:5180/signalrbench' });
  if (!valid.ok) throw new Error(valid.errors.join(' '));
  const validated = ms(t0);
  const t1 = performance.now();
  const shares = splitWithinCapacity(CONNECTIONS, new Array(THREADS).fill(ENGINE_CONNECTIONS));
  const split = ms(t1);
  const t2 = performance.now();
  const row = sizingRow(scenario, 'Unit1000');
  const sized = ms(t2);
  const t3 = performance.now();
  if (scenario === 'sendToConnection') derangement(CONNECTIONS, Math.random);
  const targets = ms(t3);
  const window = { runStartUs: 0, sendStartUs: 1_000_000, sendEndUs: 1_000_000 + DURATION_SEC * 1_000_000, warmupEndUs: 1_000_000 };
  const t4 = performance.now();
  plannedOfShare(valid.config, shares[0]!, window);
  const oneThread = ms(t4);
  const t5 = performance.now();
  plannedOfShare(valid.config, { firstIndex: 0, count: CONNECTIONS }, window);
  const everyone = ms(t5);
  console.log(JSON.stringify({ scenario, agents: row.agents, validatedMs: validated, splitMs: split, sizedMs: sized, targetsMs: targets, total: Math.round((validated + split + sized + targets) * 10) / 10, lostThreadPlanMs: oneThread, lostEveryonePlanMs: everyone }));
}
