// Suggested app-server counts from the guide's app-server tables (ASP.NET Core SignalR, default
// mode). The tables were measured with each scenario alone at a tier's full connection count.
import type { EditionId, GuideScenario, Scenario } from './types.ts';
import { appServerTable, cell, isServerlessScenario, rowKeys } from './tables.ts';
import { trimNumber } from './units.ts';
import { GUIDE_WORDS } from './words.ts';

export interface PartAppServers {
  label: string;
  scenario: Scenario;
  connections: number;
  /** The table row used: the smallest whose connections cover the part; null when none does. */
  basisTier: string | null;
  appServers: number | null;
}

export interface AppServerAdvice {
  perPart: PartAppServers[];
  /**
   * Sum over parts: each part alone needs its table count, so the sum never under-provisions
   * (the guide's aim: the app server must not be the bottleneck). Null if a part is off the table.
   */
  recommended: number | null;
  /** The largest single part's count: fewer servers than this contradicts a table outright. */
  minimum: number | null;
  notes: string[];
}

/** App servers the guide suggests for one part (scenario + connections). */
export function appServersForPart(id: EditionId, label: string, scenario: Scenario, connections: number): PartAppServers {
  const source = appServerTable(id, scenario);
  const basisTier = rowKeys(source).find((key) => cell(source, key, 'connections').value >= connections) ?? null;
  const appServers = basisTier === null ? null : cell(source, basisTier, 'appServers').value;
  return { label, scenario, connections, basisTier, appServers };
}

/** Sums the per-part app-server counts of a workload. Serverless parts have no app server: the
 *  clients hold their connections with the service and the sends come through its REST API. */
export function appServerAdvice(
  id: EditionId,
  parts: ReadonlyArray<{ label: string; scenario: GuideScenario; connections: number }>,
): AppServerAdvice {
  const withServers = parts.flatMap((p) => (isServerlessScenario(p.scenario) ? [] : [{ ...p, scenario: p.scenario }]));
  const perPart = withServers.map((p) => appServersForPart(id, p.label, p.scenario, p.connections));
  const notes: string[] = [];
  const missing = perPart.filter((p) => p.appServers === null);
  for (const p of missing) {
    const source = appServerTable(id, p.scenario);
    const largest = rowKeys(source).at(-1) ?? '';
    const maxConnections = cell(source, largest, 'connections').value;
    notes.push(GUIDE_WORDS.beyondAppServerTable({ label: p.label, connections: trimNumber(p.connections), edition: id, scenario: p.scenario, largestRow: largest, largestConnections: trimNumber(maxConnections) }));
  }
  const counts = perPart.map((p) => p.appServers ?? 0);
  const known = missing.length === 0 && perPart.length > 0;
  if (perPart.length > 1) {
    notes.push(GUIDE_WORDS.appServersSummed());
  }
  return {
    perPart,
    recommended: known ? counts.reduce((a, b) => a + b, 0) : null,
    minimum: known ? Math.max(...counts) : null,
    notes,
  };
}
