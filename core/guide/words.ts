/**
 * The guide room's words: what is wrong with the settings a guide estimate is asked for, what the
 * guide's tables do not cover, and the notes that come with a tier's advice. The formulas and the
 * fitting (capacity-formulas.ts, tier-fit.ts, appServers.ts, workload.ts) name the case and its values; only this
 * file writes prose. Figures arrive formatted by the caller (trimNumber in units.ts, which itself
 * words its errors here, so this file imports nothing). Pure.
 */
export const GUIDE_WORDS = {
  /** Senders or a group larger than the run (`what`: "senders", "Row 2: group size"). One sentence
   *  for the estimate's check and the tier finder's, which says it before the estimate is asked. */
  aboveConnections: (p: { what: string; value: string; connections: string }) =>
    `${p.what} (${p.value}) cannot exceed connections (${p.connections}); lower it or add connections.`,
  unknownScenario: (p: { scenario: string }) =>
    `Unknown scenario "${p.scenario}"; use echo, broadcast, smallGroup, bigGroup or sendToConnection.`,
  emptyWorkload: () => 'A workload needs at least one part (a scenario with its connections, message size and interval).',
  /** A bandwidth cell of the guide that is not "<number> KBps" or "<number> MBps". */
  unreadableBandwidth: (p: { text: string }) =>
    `Cannot read "${p.text}" as a guide bandwidth: expected "<number> KBps" or "<number> MBps" (bytes per second). ` +
    'Bit units such as "Mbps" or "MBit/s" are misprints in the guide; flag the cell instead.',
  /** An edition's JSON without its tables or tiers: the tool's own data, so its own bug. */
  notAnEdition: (p: { file: string }) => `${p.file}: not a guide edition (needs "tables" and "tiers"); regenerate or fix the file.`,
  /** A tier with no row of its own in a routing table: the row below stands in. */
  routingLowerBound: (p: { scenario: string; tier: string; basisTier: string; messagesPerSecond: string }) =>
    `No published ${p.scenario} row for ${p.tier}; using ${p.basisTier}'s ${p.messagesPerSecond} messages/s as a lower bound.`,
  beyondAppServerTable: (p: { label: string; connections: string; edition: string; scenario: string; largestRow: string; largestConnections: string }) =>
    `${p.label}: ${p.connections} connections are beyond the ${p.edition} ${p.scenario} app-server table (largest row ${p.largestRow}, ${p.largestConnections}).`,
  appServersSummed: () =>
    'Recommended is the sum of the parts; the guide publishes no mixed-workload table, so the true need lies between the minimum and the sum.',
};
