/**
 * A run with agents, planned the same way by both leads: the dashboard (src/lib) and the
 * headless lead (cli/lead.ts). Which agents take part, whether the lead's own workers do, how
 * many connections each worker can hold, the clock round before "go", and how the ports are
 * ordered and given to the RunCoordinator: one place, so a fleet run splits, times and merges
 * alike whoever leads it.
 */
import { GO_LEAD_MS, type WorkerPort } from '../execution/index.ts';
import { capacityShortfall } from '../plan/index.ts';
import { isServerlessScenario } from '../guide/index.ts';
import { type RunAgent } from '../result/index.ts';
import { browserConnectionCapacity, capacityRefusal, type RunConfig } from '../run-config/index.ts';
import { MEASURED_AGENT } from '../sizing/index.ts';
import { formatCount } from '../format.ts';
import type { Fleet } from './fleet.ts';
import { FLEET_WORDS } from './words.ts';

/** Workers outside the lead's process that take part in a run: agents' threads. */
export interface RemoteWorkers {
  ports: WorkerPort[];
  agents: RunAgent[];
  /** Most connections each remote port can hold (null: no known limit), and each local worker's. */
  capacities: (number | null)[];
  localCapacities: (number | null)[];
  /** Whether the lead's own workers (the page's Web Workers, the runner's engines) take part too. */
  includeLocal: boolean;
  /** The run's end for its agents: a closing clock round (Fleet.closeRun); gives the agents with
   *  their end round, so their drift is known before the run's figures are final. */
  close?: (agents: RunAgent[]) => Promise<RunAgent[]>;
}

/** Time from "go" to the first send when agents take part: "go" crosses the control hub first. */
export const AGENT_GO_LEAD_MS = 1_000;

export interface FleetPlanOptions {
  /** Whether the lead's own workers take part beside the agents. */
  includeLocal: boolean;
  /** The lead is a browser (the dashboard): its workers share one browser's connection limits.
   *  The headless lead's engines have no such limit. */
  localIsBrowser: boolean;
  /** The control hub the agents' reports come through: a thread silent together with it is not
   *  blamed on the client (core/outcome/worker-loss.ts). */
  controlUrl: string;
}

/**
 * The agents' part of a run of `config` over the agents `agentIds` (each with its info), or why
 * the run cannot start: browsers (the lead's, and browser agents) hold only so many connections,
 * and an agent whose clock round got no answer cannot take part in a scenario that crosses
 * agents. Waits for a fresh clock round with every agent (at most CLOCK_ROUND_MAX_MS).
 */
export async function planFleetRun(
  fleet: Fleet,
  agents: readonly { id: string; info: { kind: 'node' | 'browser'; threads: number } }[],
  config: RunConfig,
  options: FleetPlanOptions,
): Promise<{ remote: RemoteWorkers } | { error: string }> {
  const { includeLocal, localIsBrowser, controlUrl } = options;
  const localWorkers = includeLocal ? config.workers : 0;
  // Refused at once when the browsers cannot hold it, before any round trip.
  const before = fitOf(config, agents.map((agent) => agent.info), localWorkers, localIsBrowser);
  if (typeof before === 'string') return { error: before };
  const prepared = await fleet.prepareRun(agents.map((agent) => agent.id), localWorkers, config.scenario);
  if ('error' in prepared) return prepared;
  const isRunHub = isRunHubOf(controlUrl, config);
  const ports = prepared.ports.map((port): WorkerPort => ({ ...port, relay: () => ({ url: controlUrl, isRunHub, quietMs: fleet.quietMs() }) }));
  const runAgents = prepared.agents;
  // Agents that left during the round are not in it; those left must still hold the run.
  // None left and no worker of the lead's: nothing would run, whatever the capacities say.
  const fit = ports.length === 0 && !includeLocal ? FLEET_WORDS.nobodyLeft() : fitOf(config, runAgents, localWorkers, localIsBrowser);
  if (typeof fit === 'string') {
    for (const port of ports) port.terminate();
    return { error: fit };
  }
  return { remote: { ports, agents: runAgents, includeLocal, ...fit, close: (closing) => fleet.closeRun(closing) } };
}

/** Whether the control hub is served by one of the run's hubs (the same origin: one process). */
export function isRunHubOf(controlUrl: string, config: Pick<RunConfig, 'endpointUrl' | 'endpointUrls'>): boolean {
  const origin = (url: string) => {
    try {
      return new URL(url).origin;
    } catch {
      return null;
    }
  };
  const control = origin(controlUrl);
  return control !== null && [config.endpointUrl, ...(config.endpointUrls ?? [])].some((url) => origin(url) === control);
}

/** The RunCoordinator's ports and options for a run: the lead's own workers first, then the
 *  agents' threads (their indices were given from the local count on), each with its capacity,
 *  and the longer lead time "go" needs to cross the control hub. */
export function fleetRunPorts(local: readonly WorkerPort[], remote: RemoteWorkers | undefined): { ports: WorkerPort[]; goLeadMs: number; capacities?: (number | null)[] } {
  if (!remote) return { ports: [...local], goLeadMs: GO_LEAD_MS };
  return {
    ports: [...local, ...remote.ports],
    goLeadMs: remote.ports.length > 0 ? AGENT_GO_LEAD_MS : GO_LEAD_MS,
    capacities: [...local.map((_, w) => remote.localCapacities[w] ?? null), ...remote.capacities],
  };
}

/** What one engine of a headless runner holds (an agent's thread, an engine of a headless lead):
 *  the most one was measured to hold (core/sizing MEASURED_AGENT), as a browser holds its 255. */
export const ENGINE_CONNECTIONS = MEASURED_AGENT.connectionsHeldPerEngine;

/** Each worker's capacity, or why the engines and browsers of the fleet cannot hold the run. A
 *  REST scenario's engines hold the connection string's AccessKey, which no browser is given. */
function fitOf(config: RunConfig, agents: readonly { kind: 'node' | 'browser'; threads: number }[], localWorkers: number, localIsBrowser: boolean): { capacities: (number | null)[]; localCapacities: (number | null)[] } | string {
  const browserAgents = agents.filter((agent) => agent.kind === 'browser').length;
  if (isServerlessScenario(config.scenario) && browserAgents > 0) return FLEET_WORDS.restBrowserAgents({ count: browserAgents });
  const browserCapacity = browserConnectionCapacity(config.transport, config.endpointUrl);
  const capacities = agents.flatMap((agent) => (agent.kind === 'browser' ? perThread(browserCapacity, agent.threads) : new Array<number>(agent.threads).fill(ENGINE_CONNECTIONS)));
  const localCapacities = localIsBrowser ? perThread(browserCapacity, localWorkers) : new Array<number>(localWorkers).fill(ENGINE_CONNECTIONS);
  const shortfall = capacityShortfall(config.connections, [...localCapacities, ...capacities]);
  if (shortfall <= 0) return { capacities, localCapacities };
  const engines = agents.filter((agent) => agent.kind === 'node').reduce((sum, agent) => sum + agent.threads, localIsBrowser ? 0 : localWorkers);
  if (engines === 0) return capacityRefusal(config.transport, config.connections, config.connections - shortfall, browserCapacity);
  const browsers = agents.filter((agent) => agent.kind === 'browser').length + (localIsBrowser && localWorkers > 0 ? 1 : 0);
  return FLEET_WORDS.fleetTooSmall({ engines, browsers, transport: config.transport, capacity: formatCount(config.connections - shortfall), connections: formatCount(config.connections), perEngine: formatCount(ENGINE_CONNECTIONS), browserCapacity: formatCount(browserCapacity), moreEngines: Math.ceil(shortfall / ENGINE_CONNECTIONS) });
}

/** A browser's capacity shared by its workers (the first ones take the remainder). */
function perThread(capacity: number, threads: number): number[] {
  return Array.from({ length: threads }, (_, t) => Math.floor(capacity / threads) + (t < capacity % threads ? 1 : 0));
}
