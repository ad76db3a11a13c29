/**
 * How big a fleet of runner agents a load of the guide needs, on paper: agents, cores and memory
 * for each scenario's Unit1, Unit10, Unit100 and Unit1000 rows (the current edition's tables), the
 * control hub's messages per second at that fleet size, and whether one control hub carries it.
 *
 * The per-agent figures are inputs (MEASURED_AGENT): raise them when a runner is measured to
 * hold more, and the table follows (docs/sizing.md is this module's output, checked by its test).
 */
import { cell, scenarioTable, type Scenario } from '../guide/index.ts';
import { SIZING_WORDS } from './words.ts';

/** What one runner agent holds, measured. */
export interface AgentFigures {
  /** WebSocket connections one agent holds with the guide's rule met. */
  connectionsPerAgent: number;
  /** The most connections one engine (a worker thread or engine process of a headless runner) was
   *  measured to hold with the guide's rule met: a fleet run gives no agent thread, and no engine
   *  of a headless lead, more (core/fleet/fleet-run.ts), as a browser gets no more than it holds. */
  connectionsHeldPerEngine: number;
  /** Messages one agent sends plus receives per second with the guide's rule met. */
  messagesPerSecondPerAgent: number;
  /** Resident memory per connection, KB, the process's baseline included. */
  memoryPerConnectionKB: number;
  /** Cores and worker threads of the agent measured. */
  coresPerAgent: number;
  threadsPerAgent: number;
  /** Where the figures come from, for the table's caption. */
  source: string;
}

/** One 2-core runner today (bench/RESULTS.md): 25,000 WebSocket connections held with its engines in
 *  two processes (`--engines processes`, past one process's 20,000 open files), nothing lost, p99
 *  218-757 ms in every run of 2026-11-28 (load 1-6), at 638-652 MB of peak RSS (26 KB each); and
 *  7,570 msg/s received (with as many sent) by its rate search. The guide's 1 s is near at 25,000
 *  (the client lagging 0.2-0.5 s at worst), so a row plans 20,000 per agent. */
export const MEASURED_AGENT: AgentFigures = {
  connectionsPerAgent: 20_000,
  connectionsHeldPerEngine: 12_500,
  messagesPerSecondPerAgent: 2 * 7_570,
  memoryPerConnectionKB: 26,
  coresPerAgent: 2,
  threadsPerAgent: 2,
  source: SIZING_WORDS.measuredSource(),
};

/** What the control hub does per agent thread and second: one snapshot up from the thread to the
 *  hub (ToDashboard) and the same relayed down to the lead (FromAgent). Snapshots are posted once a
 *  second by every engine thread (workers/engine/bench-engine.ts #scheduleReport). */
export const CONTROL_MESSAGES_PER_THREAD_SECOND = 2;

/** The most agents one control session takes: the hub-sample's MaxAgentsPerSession default and
 *  the lead's --agents bound (cli/lead-args.ts MAX_AGENTS). */
export const MAX_AGENTS_PER_SESSION = 256;

export const SIZING_SCENARIOS: readonly Scenario[] = ['echo', 'broadcast', 'smallGroup', 'bigGroup', 'sendToConnection'];
export const SIZING_TIERS = ['Unit1', 'Unit10', 'Unit100', 'Unit1000'] as const;

export interface SizingRow {
  scenario: Scenario;
  tier: string;
  /** The guide's row; null where the edition publishes none (send to connection has no Unit10). */
  connections: number | null;
  /** Messages per second the clients send (the service's inbound) and receive (its outbound). */
  clientSendsPerSecond: number | null;
  clientReceivesPerSecond: number | null;
  agents: number | null;
  /** Which per-agent figure sets the count. */
  limitedBy: 'connections' | 'messages' | null;
  cores: number | null;
  memoryGB: number | null;
  /** Snapshots a second from every agent thread, and the control hub's messages a second. */
  snapshotsPerSecond: number | null;
  controlMessagesPerSecond: number | null;
  /** One session on one control hub holds the fleet (MAX_AGENTS_PER_SESSION). */
  oneControlHub: boolean | null;
}

/** The fleet for one scenario and tier of the current edition. */
export function sizingRow(scenario: Scenario, tier: string, agent: AgentFigures = MEASURED_AGENT): SizingRow {
  const table = scenarioTable('current', scenario);
  const value = (column: 'connections' | 'inboundMessagesPerSecond' | 'outboundMessagesPerSecond') => (table.rows[tier] ? cell(table, tier, column).value : null);
  const connections = value('connections');
  const sends = value('inboundMessagesPerSecond');
  const receives = value('outboundMessagesPerSecond');
  if (connections === null || sends === null || receives === null) {
    return { scenario, tier, connections, clientSendsPerSecond: sends, clientReceivesPerSecond: receives, agents: null, limitedBy: null, cores: null, memoryGB: null, snapshotsPerSecond: null, controlMessagesPerSecond: null, oneControlHub: null };
  }
  const byConnections = Math.ceil(connections / agent.connectionsPerAgent);
  const byMessages = Math.ceil((sends + receives) / agent.messagesPerSecondPerAgent);
  const agents = Math.max(1, byConnections, byMessages);
  const snapshotsPerSecond = agents * agent.threadsPerAgent;
  return {
    scenario,
    tier,
    connections,
    clientSendsPerSecond: sends,
    clientReceivesPerSecond: receives,
    agents,
    limitedBy: byMessages > byConnections ? 'messages' : 'connections',
    cores: agents * agent.coresPerAgent,
    memoryGB: (connections * agent.memoryPerConnectionKB) / 1_000_000,
    snapshotsPerSecond,
    controlMessagesPerSecond: snapshotsPerSecond * CONTROL_MESSAGES_PER_THREAD_SECOND,
    oneControlHub: agents <= MAX_AGENTS_PER_SESSION,
  };
}

/** Every scenario's Unit1, Unit10, Unit100 and Unit1000 fleet. */
export function sizingTable(agent: AgentFigures = MEASURED_AGENT): SizingRow[] {
  return SIZING_SCENARIOS.flatMap((scenario) => SIZING_TIERS.map((tier) => sizingRow(scenario, tier, agent)));
}

const count = (n: number | null) => (n === null ? '–' : n.toLocaleString('en-US'));

/** The table as Markdown, for docs/sizing.md. */
export function sizingMarkdown(agent: AgentFigures = MEASURED_AGENT): string {
  const head = SIZING_WORDS.tableHead();
  const rule = '|---|---|---:|---:|---:|---:|---|---:|---:|---:|---:|---|';
  const rows = sizingTable(agent).map((r) =>
    `| ${r.scenario} | ${r.tier} | ${count(r.connections)} | ${count(r.clientSendsPerSecond)} | ${count(r.clientReceivesPerSecond)} | ${count(r.agents)} | ${r.limitedBy ?? '–'} | ${count(r.cores)} | ${r.memoryGB === null ? '–' : r.memoryGB.toFixed(r.memoryGB < 10 ? 1 : 0)} | ${count(r.snapshotsPerSecond)} | ${count(r.controlMessagesPerSecond)} | ${r.oneControlHub === null ? '–' : r.oneControlHub ? 'yes' : `no (over ${MAX_AGENTS_PER_SESSION} agents)`} |`,
  );
  return [head, rule, ...rows].join('\n');
}
