// Serverless mode: Azure SignalR Service's connection string, its data-plane REST API v1's URLs
// and bodies, and the claims its tokens carry, for the REST scenarios and for clients that
// connect straight to the service. Signing is outside core/ (signalr/rest-tokens.ts). Pure.
export { parseConnectionString, connectionStringProblemText, type AzureConnection, type ConnectionStringProblem } from './connection-string.ts';
export {
  CLIENT_TOKEN_SECONDS, REST_TOKEN_SECONDS, clientHubUrl, clientTokenClaims, hubNameProblem, restAudience, restCallProblemText, restSendBody, restSendUrl, restTokenClaims,
  type ClientClaims, type RestCallProblem, type RestClaims, type RestSendTo,
} from './rest-calls.ts';
export { CONNECTION_STRING_FLAGS, SERVERLESS_WORDS, type ConnectionStringKey, type ServerlessProblemCode } from './words.ts';
export {
  mayHaveSent, restFailureOf, restFailureText, restProbeUser, restSendTarget, restUserId, serverlessClientUrl,
  type RestFailure, type ServerlessCredentials,
} from './rest-run.ts';
