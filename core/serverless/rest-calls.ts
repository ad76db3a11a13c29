/**
 * Azure SignalR Service's data-plane REST API v1 and client URLs as pure functions
 * (learn.microsoft.com/azure/azure-signalr/signalr-reference-data-plane-rest-api): where a send
 * goes (`POST {endpoint}/api/v1/hubs/{hub}`, `.../users/{user}`, `.../groups/{group}`), its body,
 * and the claims the JWT must carry: `aud` the request URL without query or trailing slash,
 * `exp` required; a client's token has `aud` its URL `{clientEndpoint}/client/?hub={hub}` and,
 * for sends to a user, the user id in `nameid`. Signing them is outside core/ (signalr/rest-tokens.ts). Pure.
 */

import { SERVERLESS_WORDS } from './words.ts';

export type RestSendTo = { kind: 'broadcast' } | { kind: 'user'; user: string } | { kind: 'group'; group: string };

export type RestCallProblem = { code: 'badHubName'; hub: string } | { code: 'emptyUser' } | { code: 'emptyGroup' };

/** Azure's rule for a hub name (v1 swagger): a letter first, then letters, digits, underscores. */
const HUB_NAME = /^[A-Za-z][A-Za-z0-9_]{0,127}$/;

/** A REST token's life: short, a fresh one per minute of sends (Azure requires exp, and any
 * leaked token should soon be worthless). */
export const REST_TOKEN_SECONDS = 60;
/** A client token's life: a connection is checked when it connects, so it must outlive the
 * connect, not the run. */
export const CLIENT_TOKEN_SECONDS = 3_600;

export function hubNameProblem(hub: string): RestCallProblem | null {
  return HUB_NAME.test(hub) ? null : { code: 'badHubName', hub: hub.slice(0, 60) };
}

/** The URL a send posts to, or why it cannot be made. `endpoint` has no trailing slash. */
export function restSendUrl(endpoint: string, hub: string, to: RestSendTo): { url: string } | { problem: RestCallProblem } {
  const bad = hubNameProblem(hub);
  if (bad) return { problem: bad };
  const base = `${endpoint.replace(/\/+$/, '')}/api/v1/hubs/${hub}`;
  switch (to.kind) {
    case 'broadcast': return { url: base };
    case 'user': return to.user === '' ? { problem: { code: 'emptyUser' } } : { url: `${base}/users/${encodeURIComponent(to.user)}` };
    case 'group': return to.group === '' ? { problem: { code: 'emptyGroup' } } : { url: `${base}/groups/${encodeURIComponent(to.group)}` };
  }
}

/** The body of a send: the client method to call and its arguments. */
export function restSendBody(target: string, args: readonly unknown[]): string {
  return JSON.stringify({ target, arguments: args });
}

/** The audience of a REST token: the request URL without its query and trailing slash. */
export function restAudience(url: string): string {
  const cut = url.search(/[?#]/);
  return (cut < 0 ? url : url.slice(0, cut)).replace(/\/+$/, '');
}

export interface RestClaims {
  aud: string;
  /** Seconds since the epoch. */
  exp: number;
}

/** The claims of a token for one REST call at `url`, made at `nowSeconds`. */
export function restTokenClaims(url: string, nowSeconds: number, lifetimeSeconds = REST_TOKEN_SECONDS): RestClaims {
  return { aud: restAudience(url), exp: Math.floor(nowSeconds) + lifetimeSeconds };
}

/** Where a client connects to a hub straight on the service. */
export function clientHubUrl(clientEndpoint: string, hub: string): { url: string } | { problem: RestCallProblem } {
  const bad = hubNameProblem(hub);
  return bad ? { problem: bad } : { url: `${clientEndpoint.replace(/\/+$/, '')}/client/?hub=${hub}` };
}

export interface ClientClaims extends RestClaims {
  /** The user id Azure SignalR Service gives the connection, for sends to a user. */
  nameid?: string;
}

/** The claims of a client's token: its audience is the client URL itself, query and all. */
export function clientTokenClaims(clientUrl: string, nowSeconds: number, user?: string, lifetimeSeconds = CLIENT_TOKEN_SECONDS): ClientClaims {
  const claims: ClientClaims = { aud: clientUrl, exp: Math.floor(nowSeconds) + lifetimeSeconds };
  if (user !== undefined && user !== '') claims.nameid = user;
  return claims;
}

/** The sentence for a refused REST call. */
export function restCallProblemText(problem: RestCallProblem): string {
  return problem.code === 'badHubName' ? SERVERLESS_WORDS.badHubName({ hub: problem.hub }) : SERVERLESS_WORDS[problem.code]();
}
