/**
 * Sends that are streams (a profile's deliver "stream" and its `{stream}` argument):
 * - `{stream}`: each connection calls the send method once, at its first slot, with a client-to-server
 *   stream, and each slot writes its message as an item of it. With deliver "stream" the call is
 *   a streaming call whose items come back (`UploadHub.StreamEcho`), else it is invoked and the
 *   hub delivers on the receive method (`UploadWords` → `Word`). A stream that ended (the hub
 *   returned or threw, the connection closed or reconnected with a new id) is opened again by the
 *   next slot; an item written to one that has just ended is lost with it.
 * - deliver "stream" with `{message}`: each slot opens its own streaming call; its items are
 *   receptions, and it stays in flight until it completes.
 * The items that come back go to the runner's accounting as any received message does (the first
 * carrying a text is its reception, later copies duplicates); a stream that completes without
 * its text leaves it missing.
 */
import type { PooledConnection } from './connection-pool.ts';
import type { UploadStream } from './connection.ts';
import type { SendSpec } from '../scenarios/scenario.ts';
import type { WorkerStats } from './worker-stats.ts';
import { STREAM_WORDS } from './stream-words.ts';

/** A connection's client-to-server stream and the connection it was opened on. */
interface Upload {
  stream: UploadStream;
  connectionId: string | null;
  ended: boolean;
}

/** What becomes of a slot's own streaming call. */
export interface SlotEnd {
  /** It completed (whatever it yielded). */
  completed(): void;
  failed(error: unknown): void;
}

export class StreamSends {
  readonly #uploads = new Map<PooledConnection, Upload>();
  /** Set once the run's streams are being ended: their ends are the run's own, not failures. */
  #closing = false;

  /** @param item where an item that came back goes (the runner's reception of a message). */
  constructor(private readonly stats: WorkerStats, private readonly item: (pooled: PooledConnection, item: unknown) => void) {}

  /** A slot of deliver "stream" with `{message}`: its own streaming call, `args` its arguments. */
  slot(pooled: PooledConnection, spec: SendSpec, args: unknown[], end: SlotEnd): void {
    pooled.connection.stream(spec.method, ...args).subscribe({
      next: (item) => this.item(pooled, item),
      complete: () => end.completed(),
      error: (error) => end.failed(error),
    });
  }

  /** A slot of a `{stream}` profile: its message as the next item of the connection's stream. */
  write(pooled: PooledConnection, spec: SendSpec, message: string): void {
    let upload = this.#uploads.get(pooled);
    if (!upload || upload.ended || upload.connectionId !== pooled.connection.connectionId) upload = this.#open(pooled, spec);
    upload.stream.next(message);
  }

  /** Ends every connection's stream (the drain is over): the hub's method sees its end. */
  completeAll(): void {
    this.#closing = true;
    for (const [pooled, upload] of this.#uploads) {
      if (!upload.ended && pooled.state === 'open') upload.stream.complete();
    }
  }

  #open(pooled: PooledConnection, spec: SendSpec): Upload {
    const connection = pooled.connection;
    const upload: Upload = { stream: connection.upload(), connectionId: connection.connectionId, ended: false };
    this.#uploads.set(pooled, upload);
    const ended = (error?: unknown) => {
      if (upload.ended) return;
      upload.ended = true;
      if (!this.#closing) this.stats.recordError('send', STREAM_WORDS.ended(spec.method, error));
    };
    // Its other arguments as at any send ({time} is 0 there: the call is no one message's).
    const args = spec.args(0, '', upload.stream);
    if (spec.streamsBack) connection.stream(spec.method, ...args).subscribe({ next: (item) => this.item(pooled, item), complete: () => ended(), error: ended });
    else connection.invoke(spec.method, ...args).then(() => ended(), ended);
    return upload;
  }
}
