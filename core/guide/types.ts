// Shapes of the guide data in ./data/*.json. The JSON is the source of truth; these types only
// describe it so the UI, workers and Node code get checked access (see tables.ts).

/** '2019': the 2019 edition (Unit1-Unit100). 'current': the current edition (Unit1-Unit1000). */
export type EditionId = '2019' | 'current';

/** The five default-mode traffic patterns of the guide's case study. */
export type Scenario = 'echo' | 'broadcast' | 'smallGroup' | 'bigGroup' | 'sendToConnection';

/** The two serverless-mode patterns: clients hold WebSockets to the service, and messages come in
 *  through its REST API (an HTTP POST each) rather than from a hub connection. */
export type ServerlessScenario = 'restBroadcast' | 'restSendToUser';

/** Every scenario the guide publishes a case-study table for, default and serverless mode. */
export type GuideScenario = Scenario | ServerlessScenario;

/** Scenarios whose message rate is capped by the service's routing cost, not by bandwidth. */
export type RoutingScenario = 'smallGroup' | 'sendToConnection';

export type TableName =
  | 'quickEvaluationEcho'
  | 'quickEvaluationBroadcast'
  | Scenario
  | `${Scenario}AppServers`
  | 'aspNetEchoAppServers'
  | 'aspNetBroadcastAppServers'
  | 'aspNetSmallGroupAppServers'
  | ServerlessScenario;

/** Column names carry their unit; every value is a plain number. */
export type ColumnName =
  | 'connections'
  | 'groupSize'
  | 'groupCount'
  | 'inboundMessagesPerSecond'
  | 'outboundMessagesPerSecond'
  | 'inboundBytesPerSecond'
  | 'outboundBytesPerSecond'
  | 'appServers'
  | 'messageBytes'
  | 'sendIntervalMs'
  | 'concurrentInboundMessages';

/**
 * Why a published cell is flagged. 'formula': it disagrees with the guide's formula applied to the
 * other cells of its row. 'definition': it disagrees with a definition stated in the text.
 * 'limit': it exceeds a tier limit the guide says not to exceed. 'unit': the unit is misprinted.
 */
export type FlagKind = 'formula' | 'definition' | 'limit' | 'unit';

export interface CellFlag {
  kind: FlagKind;
  /** What the guide's own formula, definition or limit gives for this cell (same unit as the cell). */
  formulaValue: number;
  /** One line: what the formula gives and why the published value disagrees. */
  reason: string;
}

export type Row = Partial<Record<ColumnName, number>>;

export interface GuideTable {
  title: string;
  /** Section path in the guide (English headings). */
  section: string;
  /** The section's anchor in the guide. */
  anchor: string;
  scenario: string;
  kind: 'quickEvaluation' | 'performance' | 'appServers' | 'aspNetAppServers' | 'serverless' | 'workedExample';
  note?: string;
  /** Column name -> unit, for every column the rows use. */
  columns: Partial<Record<ColumnName, string>>;
  /** Rows keyed by tier name ("Unit1"...), or by case ("case1") in the worked example; in published order. */
  rows: Record<string, Row>;
  /** The bandwidth (or size/interval) cells as printed, e.g. "2 MBps". */
  publishedText?: Record<string, Partial<Record<ColumnName, string>>>;
  flags?: Record<string, Partial<Record<ColumnName, CellFlag>>>;
}

export interface WorkedExample extends GuideTable {
  kind: 'workedExample';
  /** The tier whose limit the example uses. */
  tier: string;
  calculation: { published: string; formula: string; outboundBytesPerSecond: number };
}

export interface Tier {
  name: string;
  units: number;
  /** The current edition: units above 100 need the Premium_P2 SKU. */
  requiresPremiumP2: boolean;
}

/** When a caveat applies; every condition present must hold, an empty object means always. */
export interface CaveatCondition {
  /** Some part of the workload uses one of these scenarios. */
  scenarios?: Scenario[];
  /** ...and (with scenarios: that same part) delivers each message to fewer connections than this. */
  recipientsPerMessageBelow?: number;
  /** The fitting tier has at least this many units (or no tier fits). */
  minTierUnits?: number;
  /** The fitting tier has more than this many units (or no tier fits). */
  aboveTierUnits?: number;
  /** Some part sends messages smaller than this many bytes. */
  messageBytesBelow?: number;
  /** true: applies only when no tier fits; false: only when one does. */
  noTierFits?: boolean;
}

export interface Caveat {
  id: string;
  section: string;
  text: string;
  when: CaveatCondition;
}

export interface SeedFile {
  file: string;
  language: string;
  translation: string;
  msDate: string | null;
  note: string;
}

export interface GuideEdition {
  source: {
    title: string;
    edition: EditionId;
    docsPath: string;
    msDate: string | null;
    seedFiles: SeedFile[];
    valuesFrom: string;
    tiersNote: string;
  };
  units: { bytesPerKB: number; bytesPerMB: number; why: string };
  defaults: {
    messageBytes: number;
    sendIntervalMs: number;
    transport: string;
    serviceMode: string;
    smallMessageFloorBytes: number;
    smallMessageRule: string;
    latencyRule: { shareOfMessages: number; underMs: number; text: string };
    benchmarkDurationMinutes: number;
    serverConnectionsPerAppServer: { sdkDefault: number; benchmark: number; recommendedForBroadcastAndBigGroup: number };
    smallGroupSize: number;
    bigGroupCount: number;
    broadcastMaxSenders: number;
    bigGroupMaxSenders: number;
  };
  tiers: Tier[];
  testEnvironment: Record<string, string | number>;
  tables: Partial<Record<TableName, GuideTable>>;
  workedExample: WorkedExample;
  caveats: Caveat[];
}

/** Expected inbound/outbound messages and bytes per second of a run (core/guide/capacity-formulas.ts). */
export interface ExpectedTraffic extends TrafficRates {
  scenario: GuideScenario;
  connections: number;
  senders: number;
  /** Connections each message is delivered to: 1 (echo, sendToConnection), all, or the group size. */
  recipientsPerMessage: number;
  messageBytes: number;
  /** max(messageBytes, 1,024): the size the service's limits are compared with. */
  effectiveMessageBytes: number;
}

/** Messages and bytes per second into and out of the service. */
export interface TrafficRates {
  inboundMessagesPerSecond: number;
  outboundMessagesPerSecond: number;
  inboundBytesPerSecond: number;
  outboundBytesPerSecond: number;
  /** Bandwidth counting messages under 1,024 B as 1,024 B: what the tier limits are compared with. */
  effectiveInboundBytesPerSecond: number;
  effectiveOutboundBytesPerSecond: number;
}
