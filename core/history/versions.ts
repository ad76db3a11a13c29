/** This tool's version and the SignalR client's, as package.json pins them (exact versions). */
import { dependencies, version } from '../../package.json';
import type { Versions } from './recorder.ts';

export const VERSIONS: Versions = {
  toolVersion: version,
  signalrClientVersion: dependencies['@microsoft/signalr'],
};
