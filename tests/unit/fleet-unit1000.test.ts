/**
 * Unit1000 on paper, as one run: a 1,000,000-connection configuration is accepted in every
 * scenario, split over the sized fleet's threads within what one engine was measured to hold, and
 * sized; one connection more is refused. It completes here; how long it takes is bench/'s
 * (`node bench/fleet-sim/fleet-sim.mjs --plan`, bench/FLEET-RESULTS.md).
 */
import { describe, expect, it } from 'vitest';
import { MAX_RUN_CONNECTIONS, validateRunConfig } from '../../core/run-config/config.ts';
import { planScenario, splitWithinCapacity } from '../../core/plan/index.ts';
import { MEASURED_AGENT, sizingRow } from '../../core/sizing/index.ts';
import { ENGINE_CONNECTIONS } from '../../core/fleet/fleet-run.ts';

const endpointUrl = 'http://hub:5180/signalrbench';

describe('a 1,000,000-connection run', () => {
  it.each(['echo', 'broadcast', 'smallGroup', 'bigGroup', 'sendToConnection'] as const)('%s: validated, planned, split over the sized fleet\'s threads, each within one engine\'s measured hold', (scenario) => {
    const valid = validateRunConfig({ scenario, connections: 1_000_000, durationSec: 60, endpointUrl });
    if (!valid.ok) throw new Error(valid.errors.join(' '));
    const plan = planScenario(valid.config);
    expect(plan.ok).toBe(true);
    const row = sizingRow(scenario, 'Unit1000');
    expect(row.connections).toBe(1_000_000);
    const threads = row.agents! * MEASURED_AGENT.threadsPerAgent;
    const shares = splitWithinCapacity(1_000_000, new Array(threads).fill(ENGINE_CONNECTIONS));
    expect(shares.reduce((sum, share) => sum + share.count, 0)).toBe(1_000_000);
    expect(Math.max(...shares.map((share) => share.count))).toBeLessThanOrEqual(ENGINE_CONNECTIONS);
    expect(shares.at(-1)!.firstIndex + shares.at(-1)!.count).toBe(1_000_000);
  });

  it('the echo fleet is 133 agents; 1,000,001 connections are refused with the bound', () => {
    expect(MAX_RUN_CONNECTIONS).toBe(1_000_000);
    expect(sizingRow('echo', 'Unit1000').agents).toBe(133);
    const over = validateRunConfig({ connections: 1_000_001, endpointUrl });
    expect(over.ok).toBe(false);
    if (!over.ok) expect(over.errors[0]).toMatch(/^Connections must be a whole number from 1 to 1,000,000, but is 1000001\./);
  });
});
