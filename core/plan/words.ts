/**
 * The plan room's words: why a scenario's senders, groups or targets cannot be planned for the
 * connections given, and what to change. group-membership.ts and scenario-roles.ts name the case
 * and its values; only this file writes prose. Pure.
 */
import { formatCount } from '../format.ts';

const count = (n: number) => n.toLocaleString('en-US');
/** A value as typed: empty, a quoted string, or the number. */
const shown = (raw: unknown) => (raw === undefined || raw === null || raw === '' ? 'empty' : typeof raw === 'string' ? `"${raw}"` : String(raw));

export const PLAN_WORDS = {
  /** derangement() asked to pair a count that is not a count (internal: the coordinator pairs validated counts). */
  pairCount: (p: { count: number }) => `Cannot pair ${String(p.count)} connections: the count must be a whole number of at least 0.`,
  /** derangement() asked to pair one connection (internal). */
  pairOne: () => 'One connection cannot send to another connection: there is no other one. ' +
    'Use at least 2 connections for the send-to-connection scenario.',
  /** splitConnections() asked for an impossible split (internal: the counts were validated). */
  splitCounts: (p: { connections: number; workers: number }) =>
    `Cannot split ${p.connections} connections between ${p.workers} workers: both must be whole numbers, workers at least 1.`,
  groupConnections: (p: { min: number; connections: unknown }) =>
    `Connections must be a whole number of at least ${p.min} for a group run, but is ${shown(p.connections)}: ` +
      'a group needs two members. Raise the connections.',
  groupPreset: (p: { presets: readonly string[]; preset: unknown }) => `Group preset must be one of ${p.presets.join(', ')}, but is ${shown(p.preset)}.`,
  bigGroupsConnections: (p: { needed: number; groups: number; min: number; connections: number }) =>
    `Big groups need at least ${p.needed} connections (${p.groups} groups of at least ${p.min}), ` +
      `but the run has ${count(p.connections)}. Raise the connections, or choose small groups.`,
  groupSize: (p: { min: number; groupSize: unknown }) =>
    `Group size must be a whole number of at least ${p.min}, but is ${shown(p.groupSize)}: ` +
      'a group of one only echoes its own messages.',
  groupCount: (p: { groupCount: unknown }) => `Group count must be a whole number of at least 1, but is ${shown(p.groupCount)}.`,
  groupSenders: (p: { senders: unknown }) => `Senders must be a whole number of at least 1, but is ${shown(p.senders)}: without senders nothing is measured.`,
  groupsTooLarge: (p: { groupCount: number; groupSize: number; members: number; connections: number }) =>
    `${count(p.groupCount)} groups of ${count(p.groupSize)} need ${count(p.members)} connections, but the run has ${count(p.connections)}. ` +
      'Lower the group size or the group count, or raise the connections.',
  sendersOutnumberMembers: (p: { senders: number; members: number }) =>
    `Senders (${count(p.senders)}) must not outnumber the group members (${count(p.members)}): only members send. ` +
      `Lower the senders to at most ${count(p.members)}, or make the groups larger.`,
  sendersOutnumberConnections: (p: { senders: number; connections: number }) =>
    `Senders (${p.senders}) must not outnumber connections (${p.connections}). Lower the senders or raise the connections.`,
  sendToConnectionNeedsTwo: () => 'Send to connection needs at least 2 connections: nobody sends to itself.',
  sendToUserNeedsTwo: () => 'Send to user through the REST API needs at least 2 connections: each sends to another connection\'s user, never its own.',
  /** A typed group size larger than the connections, the group count left empty. */
  groupSizeExceedsConnections: (p: { groupSize: number; connections: number }) =>
    `${formatCount(p.groupSize)} members per group but only ${formatCount(p.connections)} connections: not one group fits. ` +
      `Lower the group size to at most ${formatCount(p.connections)}, or raise the connections to at least ${formatCount(p.groupSize)}.`,
  /** A typed group count whose smallest groups need more than the connections, the group size left empty. */
  groupCountExceedsConnections: (p: { groupCount: number; connections: number; min: number }) =>
    `${formatCount(p.groupCount)} groups but only ${formatCount(p.connections)} connections: each group needs at least ${p.min} members, ` +
      `so ${formatCount(p.groupCount)} groups need ${formatCount(p.groupCount * p.min)}. Lower the group count to at most ` +
      `${formatCount(Math.floor(p.connections / p.min))}, or raise the connections to at least ${formatCount(p.groupCount * p.min)}.`,
};
