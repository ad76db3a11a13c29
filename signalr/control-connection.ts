/**
 * The connection to the control hub (hub-sample's /control), through which a dashboard and its
 * agents talk. It runs on the page's main thread and in the runner's main thread, never in a
 * worker.
 * JSON protocol, any transport the hub offers: it carries a few messages a second per agent.
 */
import { HubConnectionBuilder, LogLevel, NullLogger } from '@microsoft/signalr';
import { ExplainingHttpClient } from './explaining-http-client.ts';
import { classifySignalRError } from './errors.ts';
import { SIGNALR_WORDS } from './words.ts';
import { BenchError } from '../core/errors/index.ts';

export interface ControlConnection {
  invoke<T = void>(method: string, ...args: unknown[]): Promise<T>;
  on(method: string, handler: (...args: never[]) => void): void;
  /** Called once if the connection closes by itself (the hub stopped, the network went). */
  onClose(handler: (error?: Error) => void): void;
  stop(): Promise<void>;
}

/** Opens a control connection; a failure is thrown as a BenchError (couldNotConnect) that says what to check. */
export async function openControlConnection(url: string): Promise<ControlConnection> {
  // The reason a fetch failed (ENOTFOUND, ECONNREFUSED) kept in the message, as for benchmark connections.
  const hub = new HubConnectionBuilder().withUrl(url, { httpClient: new ExplainingHttpClient(NullLogger.instance) }).configureLogging(LogLevel.None).build();
  try {
    await hub.start();
  } catch (error) {
    const { message } = classifySignalRError(error, { endpointUrl: url, transport: 'WebSockets', protocol: 'json', reconnect: false });
    throw new BenchError('couldNotConnect', SIGNALR_WORDS.controlUnreachable({ message: message.replace(/\.+$/, '') }));
  }
  return {
    invoke: (method, ...args) => hub.invoke(method, ...args),
    on: (method, handler) => hub.on(method, handler as (...args: unknown[]) => void),
    onClose: (handler) => hub.onclose(handler),
    stop: () => hub.stop(),
  };
}
