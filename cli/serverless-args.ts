/**
 * The runner's options for a hub in serverless mode: an Azure SignalR connection string from an
 * environment variable (--azure-connection-string-env) or a file's first line
 * (--azure-connection-string-file), never from the command line itself, where it would stay in
 * the shell's history and the process list; and the hub's name (--azure-hub). The string is read
 * by core/serverless's parser, whose refusals name the part and never a value. Its parts travel
 * in the run's credentials (the engines, threads and agents), never in its configuration: the
 * configuration keeps the client URL, `{clientEndpoint}/client/?hub={hub}`, which holds no secret.
 */
import { readFileSync } from 'node:fs';
import { isServerlessScenario } from '../core/guide/index.ts';
import {
  CONNECTION_STRING_FLAGS, SERVERLESS_WORDS, connectionStringProblemText, hubNameProblem, parseConnectionString, restCallProblemText, serverlessClientUrl,
  type ServerlessCredentials,
} from '../core/serverless/index.ts';
import { SCENARIO_LABELS } from '../core/run-config/index.ts';
import { ARGS_WORDS } from './args-words.ts';

export const SERVERLESS_OPTIONS = {
  'azure-connection-string-env': { type: 'string' },
  'azure-connection-string-file': { type: 'string' },
  'azure-hub': { type: 'string' },
} as const;

/** The hub a connection string's runs reach when --azure-hub is not given: the hub-sample's
 *  BenchHub, by Azure's name for it (its class name in lower case). */
export const DEFAULT_AZURE_HUB = 'benchhub';

export interface ServerlessValues {
  'azure-connection-string-env'?: string;
  'azure-connection-string-file'?: string;
  'azure-hub'?: string;
  scenario?: string;
  endpoint?: string[];
  'access-token'?: string;
  'access-token-env'?: string;
  'access-token-file'?: string;
  'access-token-command'?: string;
}

/**
 * The connection string's parts and the client URL the run's connections open, or null without
 * one; every problem is added to `errors`, each naming the option or the part, none quoting the
 * string. A REST scenario without a connection string is refused here, saying what to pass.
 */
export function serverlessOf(
  v: ServerlessValues,
  errors: string[],
  env: NodeJS.ProcessEnv = process.env,
  readText: (file: string) => string = (file) => readFileSync(file, 'utf8'),
): { serverless: ServerlessCredentials; clientUrl: string } | null {
  const fromEnv = v['azure-connection-string-env'];
  const fromFile = v['azure-connection-string-file'];
  if (fromEnv === undefined && fromFile === undefined) {
    if (v['azure-hub'] !== undefined) errors.push(ARGS_WORDS.azureHubAlone());
    if (v.scenario !== undefined && isServerlessScenario(v.scenario)) {
      errors.push(SERVERLESS_WORDS.restNeedsConnectionString({ scenario: SCENARIO_LABELS[v.scenario], ...CONNECTION_STRING_FLAGS }));
    }
    return null;
  }
  if (fromEnv !== undefined && fromFile !== undefined) {
    errors.push(ARGS_WORDS.connectionStringTwice());
    return null;
  }
  let text: string | null = null;
  if (fromEnv !== undefined) {
    const value = env[fromEnv];
    if (value === undefined || value.trim() === '') errors.push(ARGS_WORDS.connectionStringEnvMissing({ name: fromEnv, empty: value !== undefined }));
    else text = value;
  } else {
    try {
      text = readText(fromFile!).split(/\r?\n/).find((line) => line.trim() !== '') ?? '';
    } catch (error) {
      errors.push(ARGS_WORDS.connectionStringFileUnread({ file: fromFile!, code: (error as { code?: string }).code ?? 'error' }));
    }
  }
  const hub = (v['azure-hub'] ?? DEFAULT_AZURE_HUB).trim();
  const badHub = hubNameProblem(hub);
  if (badHub) errors.push(restCallProblemText(badHub));
  // The client URL is the run's endpoint; tokens are minted per connection.
  if (v.endpoint !== undefined) errors.push(ARGS_WORDS.connectionStringWithEndpoint());
  const tokenOptions = (['access-token', 'access-token-env', 'access-token-file', 'access-token-command'] as const).filter((name) => v[name] !== undefined);
  if (tokenOptions.length > 0) errors.push(ARGS_WORDS.connectionStringWithToken({ options: tokenOptions.map((name) => `--${name}`) }));
  if (text === null) return null;
  const parsed = parseConnectionString(text);
  if ('problem' in parsed) {
    errors.push(ARGS_WORDS.connectionStringRefused({ from: fromEnv !== undefined ? `$${fromEnv}` : fromFile!, problem: connectionStringProblemText(parsed.problem) }));
    return null;
  }
  if (badHub) return null;
  const serverless: ServerlessCredentials = { ...parsed.connection, hub };
  return { serverless, clientUrl: serverlessClientUrl(serverless) };
}
