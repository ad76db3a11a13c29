// A run's configuration: its fields, defaults and validation, the link that carries it, the credentials kept apart from it, the hub instances it spreads over, the browser's limits, and the names people read. Pure.
export { durationText, expiryText, nextRefreshDelayMs, tokenExpiryNotice } from './access-token.ts';
export {
  type CapacityAgent,
  DEFAULT_HTTP2_STREAMS,
  type LimitWarning,
  MAX_HTTP1_CONNECTIONS_PER_ORIGIN,
  browserConnectionCapacity,
  browserLimitWarnings,
  capacityRefusal,
  planLimitWarnings,
} from './browser-limits.ts';
export {
  type MetricsChoice,
  configToQuery,
  leftOutProfileNote,
  linkProfileNote,
  queryToFields,
  queryToMetrics,
  queryToProfile,
  setMetricsParam,
} from './config-url.ts';
export {
  CONNECTS_UNANSWERED_MS,
  CONNECT_TIMEOUT_MS,
  DEFAULTS,
  FIRST_ANSWER_MS,
  GIVE_UP_AFTER_FAILURES,
  LATE_LOOK_MS,
  PROTOCOLS,
  type ProtocolName,
  type RunConfig,
  TRANSPORTS,
  type TransportName,
  defaultEndpointUrl,
  drainPlan,
  validateRunConfig,
} from './config.ts';
export {
  type ConnectionCredentials,
  type Credentials,
  NO_CREDENTIALS,
  SECRET_QUERY_NAMES,
  credentialsFor,
  credentialsSummary,
  endpointSecretNames,
  isEmpty,
  profileEnvOf,
  scrubSecrets,
  splitEndpointSecrets,
  tokenUsersOf,
  withQuery,
} from './credentials.ts';
export {
  PROTOCOL_LABELS,
  SCENARIO_LABELS,
  TRANSPORT_LABELS,
  combinationLabel,
  defaultRunName,
  profileLabel,
  scenarioLabel,
  scenarioPhrase,
  scenarioWords,
} from './display-names.ts';
export {
  type InstanceCounts,
  type InstanceFigures,
  addInstanceCounts,
  emptyInstanceCounts,
  groupMembersPerInstance,
  hubInstances,
  instanceFigures,
  instanceLists,
  instancesText,
  recipientsPerInstance,
} from './hub-instances.ts';
export {
  type SameInstance,
  canonicalHost,
  hostsToResolve,
  instanceKey,
  sameAddressPairs,
  sameInstancePairs,
  sameInstanceText,
  sameMetricsText,
} from './instance-identity.ts';
export { NEEDS_NEGOTIATION, connectingText, skipNegotiationSuffix } from './skip-negotiation.ts';
