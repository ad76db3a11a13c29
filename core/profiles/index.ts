// Hub profiles: how a run's scenario maps onto a hub's own methods (send, join, the client method
// that receives, who receives), read and checked with errors that name the field; the bundled
// contract's scenarios as built-in profiles; the receptions each delivery plans. Pure.
export * from './built-in.ts';
export * from './parse.ts';
export * from './profile.ts';
export * from './shapes.ts';
export * from './template.ts';
export { jsonFault, type JsonFault } from './json-position.ts';
export * from './fit.ts';
export * from './receivers.ts';
export * from './secrets.ts';
