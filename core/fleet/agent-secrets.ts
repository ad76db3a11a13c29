/**
 * Secrets and agents: a run's credentials (tokens, header and query values, profile {env:NAME}
 * values) travel to its agents in their start messages, through the control hub. Two rules, one
 * place, for the dashboard and the headless lead alike:
 * - over a plain http control hub they cross in clear text, readable by anyone on the network
 *   between the lead, the hub and the agents: said before anything is sent, and refused when
 *   the person asked for that (`--agents-secrets refuse`, the page's checkbox);
 * - the session code is public (the page shows it, the lead prints it), so it alone does not
 *   let an agent in: an agent also presents the session's secret, given with the agent command
 *   the lead shows, before it receives anything of a run.
 */
import { endpointSecretNames, isEmpty, type Credentials } from '../run-config/index.ts';
import { FLEET_WORDS } from './words.ts';

/** What a lead does when credentials would cross a plain http control hub. */
export type AgentsSecretsPolicy = 'refuse' | 'warn';
export const AGENTS_SECRETS_POLICIES: readonly AgentsSecretsPolicy[] = ['refuse', 'warn'];
export const DEFAULT_AGENTS_SECRETS: AgentsSecretsPolicy = 'warn';

/** How the lead's switch is named where its words are read: the runner's flag, the page's checkbox. */
export interface PolicySwitch {
  /** Words that make the lead refuse, e.g. `--agents-secrets refuse`. */
  refuse: string;
  /** Words that make the lead send anyway, e.g. `--agents-secrets warn`. */
  allow: string;
}

/** Whether the control hub carries its messages in clear text (http:, not https:). */
export function isPlainControl(controlUrl: string): boolean {
  try {
    return new URL(controlUrl).protocol === 'http:';
  } catch {
    return false;
  }
}

/** What the run's credentials are, in words that name none of their values. */
function secretsWords(credentials: Credentials): string {
  const parts: string[] = [];
  if (credentials.accessTokens.length > 0) parts.push(credentials.accessTokens.length === 1 ? 'the access token' : `the ${credentials.accessTokens.length} access tokens`);
  if (credentials.headers.length > 0) parts.push('the header values');
  if (credentials.query.length > 0) parts.push('the query values');
  if ((credentials.profileEnv?.length ?? 0) > 0) parts.push("the profile's {env:NAME} values");
  if (credentials.serverless) parts.push("the Azure SignalR connection string's AccessKey");
  const fromEndpoint = endpointSecretNames(credentials);
  if (fromEndpoint.length > 0) parts.push(`the endpoint's ${fromEndpoint.join(', ')}`);
  return parts.length <= 1 ? (parts[0] ?? '') : `${parts.slice(0, -1).join(', ')} and ${parts.at(-1)}`;
}

/**
 * What the lead says before sending a run's credentials to its agents over `controlUrl`: null
 * when there is nothing to say (no credentials, or an https control hub); a warning the run goes
 * on after; or a refusal, nothing sent.
 */
export function agentsSecretsNotice(controlUrl: string, credentials: Credentials | undefined, policy: AgentsSecretsPolicy, names: PolicySwitch): { level: AgentsSecretsPolicy; text: string } | null {
  if (isEmpty(credentials) || !isPlainControl(controlUrl)) return null;
  const what = secretsWords(credentials!);
  if (policy === 'refuse') return { level: 'refuse', text: FLEET_WORDS.plainControlRefused({ controlUrl, what, allow: names.allow }) };
  return { level: 'warn', text: FLEET_WORDS.plainControlWarning({ controlUrl, what, refuse: names.refuse }) };
}

/** The alphabet of session secrets: the control hub's code alphabet (no I, O, 0 or 1 to misread). */
const SECRET_ALPHABET = 'ABCDEFGHJKLMNPQRSTUVWXYZ23456789';
/** Characters of a session secret the lead draws itself: 20 of 32 symbols, 100 bits. */
const SECRET_LENGTH = 20;
/** Shortest and longest secret an agent may present or a lead may be given (--session-secret). */
export const MIN_SESSION_SECRET_LENGTH = 10;
export const MAX_SESSION_SECRET_LENGTH = 64;

/** A fresh session secret, from the platform's cryptographic random source (Node and browsers). */
export function newSessionSecret(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(SECRET_LENGTH));
  return Array.from(bytes, (byte) => SECRET_ALPHABET[byte % SECRET_ALPHABET.length]).join('');
}

/** Why `secret` cannot be a session secret (never quoting it); null when it can. */
export function sessionSecretProblem(secret: string): string | null {
  if (secret.length < MIN_SESSION_SECRET_LENGTH || secret.length > MAX_SESSION_SECRET_LENGTH || !/^[A-Za-z0-9]+$/.test(secret)) {
    return FLEET_WORDS.secretMalformed({ min: MIN_SESSION_SECRET_LENGTH, max: MAX_SESSION_SECRET_LENGTH, alphabet: SECRET_ALPHABET, length: secret.length });
  }
  if (new Set(secret).size < MIN_SESSION_SECRET_LENGTH / 2) return FLEET_WORDS.secretGuessable({ alphabet: SECRET_ALPHABET });
  return null;
}

/** Whether `presented` is `secret`, compared in time that does not depend on where they differ. */
export function sameSecret(presented: unknown, secret: string): boolean {
  if (typeof presented !== 'string' || presented.length !== secret.length) return false;
  let differences = 0;
  for (let i = 0; i < secret.length; i++) differences |= presented.charCodeAt(i) ^ secret.charCodeAt(i);
  return differences === 0;
}

/** Why an agent that presented no secret, or the wrong one, was turned away: to it and to the lead. */
export function wrongSecretText(name: string, presented: boolean): string {
  return FLEET_WORDS.wrongSecret({ name, presented });
}
