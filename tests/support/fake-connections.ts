/**
 * An in-memory stand-in for the benchmark hub, on a fake clock: it routes Echo, Broadcast,
 * GroupBroadcast and SendToConnection like the hub-sample does (delivering Measure(ts, payload)),
 * and returns the message of EchoReturn(payload) as its completion, with knobs for the faults the
 * engine must count: refused starts, dropped and duplicated deliveries, closes. Streams and client
 * results as the hub-sample's /streamhub and /clientresulthub have them: Repeat(message) and
 * StreamEcho(stream) stream back, UploadWords(stream) calls Word on the caller per item, Counter
 * yields ints, GetMessage(id) and GetMessageFromCaller() ask a connection's GetMessage and return
 * "From <id>: <answer>".
 */
import { connectCauseOf } from '../../core/client/connect-causes.ts';
import { tokenUser } from '../../core/profiles/template.ts';
import type { BenchConnection, ClassifiedError, ConnectionFactory, ItemObserver, ItemStream, UploadStream } from '../../workers/engine/connection.ts';
import type { FakeTime } from './fake-time.ts';

export interface FakeHubOptions {
  /** Delay of each delivery, in ms. */
  deliveryDelayMs: number;
  /** Connections (by creation order) whose start fails. */
  failStart?: Set<number>;
  /** The error message of a failed start. Default: a refused negotiate without an errno. */
  failStartMessage?: string;
  /** Connections (by creation order) whose start never answers (a frozen hub) until stopped. */
  hangStart?: (id: number) => boolean;
  /** Time each start takes before it opens, in ms (a slow hub). Default 0. */
  startDelayMs?: number;
  /** Connections (by creation order) whose JoinGroup fails. */
  failJoin?: Set<number>;
  /** Connections (by creation order) closed by the hub under their first call that is not a join
   *  (a hub that stalled until the client's server timeout): the call is canceled with the connection. */
  closeUnderCall?: Set<number>;
  /** Hub methods this fake hub does not have (a hub without the benchmark contract). */
  missingMethods?: Set<string>;
  /** Returns true to drop the deliveries of the n-th send of a connection (both counted from 0). */
  drop?: (connection: number, n: number) => boolean;
  /** Returns true when the n-th send of a connection is delivered and then fails on the client
   *  (a POST that timed out after the hub handled it): the client counts it as never written. */
  deliverThenFail?: (connection: number, n: number) => boolean;
  /** Returns true to deliver the n-th send of a connection twice to each recipient. */
  duplicate?: (connection: number, n: number) => boolean;
  /** With this set, a cut transport (a network drop) is noticed at once and the connection is
   *  back this many ms later as a new connection (a new id, in no group), as SignalR's automatic
   *  reconnect does; without it, transports cannot be cut. */
  reconnectAfterMs?: number;
}

export interface FakeConnection extends BenchConnection {
  readonly sent: { method: string; args: unknown[] }[];
  /** Closes the connection from the server side. */
  serverClose(error?: Error): void;
  readonly stopped: boolean;
  readonly isOpen: boolean;
  deliver(ts: number, payload: string): void;
  /** The hub calls a client method of this connection (any method, any arguments). */
  call(method: string, ...args: unknown[]): void;
  /** The client-result handlers the engine registered, by client method. */
  readonly answers: Map<string, (...args: unknown[]) => unknown>;
  groups: Set<string>;
  /** The user its access token names (Clients.User); null without one. */
  readonly user: string | null;
}

export interface FakeHub {
  factory: ConnectionFactory;
  connections: FakeConnection[];
}

export function fakeHub(time: FakeTime, options: FakeHubOptions): FakeHub {
  const connections: FakeConnection[] = [];
  const recipients = (sender: FakeConnection, method: string, args: unknown[]): FakeConnection[] => {
    const open = connections.filter((c) => c.isOpen);
    if (method === 'Echo') return [sender];
    if (method === 'Broadcast') return open;
    if (method === 'GroupBroadcast') return open.filter((c) => c.groups.has(args[0] as string));
    if (method === 'SendToConnection') return open.filter((c) => c.connectionId === args[0]);
    // The list deliveries, as the hub-sample's /listhub and /userhub route them (Clients.Groups,
    // GroupExcept, User, Users), a connection's user being its token's.
    if (method === 'SendToGroups') return open.filter((c) => (args[0] as string[]).some((group) => c.groups.has(group)));
    if (method === 'SendToGroupExcept') return open.filter((c) => c.groups.has(args[0] as string) && !(args[1] as string[]).includes(c.connectionId!));
    if (method === 'SendToUser') return open.filter((c) => c.user !== null && c.user === args[0]);
    if (method === 'SendToUsers') return open.filter((c) => c.user !== null && (args[0] as string[]).includes(c.user));
    throw new Error(`The fake hub has no method ${method}.`);
  };
  /** The hub asks `asked` for a client result of its `GetMessage` handler, as Azure's sample does. */
  const askClient = (asked: FakeConnection | undefined, id: string) => new Promise((resolve, reject) => time.setTimeout(() => {
    const reply = asked?.isOpen ? asked.answers.get('GetMessage') : undefined;
    if (!reply) return reject(new Error("An unexpected error occurred invoking 'GetMessage' on the server. HubException: Client didn't provide a result."));
    const answer = reply();
    time.setTimeout(() => resolve(`From ${id}: ${String(answer)}`), options.deliveryDelayMs);
  }, options.deliveryDelayMs));
  const factory: ConnectionFactory = (connectOptions) => {
    // Numbered by run-wide index: the engine builds each connection at its connect, across workers in no fixed order.
    const id = connectOptions?.index ?? connections.length;
    const user = tokenUser(connectOptions?.credentials?.accessToken ?? null);
    const handlers = new Map<string, (...args: unknown[]) => void>();
    const answers = new Map<string, (...args: unknown[]) => unknown>();
    let close: (error?: Error) => void = () => {};
    let open = false;
    let stopped = false;
    let generation = 0;
    let abortStart: () => void = () => {};
    let reconnecting: (error?: Error) => void = () => {};
    let reconnected: () => void = () => {};
    const sent: { method: string; args: unknown[] }[] = [];
    const connection: FakeConnection = {
      get connectionId() {
        if (!open) return null;
        return generation === 0 ? `fake-${id}` : `fake-${id}-${generation}`;
      },
      get isOpen() {
        return open;
      },
      get stopped() {
        return stopped;
      },
      sent,
      groups: new Set(),
      user,
      bufferedBytes: () => 0,
      start: async () => {
        if (options.failStart?.has(id)) throw Object.assign(new Error(options.failStartMessage ?? 'Failed to complete negotiation with the server: Error: refused'), { errorType: 'FailedToNegotiateWithServerError' });
        if (options.hangStart?.(id)) await new Promise((_, reject) => (abortStart = () => reject(new Error('The connection was stopped during negotiation.'))));
        if (options.startDelayMs) await new Promise((resolve) => time.setTimeout(() => resolve(undefined), options.startDelayMs!));
        open = true;
      },
      stop: async () => {
        abortStart();
        stopped = true;
        open = false;
      },
      send: async (method, ...args) => {
        if (!open) throw new Error("Cannot send data if the connection is not in the 'Connected' State.");
        const n = sent.length;
        sent.push({ method, args });
        if (options.drop?.(id, n)) return;
        const copies = options.duplicate?.(id, n) ? 2 : 1;
        const [ts, payload] = args.slice(-2) as [number, string];
        for (const recipient of recipients(connection, method, args)) {
          for (let c = 0; c < copies; c++) time.setTimeout(() => recipient.deliver(ts, payload), options.deliveryDelayMs);
        }
        if (options.deliverThenFail?.(id, n)) throw new Error('The request timed out.');
      },
      invoke: async (method, ...args) => {
        if (options.missingMethods?.has(method)) throw new Error(`Failed to invoke '${method}' due to an error on the server. HubException: Method does not exist.`);
        if (method === 'UploadWords') {
          sent.push({ method, args });
          return new Promise((resolve) => (args[0] as FakeUpload).observe({
            next: (item) => time.setTimeout(() => connection.call('Word', item), options.deliveryDelayMs),
            error: () => resolve(undefined),
            complete: () => resolve(undefined),
          }));
        }
        if (method === 'GetMessage' || method === 'GetMessageFromCaller') {
          if (!open) throw new Error("Cannot send data if the connection is not in the 'Connected' State.");
          const n = sent.length;
          sent.push({ method, args });
          if (options.drop?.(id, n)) return new Promise(() => {});
          const asked = method === 'GetMessage' ? connections.find((c) => c.connectionId === args[0]) : connection;
          return askClient(asked, String(method === 'GetMessage' ? args[0] : connection.connectionId));
        }
        if (method === 'EchoReturn') {
          if (!open) throw new Error("Cannot send data if the connection is not in the 'Connected' State.");
          const n = sent.length;
          sent.push({ method, args });
          if (options.drop?.(id, n)) return new Promise(() => {});
          return new Promise((resolve) => time.setTimeout(() => resolve(args.at(-1)), options.deliveryDelayMs));
        }
        if (method !== 'JoinGroup' && options.closeUnderCall?.delete(id)) {
          connection.serverClose(new Error('Server timeout elapsed without receiving a message from the server.'));
          throw new Error('Invocation canceled due to the underlying connection being closed.');
        }
        if (method !== 'JoinGroup') {
          // The probe: deliver like a send, but without counting it as one.
          const [ts, payload] = args.slice(-2) as [number, string];
          for (const recipient of recipients(connection, method, args)) time.setTimeout(() => recipient.deliver(ts, payload), options.deliveryDelayMs);
          return undefined;
        }
        if (options.failJoin?.has(id)) throw new Error("An unexpected error occurred invoking 'JoinGroup' on the server.");
        connection.groups.add(args[0] as string);
        return undefined;
      },
      on: (method, handler) => void handlers.set(method, handler),
      answers,
      answer: (method, reply) => void answers.set(method, reply),
      upload: () => new FakeUpload(() => open),
      stream: (method, ...args) => {
        if (options.missingMethods?.has(method)) return failedStream(new Error(`Failed to invoke '${method}' due to an error on the server. HubException: Method does not exist.`));
        const n = sent.length;
        sent.push({ method, args });
        return new FakeItems((items) => {
          const later = (what: () => void) => time.setTimeout(what, options.deliveryDelayMs);
          if (method === 'Repeat') {
            if (!options.drop?.(id, n)) later(() => items.next(args[0]));
            later(() => items.complete());
          } else if (method === 'StreamEcho') {
            (args[0] as FakeUpload).observe({ next: (item) => later(() => items.next(item)), error: (error) => later(() => items.error(error)), complete: () => later(() => items.complete()) });
          } else if (method === 'RepeatObject') {
            later(() => items.next({ user: 'bench', message: args[0] }));
            later(() => items.complete());
          } else if (method === 'Counter') {
            for (let i = 0; i < (args[0] as number); i++) later(() => items.next(i));
            later(() => items.complete());
          } else {
            later(() => items.error(new Error(`Failed to invoke '${method}' due to an error on the server. HubException: Method does not exist.`)));
          }
        });
      },
      onClose: (handler) => (close = handler),
      onReconnecting: (handler) => (reconnecting = handler),
      onReconnected: (handler) => (reconnected = handler),
      cutTransport: () => {
        const afterMs = options.reconnectAfterMs;
        if (!open || afterMs === undefined) return false;
        open = false;
        generation++;
        connection.groups.clear();
        // The client notices the dead transport on its next turn, then retries.
        time.setTimeout(() => {
          reconnecting(new Error('The network dropped.'));
          time.setTimeout(() => {
            open = true;
            reconnected();
          }, afterMs);
        }, 0);
        return true;
      },
      onTransportLost: () => {},
      onResumed: () => {},
      deliver: (ts, payload) => connection.call('Measure', ts, payload),
      call: (method, ...args) => {
        if (open) handlers.get(method)?.(...args);
      },
      serverClose: (error) => {
        open = false;
        close(error);
      },
    };
    connections[id] = connection;
    return connection;
  };
  return { factory, connections };
}

/** A client-to-server stream: what the engine writes, handed to the fake hub's reader as it comes
 *  (while the connection is open; after complete nothing more). */
class FakeUpload implements UploadStream {
  readonly items: unknown[] = [];
  #reader: ItemObserver | null = null;
  #done = false;
  constructor(private readonly isOpen: () => boolean) {}
  observe(reader: ItemObserver): void {
    this.#reader = reader;
  }
  next(item: unknown): void {
    if (this.#done || !this.isOpen()) return;
    this.items.push(item);
    this.#reader?.next(item);
  }
  complete(): void {
    if (this.#done) return;
    this.#done = true;
    this.#reader?.complete();
  }
}

/** A server-to-client stream: the hub starts producing when the engine subscribes. */
class FakeItems implements ItemStream {
  #disposed = false;
  constructor(private readonly produce: (items: ItemObserver) => void) {}
  subscribe(observer: ItemObserver): { dispose(): void } {
    this.produce({
      next: (item) => void (this.#disposed || observer.next(item)),
      error: (error) => void (this.#disposed || observer.error(error)),
      complete: () => void (this.#disposed || observer.complete()),
    });
    return { dispose: () => void (this.#disposed = true) };
  }
}

function failedStream(error: Error): ItemStream {
  return { subscribe: (observer) => (queueMicrotask(() => observer.error(error)), { dispose: () => {} }) };
}

export function classifyPlainly(error: unknown): ClassifiedError {
  const message = error instanceof Error ? error.message : String(error);
  return { kind: /negotiat/.test(message) ? 'negotiate' : 'connect', message, cause: connectCauseOf(message) };
}
