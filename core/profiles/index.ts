// Hub profiles: how a run's scenario maps onto a hub's own methods (send, join, the client method
// that receives, who receives), read and checked with errors that name the field; the bundled
// contract's scenarios as built-in profiles; the receptions each delivery plans. Pure.
export { BUILT_IN_PROFILES, REST_PROFILES, isBuiltInProfile, profileOfRun, type RestShapeName } from './built-in.ts';
export { checkHubProfile, parseHubProfile } from './parse.ts';
export { DELIVER_KINDS, type DeliverKind, type HubCall, type HubProfile, isGroupDelivery } from './profile.ts';
export { absentPerSend, defaultShape, profileShapes, receptionsPerSend, shapeFits } from './shapes.ts';
export {
  bindArgs,
  type BoundArgs,
  callSample,
  type CallValues,
  envNames,
  messageReader,
  SAMPLE_CHARS,
  takesConnectionValues,
  tokenUser,
  usesPlaceholder,
} from './template.ts';
export { jsonFault, type JsonFault } from './json-position.ts';
export { deliveryProblems, shapeProblems, userProblems } from './fit.ts';
export { type Receivers, runReceivers } from './receivers.ts';
export { envPlaces, isSecretKey, looksLikeKey, missingEnv, pageEnvProblems, secretWarnings } from './secrets.ts';
