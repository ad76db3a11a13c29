/**
 * The words of serverless mode: why an Azure SignalR connection string is refused (naming the
 * part, never its value, since one part is the access key), and why a hub name or a REST call's
 * target is refused. The parser (connection-string.ts) and the REST calls (rest-calls.ts)
 * return codes and the values that are safe to quote; only this file writes prose. Pure.
 */

/** A connection string's part, as Azure's portal writes it. */
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
} as const;

export type ServerlessProblemCode = keyof typeof SERVERLESS_WORDS;
