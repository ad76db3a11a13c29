/**
 * Skip negotiation: each client opens its WebSocket straight to the hub's URL, without the
 * negotiate POST before it (`@microsoft/signalr`'s `skipNegotiation`). One HTTP request less per
 * connect on both sides: on this 2-core machine it nearly halves what a connect costs the client
 * and the hub (bench/RESULTS.md, 2026-11-26), which is what sets how fast a runner can ramp.
 * Its name, what it refuses and why are said here once. Pure.
 *
 * What it gives up, from the client's source (HttpConnection._startInternal): it works over
 * WebSockets only; the hub's connection id comes from the negotiate answer, so without it
 * `HubConnection.connectionId` stays null; stateful reconnect is granted in that answer too; and
 * a hub whose app server only redirects negotiate to a service (Azure SignalR Service) has no
 * WebSocket of its own to open.
 */
import { usesPlaceholder, type HubProfile } from '../profiles/index.ts';
import { RUN_CONFIG_WORDS as W } from './words.ts';

/** How a run that skips negotiation is named wherever its transport is ("WebSockets + JSON, negotiation skipped"). */
export const SKIP_NEGOTIATION_LABEL = 'negotiation skipped';

/** The runner's option. */
export const SKIP_NEGOTIATION_OPTION = '--skip-negotiation';

/** What to do when a hub refuses the WebSocket opened without negotiate: in every failure it causes. */
export const NEEDS_NEGOTIATION = W.needsNegotiation({ option: SKIP_NEGOTIATION_OPTION });

/** The settings a skipped negotiation depends on. */
export interface SkipNegotiationRun {
  skipNegotiation?: boolean;
  transport: string;
  statefulReconnect?: boolean;
  scenario: string;
  hubProfile?: HubProfile | null;
}

/** A setting that cannot go with skipping negotiation, and the field it is about. */
export interface SkipNegotiationProblem {
  field: 'transport' | 'statefulReconnect' | 'scenario' | 'hubProfile';
  message: string;
}

/** Why a run cannot skip negotiation, one problem per field; empty when it can (or does not ask to). */
export function skipNegotiationProblems(run: SkipNegotiationRun): SkipNegotiationProblem[] {
  if (!run.skipNegotiation) return [];
  const problems: SkipNegotiationProblem[] = [];
  if (run.transport !== 'WebSockets') {
    problems.push({ field: 'transport', message: W.skipNeedsWebSockets({ transport: run.transport }) });
  }
  if (run.statefulReconnect) {
    problems.push({ field: 'statefulReconnect', message: W.skipWithStateful() });
  }
  // Only what names a connection by the hub's id needs it: {connection} is the run's own index of a
  // connection; {target} (a direct message, a client result asked of another connection) and
  // {excluded} (the sender, left out of its group) are hub ids.
  const hubId = run.hubProfile ? (['target', 'excluded'] as const).find((name) => usesPlaceholder(run.hubProfile!, name)) : undefined;
  if (run.scenario === 'sendToConnection' || run.scenario === 'restSendToUser' || hubId !== undefined) {
    const what = run.hubProfile
      ? W.profileNamesHubId({ name: run.hubProfile.name, excluded: hubId === 'excluded', placeholder: hubId ?? 'target' })
      : run.scenario === 'restSendToUser' ? W.sendToUserHubId() : W.sendToConnectionHubId();
    problems.push({
      field: run.hubProfile ? 'hubProfile' : 'scenario',
      message: W.skipHidesHubId({ what }),
    });
  }
  return problems;
}

/** ", negotiation skipped" after a run's transport, or nothing. */
export function skipNegotiationSuffix(config: { skipNegotiation?: boolean }): string {
  return config.skipNegotiation ? `, ${SKIP_NEGOTIATION_LABEL}` : '';
}

/** "WebSockets (json, negotiation skipped)": how a run connects, as its start line and its errors say it. */
export function connectingText(config: { transport: string; protocol: string; skipNegotiation?: boolean }): string {
  return `${config.transport} (${config.protocol}${skipNegotiationSuffix(config)})`;
}
