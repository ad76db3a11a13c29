/**
 * The words of serverless mode: why an Azure SignalR connection string is refused (naming the
 * part, never its value, since one part is the access key), and why a hub name or a REST call's
 * target is refused. The parser (connection-string.ts) and the REST calls (rest-calls.ts)
 * return codes and the values that are safe to quote; only this file writes prose. Pure.
 */

/** A connection string's part, as Azure's portal writes it. */
/** The runner's options that take the connection string (cli/serverless-args.ts). */
export const CONNECTION_STRING_FLAGS = { env: '--azure-connection-string-env', file: '--azure-connection-string-file' } as const;

export type ConnectionStringKey = 'Endpoint' | 'AccessKey' | 'Version' | 'Port' | 'ClientEndpoint';

const WHERE = "Copy it from the Azure portal (the SignalR Service's Keys blade): Endpoint=https://<name>.service.signalr.net;AccessKey=<key>;Version=1.0;";

export const SERVERLESS_WORDS = {
  empty: () => `The Azure SignalR connection string is empty. ${WHERE}`,
  partWithoutValue: (p: { index: number }) =>
    `Part ${p.index} of the Azure SignalR connection string is not Name=value (parts are separated by ';'). ${WHERE}`,
  unknownPart: (p: { name: string }) =>
    `The Azure SignalR connection string has a part '${p.name}' this tool does not know: it takes Endpoint, AccessKey, Version, Port and ClientEndpoint. ${WHERE}`,
  unknownPartAt: (p: { index: number }) =>
    `Part ${p.index} of the Azure SignalR connection string has a name this tool does not know: it takes Endpoint, AccessKey, Version, Port and ClientEndpoint. ${WHERE}`,
  repeatedPart: (p: { name: ConnectionStringKey }) =>
    `The Azure SignalR connection string gives ${p.name} twice: keep one.`,
  noEndpoint: () => `The Azure SignalR connection string has no Endpoint. ${WHERE}`,
  badEndpoint: (p: { name: 'Endpoint' | 'ClientEndpoint' }) =>
    `The Azure SignalR connection string's ${p.name} is not an http:// or https:// address without a path or query, such as https://<name>.service.signalr.net.`,
  noAccessKey: () =>
    `The Azure SignalR connection string has no AccessKey: this tool signs its tokens with the access key (a connection string of AuthType=azure, Microsoft Entra ID, is not taken). ${WHERE}`,
  entraAuth: () =>
    `The Azure SignalR connection string names an AuthType: this tool signs its tokens with the AccessKey and does not take Microsoft Entra ID. Use the connection string with the AccessKey. ${WHERE}`,
  badVersion: () => `The Azure SignalR connection string's Version is not 1.0, the only one Azure SignalR Service writes: pass Version=1.0 or leave it out.`,
  badPort: () => `The Azure SignalR connection string's Port is not a whole number from 1 to 65535.`,
  badHubName: (p: { hub: string }) =>
    `The hub name '${p.hub}' is not one Azure SignalR Service takes: it must start with a letter and hold only letters, digits and underscores (at most 128).`,
  emptyUser: () => `A send to a user needs a user id: it was empty.`,
  emptyGroup: () => `A send to a group needs a group name: it was empty.`,
  // A REST call's failed answer, by status: what the message became is the accounting's (rest-run.ts mayHaveSent).
  restBadKey: (p: { url: string; answer: string }) =>
    `REST API POST ${p.url} answered 401: the service did not take the token signed with the connection string's AccessKey (another key, or a key rotated in the portal). Copy the connection string again from the Keys blade.${p.answer}`,
  restForbidden: (p: { url: string; answer: string }) =>
    `REST API POST ${p.url} answered 403: the service refused the call (a key without send rights, or a network rule). Check the resource's keys and network settings.${p.answer}`,
  restNoSuchHub: (p: { url: string; hub: string; answer: string }) =>
    `REST API POST ${p.url} answered 404: the service has no hub '${p.hub}' there (or no REST API at that address). Pass the hub's name with --azure-hub, and check the connection string's Endpoint.${p.answer}`,
  restBadRequest: (p: { url: string; answer: string }) =>
    `REST API POST ${p.url} answered 400: the service did not take the body.${p.answer}`,
  restTooLarge: (p: { url: string; answer: string }) =>
    `REST API POST ${p.url} answered 413: the message is over the service's limit for a REST call (1 MB on Azure). Lower the message size.${p.answer}`,
  restThrottled: (p: { url: string; answer: string }) =>
    `REST API POST ${p.url} answered 429: the service throttles the REST calls (too many a second for the tier). Lower the senders or the rate, or raise the tier.${p.answer}`,
  restServiceError: (p: { url: string; status: number; answer: string }) =>
    `REST API POST ${p.url} answered ${p.status}: the service failed the call; its message may have reached some receivers.${p.answer}`,
  restOtherStatus: (p: { url: string; status: number; answer: string }) =>
    `REST API POST ${p.url} answered ${p.status}, which the REST API does not document for a send.${p.answer}`,
  restNoAnswer: (p: { url: string; said: string }) =>
    `REST API POST ${p.url} got no answer (${p.said}): the service did not answer, or the connection to it was lost; the message may have reached some receivers.`,
  restNeedsConnectionString: (p: { scenario: string; env: string; file: string }) =>
    `${p.scenario} sends through Azure SignalR Service's REST API, which needs the service's connection string: pass ${p.env} <VARIABLE> (the name of an environment variable that holds it) or ${p.file} <file> (a file whose first line is it), as Endpoint=https://<name>.service.signalr.net;AccessKey=<key>;Version=1.0; (the hub-sample's REST API takes Endpoint=<its origin>;AccessKey=<its --RestApiKey>).`,
} as const;

export type ServerlessProblemCode = keyof typeof SERVERLESS_WORDS;
