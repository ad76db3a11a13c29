/**
 * The serverless mode's sends: each slot of a REST scenario is an HTTP POST to Azure SignalR
 * Service's REST API v1 (core/serverless: `{endpoint}/api/v1/hubs/{hub}` to broadcast,
 * `.../users/{user}` to a user), its body `{ "target": "Measure", "arguments": [ts, text] }`,
 * signed with a JWT of the connection string's AccessKey (signalr/rest-tokens.ts, jose) whose
 * audience is the URL; and the client tokens the engine's connections connect with, one user each.
 *
 * Tokens are signed once per URL and reused until a quarter of their life is left, then signed
 * again: a send to a user signs one token a minute per sender, not one per message. A call that
 * fails is named by its status (core/serverless rest-run.ts) and said to the caller with whether
 * its message may still have been sent (a 5xx, no answer) or certainly not (a 4xx refusal).
 * The key, the tokens and the Authorization header are in no text this file makes.
 */
import type { Clock, Timers } from '../../core/clocks/index.ts';
import {
  CLIENT_TOKEN_SECONDS, CONNECTION_STRING_FLAGS, REST_TOKEN_SECONDS, SERVERLESS_WORDS, mayHaveSent, restFailureOf, restFailureText, restProbeUser,
  restSendBody, restSendTarget, restUserId, serverlessClientUrl, type ServerlessCredentials,
} from '../../core/serverless/index.ts';
import { SCENARIO_LABELS, type RunConfig } from '../../core/run-config/index.ts';
import type { StartMessage } from '../../core/execution/index.ts';
import type { WorkerStats } from './worker-stats.ts';
import type { WireBytes } from './connection.ts';

/** Longest wait for a REST call's answer, in ms: past it the call counts as unanswered (its
 *  message may have been sent), and a hub that stalls cannot hold a sender's slots for ever. */
export const REST_CALL_TIMEOUT_MS = 10_000;
/** A REST token is signed again once less than this share of its life is left. */
const RESIGN_AT_SHARE_LEFT = 0.25;
/** The client tokens are minted again at half their life, for connects and reconnects after it. */
const CLIENT_REMINT_MS = (CLIENT_TOKEN_SECONDS * 1_000) / 2;
/** Characters of a service's answer kept in a failure's text. */
const ANSWER_CHARS = 300;

/** Signs the serverless mode's tokens with the AccessKey (signalr/rest-tokens.ts, jose), handed in
 *  by the host: the engine never imports signalr/. Each signs at the wall clock's time. */
export interface TokenSigner {
  rest(url: string, accessKey: string): Promise<string>;
  client(clientUrl: string, accessKey: string, user: string): Promise<string>;
}

/** One HTTP POST: its status and the start of its answer; rejects when no answer came (the
 *  connection failed, or nothing within `timeoutMs`: an error named TimeoutError). */
export type RestPost = (url: string, request: { headers: Record<string, string>; body: Uint8Array<ArrayBuffer>; timeoutMs: number }) => Promise<{ status: number; text: string }>;

/** The platform's fetch as a RestPost: a browser's, or Node's when the host hands no other. */
export const fetchPost: RestPost = async (url, request) => {
  const response = await fetch(url, { method: 'POST', headers: request.headers, body: request.body, signal: AbortSignal.timeout(request.timeoutMs) });
  return { status: response.status, text: await response.text() };
};

export interface RestSendsDeps {
  clock: Clock;
  timers: Timers;
  signer: TokenSigner;
  /** How the calls are made: fetchPost when absent (the runner hands node:http's, cli/node-rest-post.ts). */
  restPost?: RestPost;
  /** Every text that leaves here passes through it (the run's scrub). */
  scrub: (text: string) => string;
  /** The engine's wire counts (WorkerStats.wire): a REST call's body is what this client sends the
   *  service, as a hub connection's frames are (headers not counted, as no transport's framing is). */
  wire?: WireBytes;
}

/** Bodies go out as UTF-8 bytes, encoded once: their length is the wire count, and the HTTP
 *  client writes them as they are. */
const UTF8 = new TextEncoder();

/** What a failed call tells its caller: its words, and whether its message may have reached receivers. */
export type RestFailed = (maySent: boolean, text: string) => void;

export class RestSends {
  readonly #tokens = new Map<string, { token: Promise<string>; resignAtSec: number }>();
  readonly #http: RestPost;
  #remint: unknown = null;
  #stopped = false;

  constructor(private readonly serverless: ServerlessCredentials, private readonly runId: string, private readonly deps: RestSendsDeps) {
    this.#http = deps.restPost ?? fetchPost;
  }

  /** Where the broadcasts go, or where a send to the user of connection `targetIndex` goes. */
  urlOf(to: { kind: 'broadcast' } | { kind: 'user'; targetIndex: number }): string {
    return restSendTarget(this.serverless, to.kind === 'broadcast' ? to : { kind: 'user', user: restUserId(this.runId, to.targetIndex) });
  }

  /** Client tokens for the connections `first .. first + count - 1`, each its own user, minted now
   *  and again at half their life into the same map (the connections read it at each request). */
  async clientTokens(first: number, count: number): Promise<Map<number, string>> {
    const tokens = new Map<number, string>();
    const mint = async () => {
      const url = serverlessClientUrl(this.serverless);
      for (let index = first; index < first + count; index++) tokens.set(index, await this.deps.signer.client(url, this.serverless.accessKey, restUserId(this.runId, index)));
    };
    await mint();
    const again = () => {
      // A minting that ends after the run does not start another.
      if (!this.#stopped) this.#remint = this.deps.timers.setTimeout(() => void mint().then(again, again), CLIENT_REMINT_MS);
    };
    again();
    return tokens;
  }

  /** `url`, its token signed now, before the first slot needs it: a sender's first call waits on
   *  no signing (a first jose signing takes a few hundred ms while the key is imported). */
  prepared(url: string): string {
    void this.#token(url);
    return url;
  }

  /** One slot's call: `written` once the service took it (2xx), else `failed` with its words. */
  send(url: string, target: string, args: readonly unknown[], written: () => void, failed: RestFailed): void {
    this.#post(url, restSendBody(target, args)).then((problem) => (problem === null ? written() : failed(problem.maySent, problem.text)));
  }

  /**
   * A call that reaches nobody (to a user no connection is), made once before the run: a wrong
   * key (401), a hub the service does not have (404) or no REST API there is named at once,
   * instead of every message going missing. Null when the service took it.
   */
  async probe(): Promise<{ text: string; answered: boolean } | null> {
    const problem = await this.#post(this.urlOf({ kind: 'broadcast' }) + `/users/${restProbeUser(this.runId)}`, restSendBody('Measure', [0, '']));
    return problem && { text: problem.text, answered: problem.answered };
  }

  stop(): void {
    this.#stopped = true;
    if (this.#remint !== null) this.deps.timers.clearTimeout(this.#remint);
    this.#remint = null;
  }

  /** Posts `body` to `url`: null when taken, else what failed, worded. Never rejects. */
  async #post(url: string, text: string): Promise<{ maySent: boolean; answered: boolean; text: string } | null> {
    let status: number | null = null;
    let said = '';
    const body = UTF8.encode(text);
    try {
      const authorization = `Bearer ${await this.#token(url)}`;
      const answer = await this.#http(url, { headers: { authorization, 'content-type': 'application/json' }, body, timeoutMs: REST_CALL_TIMEOUT_MS });
      // Answered: the body reached the service (a call never answered may not have left).
      if (this.deps.wire) this.deps.wire.sent += body.byteLength;
      status = answer.status;
      said = answer.text.slice(0, ANSWER_CHARS);
    } catch (error) {
      said = reasonOf(error);
    }
    const failure = restFailureOf(status);
    if (failure === null) return null;
    return { maySent: mayHaveSent(failure), answered: status !== null, text: this.deps.scrub(restFailureText(failure, { url: this.#shown(url), hub: this.serverless.hub, said })) };
  }

  /** The URL as a failure says it: a user's part as {user}, so every sender's failure reads the same. */
  #shown(url: string): string {
    return url.replace(/\/users\/[^/?#]+$/, '/users/{user}');
  }

  /** A REST token for `url`, signed again when little of its life is left. */
  #token(url: string): Promise<string> {
    const nowSec = this.deps.clock.nowUs() / 1e6;
    const held = this.#tokens.get(url);
    if (held && nowSec < held.resignAtSec) return held.token;
    const token = this.deps.signer.rest(url, this.serverless.accessKey);
    this.#tokens.set(url, { token, resignAtSec: nowSec + REST_TOKEN_SECONDS * (1 - RESIGN_AT_SHARE_LEFT) });
    return token;
  }
}

/** Why a call got no answer, in a few words: Node's fetch hides the socket's code in its cause. */
function reasonOf(error: unknown): string {
  if (error instanceof Error && (error.name === 'TimeoutError' || error.name === 'AbortError')) return `no answer within ${REST_CALL_TIMEOUT_MS / 1_000} s`;
  const cause = error instanceof Error ? (error.cause as { code?: string; message?: string } | undefined) : undefined;
  const message = error instanceof Error ? error.message : String(error);
  // node:http's errors carry their code themselves (ECONNREFUSED, ECONNRESET).
  const code = (error as { code?: unknown } | null)?.code;
  if (typeof code === 'string' && !message.includes(code)) return `${message}: ${code}`;
  return cause?.code ? `${message}: ${cause.code}` : cause?.message ? `${message}: ${cause.message}` : message;
}

/** The engine's REST sender for a run whose credentials hold a connection string; null otherwise
 *  (and in a host that hands no signer: the dashboard's, which never holds the key). */
export function restSendsOf(start: Pick<StartMessage, 'credentials' | 'runId'>, deps: Pick<RestSendsDeps, 'clock' | 'timers' | 'restPost'> & { signer?: TokenSigner }, stats: Pick<WorkerStats, 'scrub' | 'wire'>): RestSends | null {
  const serverless = start.credentials?.serverless;
  const signer = deps.signer;
  return serverless && signer ? new RestSends(serverless, start.runId, { ...deps, signer, scrub: (text) => stats.scrub(text), wire: stats.wire }) : null;
}

/** A REST scenario's check before the run: the REST API's own answer to a call that reaches
 *  nobody, or, without a connection string, what to pass. Counted like a hub's refusal. Made
 *  with no connection open too: a wrong key or hub refuses the clients' connects and the REST
 *  calls alike, and the REST API's answer names it; but a call nothing answered then says no more
 *  than the connects' failures, and would stand over their cause in the verdict. */
export async function restProbe(rest: RestSends | null, config: Pick<RunConfig, 'scenario'>, stats: Pick<WorkerStats, 'recordError'>, anyOpen: boolean): Promise<string | null> {
  const problem = rest ? await rest.probe() : { text: SERVERLESS_WORDS.restNeedsConnectionString({ scenario: SCENARIO_LABELS[config.scenario], ...CONNECTION_STRING_FLAGS }), answered: true };
  if (problem === null || (!problem.answered && !anyOpen)) return null;
  stats.recordError('protocol', problem.text);
  return problem.text;
}
