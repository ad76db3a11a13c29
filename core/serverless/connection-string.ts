/**
 * Azure SignalR Service's connection string (`Endpoint=https://<name>.service.signalr.net;
 * AccessKey=<key>;Version=1.0;` and the optional `Port=` and `ClientEndpoint=`), read as Azure's
 * server SDK reads it: parts separated by ';', names without regard to case, the value after the
 * first '=' (a base64 key may end in '='). A refusal names the part, never its value: the
 * AccessKey is a secret, and a malformed part may be the key itself. Pure.
 */
import { SERVERLESS_WORDS, type ConnectionStringKey } from './words.ts';

export interface AzureConnection {
  /** Where the REST API is: the endpoint's origin, with Port= applied, without a trailing slash. */
  endpoint: string;
  /** Where clients connect: ClientEndpoint's origin, or the endpoint. */
  clientEndpoint: string;
  /** The secret that signs every token: never printed, kept or exported. */
  accessKey: string;
}

export type ConnectionStringProblem =
  | { code: 'empty' }
  | { code: 'partWithoutValue'; index: number }
  | { code: 'unknownPart'; index: number; name: string | null }
  | { code: 'repeatedPart'; name: ConnectionStringKey }
  | { code: 'noEndpoint' }
  | { code: 'badEndpoint'; name: 'Endpoint' | 'ClientEndpoint' }
  | { code: 'noAccessKey' }
  | { code: 'entraAuth' }
  | { code: 'badVersion' }
  | { code: 'badPort' };

const KEYS: readonly ConnectionStringKey[] = ['Endpoint', 'AccessKey', 'Version', 'Port', 'ClientEndpoint'];
/** Azure's own part names this tool does not take: only these are quoted back, since any other
 * "name" may be a pasted key cut at its '=' padding. */
const AZURE_OTHERS: readonly string[] = ['ServerEndpoint', 'ClientId', 'TenantId', 'ClientSecret', 'ClientCertPath', 'Audience'];

/** The connection, or the first problem found. */
export function parseConnectionString(text: string): { connection: AzureConnection } | { problem: ConnectionStringProblem } {
  const parts = text.split(';').map((part) => part.trim()).filter((part) => part.length > 0);
  if (parts.length === 0) return { problem: { code: 'empty' } };
  const values = new Map<ConnectionStringKey, string>();
  // Before any other part: a Microsoft Entra string's ClientId and such would otherwise be the first refusal.
  if (parts.some((part) => part.split('=')[0]!.trim().toLowerCase() === 'authtype')) return { problem: { code: 'entraAuth' } };
  for (const [i, part] of parts.entries()) {
    const eq = part.indexOf('=');
    if (eq <= 0) return { problem: { code: 'partWithoutValue', index: i + 1 } };
    const name = part.slice(0, eq).trim();
    const key = KEYS.find((k) => k.toLowerCase() === name.toLowerCase());
    if (key === undefined) {
      return { problem: { code: 'unknownPart', index: i + 1, name: AZURE_OTHERS.find((other) => other.toLowerCase() === name.toLowerCase()) ?? null } };
    }
    if (values.has(key)) return { problem: { code: 'repeatedPart', name: key } };
    values.set(key, part.slice(eq + 1).trim());
  }
  const endpointText = values.get('Endpoint');
  if (endpointText === undefined || endpointText === '') return { problem: { code: 'noEndpoint' } };
  const endpoint = origin(endpointText);
  if (endpoint === null) return { problem: { code: 'badEndpoint', name: 'Endpoint' } };
  const accessKey = values.get('AccessKey');
  if (accessKey === undefined || accessKey === '') return { problem: { code: 'noAccessKey' } };
  const version = values.get('Version');
  if (version !== undefined && version !== '1.0') return { problem: { code: 'badVersion' } };
  const portText = values.get('Port');
  if (portText !== undefined) {
    const port = /^\d{1,5}$/.test(portText) ? Number(portText) : NaN;
    if (!(port >= 1 && port <= 65535)) return { problem: { code: 'badPort' } };
    endpoint.port = String(port);
  }
  const clientText = values.get('ClientEndpoint');
  const client = clientText === undefined ? endpoint : origin(clientText);
  if (client === null) return { problem: { code: 'badEndpoint', name: 'ClientEndpoint' } };
  return { connection: { endpoint: endpoint.origin, clientEndpoint: client.origin, accessKey } };
}

/** The sentence for a problem: it quotes only a part's index or a part's name, never a value. */
export function connectionStringProblemText(problem: ConnectionStringProblem): string {
  switch (problem.code) {
    case 'partWithoutValue': return SERVERLESS_WORDS.partWithoutValue({ index: problem.index });
    case 'unknownPart': return problem.name === null ? SERVERLESS_WORDS.unknownPartAt({ index: problem.index }) : SERVERLESS_WORDS.unknownPart({ name: problem.name });
    case 'repeatedPart': return SERVERLESS_WORDS.repeatedPart({ name: problem.name });
    case 'badEndpoint': return SERVERLESS_WORDS.badEndpoint({ name: problem.name });
    default: return SERVERLESS_WORDS[problem.code]();
  }
}

/** An http(s) URL with no path, query, fragment or credentials, as a URL to add a port to; else null. */
function origin(text: string): URL | null {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return null;
  }
  const plain = (url.protocol === 'https:' || url.protocol === 'http:') && (url.pathname === '/' || url.pathname === '')
    && url.search === '' && url.hash === '' && url.username === '' && url.password === '';
  return plain ? url : null;
}
