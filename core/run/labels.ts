/** Names of transports, protocols and scenarios as people read them, and a run's default name. */
import type { ProtocolName, RunConfig, ScenarioName, TransportName } from './config.ts';

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
};

/** What a run ran, as people read it: the scenario, or a hub profile of the user's own on the
 *  scenario's plan ("chat room (hub profile, broadcast plan)"). Runs of the bundled contract
 *  read as before. */
export function scenarioLabel(config: Pick<RunConfig, 'scenario' | 'hubProfile'>): string {
  const own = config.hubProfile;
  return own ? `${own.name} (hub profile, ${SCENARIO_LABELS[config.scenario].toLowerCase()} plan)` : SCENARIO_LABELS[config.scenario];
}

/** "WebSockets + MessagePack". */
export function combinationLabel(config: Pick<RunConfig, 'transport' | 'protocol'>): string {
  return `${TRANSPORT_LABELS[config.transport]} + ${PROTOCOL_LABELS[config.protocol]}`;
}

/** "Echo · WebSockets + JSON · 20 connections" (a hub profile by its name): what a run is called until someone renames it. A
 *  run with a planned drop says which, and whether stateful reconnect was on, so two runs that
 *  differ only there read apart in the history ("… · server drop at 5 s · stateful reconnect on"). */
export function defaultRunName(config: RunConfig): string {
  const name = `${scenarioLabel(config)} · ${combinationLabel(config)} · ${config.connections.toLocaleString('en-US')} connections`;
  if (config.dropAtSec === null || config.dropAtSec === undefined) return name;
  const every = config.dropEverySec ? ` and every ${config.dropEverySec} s` : '';
  return `${name} · ${config.dropKind ?? 'network'} drop at ${config.dropAtSec} s${every} · stateful reconnect ${config.statefulReconnect ? 'on' : 'off'}`;
}
