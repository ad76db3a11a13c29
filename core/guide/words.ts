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
    `Unknown scenario "${p.scenario}"; use echo, broadcast, smallGroup, bigGroup, sendToConnection, restBroadcast or restSendToUser.`,
  /** A figure of the estimate out of range (`unit`: "bytes, e.g. 2048"); `value` as given. */
  notPositive: (p: { name: string; unit: string; value: string }) => `${p.name} must be a positive number of ${p.unit} (got ${p.value}).`,
  negative: (p: { name: string; value: string }) => `${p.name} must be a non-negative number (got ${p.value}).`,
  notWholeConnections: (p: { name: string; value: string }) => `${p.name} must be a whole number of connections above 0 (got ${p.value}).`,
  negativeRecipients: (p: { value: string }) => `recipientsPerMessage must be 0 or more, but is ${p.value}.`,
  /** The units requirePositive names, for people. */
  units: {
    messageBytes: 'bytes, e.g. 2048',
    sendIntervalMs: 'milliseconds, e.g. 1000 for one message per second',
    intervalMs: 'milliseconds, e.g. 1000',
    connections: 'a count of connections',
    bytesPerSecond: 'bytes per second',
    groupCount: 'a number of groups',
    groupSize: 'connections per group',
  },
  emptyWorkload: () => 'A workload needs at least one part (a scenario with its connections, message size and interval).',
  /** A bandwidth cell of the guide that is not "<number> KBps" or "<number> MBps". */
  unreadableBandwidth: (p: { text: string }) =>
    `Cannot read "${p.text}" as a guide bandwidth: expected "<number> KBps" or "<number> MBps" (bytes per second). ` +
    'Bit units such as "Mbps" or "MBit/s" are misprints in the guide; flag the cell instead.',
  /** Names the code passes that the editions do not hold: the tool's own bugs. */
  unknownEdition: (p: { id: string; editions: string }) => `Unknown guide edition "${p.id}"; use one of: ${p.editions}.`,
  unknownTier: (p: { tier: string; edition: string; tiers: string }) => `Unknown tier "${p.tier}" in the ${p.edition} edition; use one of: ${p.tiers}.`,
  noTable: (p: { edition: string; table: string; tables: string }) => `The ${p.edition} edition has no table "${p.table}"; it has: ${p.tables}.`,
  /** A computed rate below zero, formatted: a bug of the caller's. */
  negativeRate: (p: { value: number }) => `bytesPerSecond must be a non-negative number (got ${p.value}).`,
  /** An edition's JSON that does not hold together (validate.ts): the place to fix, then what is wrong. */
  tierMisnamed: (p: { file: string; tier: string }) => `${p.file}: tier "${p.tier}" must be named "Unit<units>" with matching units.`,
  tiersUnordered: (p: { file: string }) => `${p.file}: tiers must be listed in increasing units.`,
  noColumns: (p: { where: string }) => `${p.where}: lists no columns.`,
  badRowKey: (p: { where: string; key: string; pattern: string }) => `${p.where}: row "${p.key}" does not match ${p.pattern}.`,
  undeclaredColumn: (p: { where: string; key: string; column: string }) => `${p.where}.${p.key}: column "${p.column}" is not declared in "columns".`,
  notFinite: (p: { where: string; key: string; column: string; value: string }) => `${p.where}.${p.key}.${p.column}: must be a finite number, got ${p.value}.`,
  flagOnNothing: (p: { where: string; key: string; column: string }) => `${p.where}: flag on ${p.key}.${p.column} points at no published cell.`,
  flagIncomplete: (p: { where: string; key: string; column: string }) => `${p.where}: flag on ${p.key}.${p.column} needs a numeric formulaValue and a reason.`,
  /** An edition's JSON without its tables or tiers: the tool's own data, so its own bug. */
  notAnEdition: (p: { file: string }) => `${p.file}: not a guide edition (needs "tables" and "tiers"); regenerate or fix the file.`,
  /** A tier with no row of its own in a routing table: the row below stands in. */
  routingLowerBound: (p: { scenario: string; tier: string; basisTier: string; messagesPerSecond: string }) =>
    `No published ${p.scenario} row for ${p.tier}; using ${p.basisTier}'s ${p.messagesPerSecond} messages/s as a lower bound.`,
  /** Why a tier fails on routing (tier-fit.ts): no published rate, or the share of it the run needs. */
  noRoutingRate: (p: { scenario: string; tier: string }) => `the guide publishes no ${p.scenario} rate at or below ${p.tier}.`,
  routingShare: (p: { parts: readonly string[]; percent: string; tier: string }) =>
    `routing: ${p.parts.join(' plus ')} need ${p.percent}% of ${p.tier}'s published routing capacity.`,
  beyondAppServerTable: (p: { label: string; connections: string; edition: string; scenario: string; largestRow: string; largestConnections: string }) =>
    `${p.label}: ${p.connections} connections are beyond the ${p.edition} ${p.scenario} app-server table (largest row ${p.largestRow}, ${p.largestConnections}).`,
  appServersSummed: () =>
    'Recommended is the sum of the parts; the guide publishes no mixed-workload table, so the true need lies between the minimum and the sum.',
};
