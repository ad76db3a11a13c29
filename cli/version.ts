/** `live-bench --version`: this tool's version and the SignalR client's it runs with (package.json's, core/history's VERSIONS). */
import { VERSIONS } from '../core/history/index.ts';

export function versionLine(): string {
  return `live-bench ${VERSIONS.toolVersion} (@microsoft/signalr ${VERSIONS.signalrClientVersion}, Node ${process.version})`;
}
