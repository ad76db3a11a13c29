/**
 * Connections that echo through a fake clock, with knobs for the faults the engine must count:
 * refused starts, dropped and duplicated deliveries, closes.
 */
import type { BenchConnection, ClassifiedError, ConnectionFactory } from '../../workers/engine/connection.ts';
import type { FakeTime } from './fake-time.ts';

export interface FakeEchoOptions {
  /** Delay of each echo, in ms. */
  echoDelayMs: number;
  /** Connections (by creation order) whose start fails. */
  failStart?: Set<number>;
  /** Returns true to drop the n-th echo of a connection (both counted from 0). */
  drop?: (connection: number, n: number) => boolean;
  /** Returns true to deliver the n-th echo of a connection twice. */
  duplicate?: (connection: number, n: number) => boolean;
}

export interface FakeEchoHub {
  factory: ConnectionFactory;
  connections: FakeConnection[];
}

export interface FakeConnection extends BenchConnection {
  readonly sent: { method: string; args: unknown[] }[];
  /** Closes the connection from the server side. */
  serverClose(error?: Error): void;
  readonly stopped: boolean;
}

export function fakeEchoHub(time: FakeTime, options: FakeEchoOptions): FakeEchoHub {
  const connections: FakeConnection[] = [];
  const factory: ConnectionFactory = () => {
    const id = connections.length;
    let measure: (ts: number, payload: string) => void = () => {};
    let close: (error?: Error) => void = () => {};
    let open = false;
    let stopped = false;
    const sent: { method: string; args: unknown[] }[] = [];
    const connection: FakeConnection = {
      sent,
      get stopped() {
        return stopped;
      },
      start: async () => {
        if (options.failStart?.has(id)) throw Object.assign(new Error('Failed to complete negotiation with the server: Error: refused'), { errorType: 'FailedToNegotiateWithServerError' });
        open = true;
      },
      stop: async () => {
        stopped = true;
        open = false;
      },
      send: async (method, ...args) => {
        if (!open) throw new Error("Cannot send data if the connection is not in the 'Connected' State.");
        const n = sent.length;
        sent.push({ method, args });
        if (options.drop?.(id, n)) return;
        const copies = options.duplicate?.(id, n) ? 2 : 1;
        for (let c = 0; c < copies; c++) time.setTimeout(() => open && measure(args[0] as number, args[1] as string), options.echoDelayMs);
      },
      invoke: async () => undefined,
      onMeasure: (handler) => (measure = handler),
      onClose: (handler) => (close = handler),
      serverClose: (error) => {
        open = false;
        close(error);
      },
    };
    connections.push(connection);
    return connection;
  };
  return { factory, connections };
}

export function classifyPlainly(error: unknown): ClassifiedError {
  const message = error instanceof Error ? error.message : String(error);
  return { kind: /negotiat/.test(message) ? 'negotiate' : 'connect', message };
}
