/**
 * A run of the serverless mode's scenarios: what its clients and senders need from the Azure
 * SignalR connection string (travelling with the run's other secrets, core/run-config/credentials.ts),
 * the user each connection is, where each sender's REST call goes, and what a REST call's failed
 * answer means for the messages it carried. Pure.
 *
 * Every connection is its own user (Azure's nameid in its client token): send to user through the
 * REST API sends to the user of the connection the run's derangement names, exactly one
 * connection, as send to connection sends to its id. The user carries the run id, so two runs on
 * one hub never send to each other's connections.
 */
import { restSendUrl, clientHubUrl, type RestSendTo } from './rest-calls.ts';
import { SERVERLESS_WORDS } from './words.ts';

/** What a run's engines need to reach a serverless hub: a secret, kept apart from the RunConfig. */
export interface ServerlessCredentials {
  /** The connection string's Endpoint: where the REST API is (origin, no trailing slash). */
  endpoint: string;
  /** The connection string's ClientEndpoint (or Endpoint): where clients connect. */
  clientEndpoint: string;
  /** The hub, as Azure names it (a letter, then letters, digits, underscores). */
  hub: string;
  /** The AccessKey that signs every token: never printed, kept or exported. */
  accessKey: string;
}

/** The user of a run's connection: in its client token's nameid, and in the URL that sends to it. */
export function restUserId(runId: string, connectionIndex: number): string {
  return `${runId}-user-${connectionIndex}`;
}

/** A user no connection of the run is: what the probe sends to, reaching nobody. */
export function restProbeUser(runId: string): string {
  return `${runId}-probe`;
}

/** Where a sender's REST calls go: the hub for a broadcast, its target's user for a send to a user. */
export function restSendTarget(serverless: Pick<ServerlessCredentials, 'endpoint' | 'hub'>, to: RestSendTo): string {
  const made = restSendUrl(serverless.endpoint, serverless.hub, to);
  // The hub name was checked where the connection string was read, and a run's user is never empty.
  if ('problem' in made) throw new Error(`internal: ${made.problem.code}`);
  return made.url;
}

/** Where a serverless run's clients connect: `{clientEndpoint}/client/?hub={hub}`. */
export function serverlessClientUrl(serverless: Pick<ServerlessCredentials, 'clientEndpoint' | 'hub'>): string {
  const made = clientHubUrl(serverless.clientEndpoint, serverless.hub);
  if ('problem' in made) throw new Error(`internal: ${made.problem.code}`);
  return made.url;
}

/** What a REST call's answer says about its message, by status (Azure's documented answers). */
export type RestFailure =
  | { code: 'badKey'; status: 401 }
  | { code: 'forbidden'; status: 403 }
  | { code: 'noSuchHub'; status: 404 }
  | { code: 'badRequest'; status: 400 }
  | { code: 'tooLarge'; status: 413 }
  | { code: 'throttled'; status: 429 }
  | { code: 'serviceError'; status: number }
  | { code: 'otherStatus'; status: number }
  | { code: 'noAnswer'; status: null };

/** The failure a status names; null for a 2xx (the service took the message). */
export function restFailureOf(status: number | null): RestFailure | null {
  if (status === null) return { code: 'noAnswer', status: null };
  if (status >= 200 && status < 300) return null;
  switch (status) {
    case 400: return { code: 'badRequest', status };
    case 401: return { code: 'badKey', status };
    case 403: return { code: 'forbidden', status };
    case 404: return { code: 'noSuchHub', status };
    case 413: return { code: 'tooLarge', status };
    case 429: return { code: 'throttled', status };
    default: return status >= 500 ? { code: 'serviceError', status } : { code: 'otherStatus', status };
  }
}

/**
 * Whether the message of a failed call may still have reached its receivers. A 4xx is the
 * service's refusal before it sends anything: the message is never sent. A 5xx, or no answer at
 * all (the connection dropped, the time limit passed), may come after the service sent it to
 * some: it counts as sent, and what never arrives is lost.
 */
export function mayHaveSent(failure: RestFailure): boolean {
  return failure.code === 'serviceError' || failure.code === 'noAnswer';
}

/** The sentence for a failed REST call: the status named, its likely cause and what to do. `said`
 *  is the service's own answer (scrubbed by the caller), `url` the call's URL (no secret in it). */
export function restFailureText(failure: RestFailure, p: { url: string; hub: string; said: string }): string {
  const said = p.said.trim().replace(/\s+/g, ' ').slice(0, 200);
  const answer = said === '' ? '' : ` It said: ${said}`;
  switch (failure.code) {
    case 'badKey': return SERVERLESS_WORDS.restBadKey({ url: p.url, answer });
    case 'forbidden': return SERVERLESS_WORDS.restForbidden({ url: p.url, answer });
    case 'noSuchHub': return SERVERLESS_WORDS.restNoSuchHub({ url: p.url, hub: p.hub, answer });
    case 'badRequest': return SERVERLESS_WORDS.restBadRequest({ url: p.url, answer });
    case 'tooLarge': return SERVERLESS_WORDS.restTooLarge({ url: p.url, answer });
    case 'throttled': return SERVERLESS_WORDS.restThrottled({ url: p.url, answer });
    case 'serviceError': return SERVERLESS_WORDS.restServiceError({ url: p.url, status: failure.status, answer });
    case 'otherStatus': return SERVERLESS_WORDS.restOtherStatus({ url: p.url, status: failure.status, answer });
    case 'noAnswer': return SERVERLESS_WORDS.restNoAnswer({ url: p.url, said });
  }
}
