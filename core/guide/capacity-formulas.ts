// The guide's capacity formulas ("Quick evaluation") and the traffic a benchmark run is expected to
// produce. The guide states, for the bandwidth B, connections N, message size S and interval T:
//   inboundBandwidth  = inboundConnections  * messageSize / sendInterval
//   outboundBandwidth = outboundConnections * messageSize / sendInterval
// and "a small message of less than 1,024 bytes has a performance impact similar to a 1,024-byte
// message" -- so for capacity we count such messages as 1,024 B (the raw bytes are reported too).
import type { EditionId, ExpectedTraffic, GuideScenario } from './types.ts';
import { EDITIONS } from './tables.ts';
import { demandFromTraffic, fitEdition, type EditionFit } from './tier-fit.ts';
import { BenchError } from '../errors/index.ts';
import { GUIDE_WORDS } from './words.ts';

const MS_PER_SECOND = 1000;
/** Messages under this size cost like one of this size (the guide: "similar to a 1,024-byte message"). */
export const SMALL_MESSAGE_FLOOR_BYTES = 1024;

/** The size a message costs the service: its size, but at least 1,024 B. */
export function effectiveMessageBytes(messageBytes: number): number {
  requirePositive('messageBytes', messageBytes, GUIDE_WORDS.units.messageBytes);
  return Math.max(messageBytes, SMALL_MESSAGE_FLOOR_BYTES);
}

/** bandwidth = connections * messageBytes / sendInterval, in bytes per second. */
export function bandwidthBytesPerSecond(p: { connections: number; messageBytes: number; sendIntervalMs: number }): number {
  requireNonNegative('connections', p.connections);
  requirePositive('messageBytes', p.messageBytes, GUIDE_WORDS.units.messageBytes);
  requirePositive('sendIntervalMs', p.sendIntervalMs, GUIDE_WORDS.units.sendIntervalMs);
  return (p.connections * p.messageBytes * MS_PER_SECOND) / p.sendIntervalMs;
}

/** Solves the formula for connections (not rounded: floor it for a maximum connection count). */
export function connectionsFor(p: { bytesPerSecond: number; messageBytes: number; sendIntervalMs: number }): number {
  requireNonNegative('bytesPerSecond', p.bytesPerSecond);
  requirePositive('messageBytes', p.messageBytes, GUIDE_WORDS.units.messageBytes);
  requirePositive('sendIntervalMs', p.sendIntervalMs, GUIDE_WORDS.units.intervalMs);
  return (p.bytesPerSecond * p.sendIntervalMs) / MS_PER_SECOND / p.messageBytes;
}

/** Solves the formula for the message size in bytes. */
export function messageBytesFor(p: { bytesPerSecond: number; connections: number; sendIntervalMs: number }): number {
  requireNonNegative('bytesPerSecond', p.bytesPerSecond);
  requirePositive('connections', p.connections, GUIDE_WORDS.units.connections);
  requirePositive('sendIntervalMs', p.sendIntervalMs, GUIDE_WORDS.units.intervalMs);
  return (p.bytesPerSecond * p.sendIntervalMs) / MS_PER_SECOND / p.connections;
}

/** Solves the formula for the send interval in milliseconds. */
export function sendIntervalMsFor(p: { bytesPerSecond: number; connections: number; messageBytes: number }): number {
  requirePositive('bytesPerSecond', p.bytesPerSecond, GUIDE_WORDS.units.bytesPerSecond);
  requireNonNegative('connections', p.connections);
  requirePositive('messageBytes', p.messageBytes, GUIDE_WORDS.units.messageBytes);
  return (p.connections * p.messageBytes * MS_PER_SECOND) / p.bytesPerSecond;
}

/** A benchmark run's configuration. */
export interface GuideRunConfig {
  /** Traffic pattern, as in the guide's case study (default or serverless mode). */
  scenario: GuideScenario;
  /** Client connections in the run (count, > 0). No default. */
  connections: number;
  /**
   * Connections that send (count, 1..connections). Default: every connection for echo, smallGroup,
   * sendToConnection and restSendToUser; 1 for broadcast, bigGroup and restBroadcast (the guide
   * used at most 4 and 40 senders, and 2 REST broadcasts a second).
   */
  senders?: number;
  /**
   * Connections per group (count, 1..connections); smallGroup and bigGroup only. Default: 10 for
   * smallGroup (the guide's small group); connections / groupCount (an average) for bigGroup.
   */
  groupSize?: number;
  /**
   * Number of groups (count, >= 1); smallGroup and bigGroup only. Default: 10 for bigGroup (the
   * guide's big group); connections / groupSize for smallGroup. Informational for smallGroup.
   */
  groupCount?: number;
  /** Average message size in bytes (> 0). No default; the guide's default is 2,048. */
  messageBytes: number;
  /** Milliseconds between two messages of one sender (> 0). No default; the guide's is 1,000. */
  sendIntervalMs: number;
  /**
   * Connections each message reaches, averaged over the senders (>= 0), when the run's delivery
   * says it (a hub profile's: others leave the sender out, a list reaches its listed receivers).
   * Default: the scenario's (1, every connection, or the group size).
   */
  recipientsPerMessage?: number;
}

/** The traffic a run puts through the service, per second. */

/** Expected inbound/outbound messages and bytes per second of a run. Throws a BenchError (badInput)
 *  on invalid settings: the tier finder passes what a person typed. */
export function expectedTraffic(config: GuideRunConfig): ExpectedTraffic {
  const { scenario, connections, messageBytes, sendIntervalMs } = config;
  requireWholePositive('connections', connections);
  const senders = config.senders ?? defaultSenders(scenario, connections);
  requireWholePositive('senders', senders);
  if (senders > connections) {
    throw new BenchError('badInput', GUIDE_WORDS.aboveConnections({ what: 'senders', value: String(senders), connections: String(connections) }));
  }
  const recipientsPerMessage = recipientsOf(config);
  // The formula's "outbound connections" are deliveries per interval: every sender's message
  // reaches recipientsPerMessage connections (the guide's broadcast: 2 senders x 1,000 = 4 MBps).
  const deliveries = senders * recipientsPerMessage;
  const effectiveBytes = effectiveMessageBytes(messageBytes);
  const rate = (count: number, bytes: number) => bandwidthBytesPerSecond({ connections: count, messageBytes: bytes, sendIntervalMs });
  return {
    scenario,
    connections,
    senders,
    recipientsPerMessage,
    messageBytes,
    effectiveMessageBytes: effectiveBytes,
    inboundMessagesPerSecond: (senders * MS_PER_SECOND) / sendIntervalMs,
    outboundMessagesPerSecond: (deliveries * MS_PER_SECOND) / sendIntervalMs,
    inboundBytesPerSecond: rate(senders, messageBytes),
    outboundBytesPerSecond: rate(deliveries, messageBytes),
    effectiveInboundBytesPerSecond: rate(senders, effectiveBytes),
    effectiveOutboundBytesPerSecond: rate(deliveries, effectiveBytes),
  };
}

/** For each edition (default both), the smallest tier the run fits and why every other tier fails. */
export function fitRun(config: GuideRunConfig, editions: readonly EditionId[] = EDITIONS): Record<EditionId, EditionFit> {
  const demand = demandFromTraffic([expectedTraffic(config)]);
  const result: Partial<Record<EditionId, EditionFit>> = {};
  for (const id of editions) result[id] = fitEdition(id, demand);
  return result as Record<EditionId, EditionFit>;
}

function defaultSenders(scenario: GuideScenario, connections: number): number {
  // Broadcast and big-group runs have few senders in the guide; one is the smallest sensible run.
  return scenario === 'broadcast' || scenario === 'bigGroup' || scenario === 'restBroadcast' ? 1 : connections;
}

function recipientsOf(config: GuideRunConfig): number {
  const { scenario, connections } = config;
  if (config.recipientsPerMessage !== undefined) {
    if (!(config.recipientsPerMessage >= 0)) throw new BenchError('badInput', GUIDE_WORDS.negativeRecipients({ value: String(config.recipientsPerMessage) }));
    return config.recipientsPerMessage;
  }
  // A REST send to a user reaches that user's connection: one per user, as the guide's benchmark names them.
  if (scenario === 'echo' || scenario === 'sendToConnection' || scenario === 'restSendToUser') return 1;
  if (scenario === 'broadcast' || scenario === 'restBroadcast') return connections;
  if (scenario !== 'smallGroup' && scenario !== 'bigGroup') {
    throw new BenchError('badInput', GUIDE_WORDS.unknownScenario({ scenario: String(scenario) }));
  }
  if (config.groupCount !== undefined) requirePositive('groupCount', config.groupCount, GUIDE_WORDS.units.groupCount);
  const groupSize =
    config.groupSize ?? (scenario === 'smallGroup' ? 10 : connections / (config.groupCount ?? 10));
  requirePositive('groupSize', groupSize, GUIDE_WORDS.units.groupSize);
  if (groupSize > connections) {
    throw new BenchError('badInput', GUIDE_WORDS.aboveConnections({ what: 'groupSize', value: String(groupSize), connections: String(connections) }));
  }
  return groupSize;
}

function requirePositive(name: string, value: number, unit: string): void {
  if (typeof value !== 'number' || !Number.isFinite(value) || value <= 0) {
    throw new BenchError('badInput', GUIDE_WORDS.notPositive({ name, unit, value: String(value) }));
  }
}

function requireNonNegative(name: string, value: number): void {
  if (typeof value !== 'number' || !Number.isFinite(value) || value < 0) {
    throw new BenchError('badInput', GUIDE_WORDS.negative({ name, value: String(value) }));
  }
}

function requireWholePositive(name: string, value: number): void {
  if (!Number.isInteger(value) || value <= 0) {
    throw new BenchError('badInput', GUIDE_WORDS.notWholeConnections({ name, value: String(value) }));
  }
}
