/** Names of transports, protocols, scenarios and hub profiles as people read them, and a run's default name. */
import type { ProtocolName, RunConfig, ScenarioName, TransportName } from './config.ts';
import { skipNegotiationSuffix } from './skip-negotiation.ts';
import { profileShapes, type DeliverKind, type HubProfile } from '../profiles/index.ts';

export const TRANSPORT_LABELS: Record<TransportName, string> = {
  WebSockets: 'WebSockets',
  ServerSentEvents: 'Server-Sent Events',
  LongPolling: 'Long Polling',
};

export const PROTOCOL_LABELS: Record<ProtocolName, string> = { json: 'JSON', messagepack: 'MessagePack' };

export const SCENARIO_LABELS: Record<ScenarioName, string> = {
  echo: 'Echo',
  broadcast: 'Broadcast',
  smallGroup: 'Send to small groups',
  bigGroup: 'Send to big groups',
  sendToConnection: 'Send to connection',
  restBroadcast: 'Broadcast through the REST API',
  restSendToUser: 'Send to user through the REST API',
};

/** A scenario's label inside a sentence: its first letter in lower case, the rest as written
 *  ("send to user through the REST API"). */
export function scenarioWords(scenario: ScenarioName): string {
  const label = SCENARIO_LABELS[scenario];
  return label.charAt(0).toLowerCase() + label.slice(1);
}

/** Who receives each send of a profile, as the scenario line says it. */
export const DELIVER_LABELS: Record<DeliverKind, string> = {
  self: 'to the sender',
  all: 'to everyone',
  others: 'to the others',
  group: 'to the group',
  groupOthers: 'to the others in the group',
  target: 'to one connection',
  return: 'its return value',
  stream: 'the items of its stream',
  user: 'to the user',
  users: 'to the users',
  groups: 'to the groups',
  groupExcept: 'to the group but the excluded',
};

/** "chat room profile: SendToRoom → ReceiveMessage, to the group"; a `return` profile reads
 *  "lookup profile: Lookup → its return value". */
export function profileLabel(profile: HubProfile): string {
  const name = /\bprofile$/i.test(profile.name) ? profile.name : `${profile.name} profile`;
  const route = profile.deliver === 'return' || !profile.receive
    ? `${profile.send.method} → ${DELIVER_LABELS[profile.deliver]}${profile.answer ? `, answering ${profile.answer.method}` : ''}`
    : `${profile.send.method} → ${profile.receive.method}, ${DELIVER_LABELS[profile.deliver]}`;
  return `${name}: ${route}`;
}

/** What a run drives, wherever its scenario is named (the setup line, kept runs, reports,
 *  comparisons): the scenario's label, or its hub profile, with the shape when the profile's
 *  delivery runs on more than one ("… to the group (send to big groups)"). */
export function scenarioLabel(config: Pick<RunConfig, 'scenario' | 'hubProfile'>): string {
  const profile = config.hubProfile;
  if (!profile) return SCENARIO_LABELS[config.scenario];
  const shapes: readonly string[] = profileShapes(profile);
  return shapes.length > 1 ? `${profileLabel(profile)} (${scenarioWords(config.scenario)})` : profileLabel(profile);
}

/** The scenario inside a sentence ("2 KB echo over …"): lower case for the built-in scenarios,
 *  the profile as it is written (method names keep their case). */
export function scenarioPhrase(config: Pick<RunConfig, 'scenario' | 'hubProfile'>): string {
  return config.hubProfile ? scenarioLabel(config) : scenarioWords(config.scenario);
}

/** "WebSockets + MessagePack"; "WebSockets + JSON, negotiation skipped" for a run that skips it. */
export function combinationLabel(config: Pick<RunConfig, 'transport' | 'protocol' | 'skipNegotiation'>): string {
  return `${TRANSPORT_LABELS[config.transport]} + ${PROTOCOL_LABELS[config.protocol]}${skipNegotiationSuffix(config)}`;
}

/** "Echo · WebSockets + JSON · 20 connections": what a run is called until someone renames it. A
 *  run with a planned drop says which, and whether stateful reconnect was on, so two runs that
 *  differ only there read apart in the history ("… · server drop at 5 s · stateful reconnect on"). */
export function defaultRunName(config: RunConfig): string {
  const name = `${scenarioLabel(config)} · ${combinationLabel(config)} · ${config.connections.toLocaleString('en-US')} connections`;
  if (config.dropAtSec === null || config.dropAtSec === undefined) return name;
  const every = config.dropEverySec ? ` and every ${config.dropEverySec} s` : '';
  return `${name} · ${config.dropKind ?? 'network'} drop at ${config.dropAtSec} s${every} · stateful reconnect ${config.statefulReconnect ? 'on' : 'off'}`;
}
