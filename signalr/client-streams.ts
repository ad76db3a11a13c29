/**
 * Client-to-server streams with the official client, made safe for a benchmark that loses
 * connections on purpose. The client writes a stream's items one after another on a promise
 * chain of its own (HubConnection._launchStreams); a write that fails there (the connection
 * closed with items queued, as a long-polling POST under a dropped hub does) rejects a promise
 * nobody holds, and an unhandled rejection ends the engine's thread. So each item and each
 * end of a stream this client writes has its failure caught: the item is lost with the
 * connection, which the run counts anyway (its reception never comes). Reads the client's private
 * `_sendWithProtocol` (`@microsoft/signalr` 10.0.x); if a later version moves it, streams still
 * work unguarded.
 */
import { MessageType, Subject, type HubConnection } from '@microsoft/signalr';
import type { UploadStream } from '../workers/engine/connection.ts';

interface SendFields {
  _sendWithProtocol?: (message: { type?: number }) => Promise<void>;
  /** Set here once the writer is wrapped. */
  benchStreamsGuarded?: boolean;
}

/** A new client-to-server stream on `hub`, its writes guarded. */
export function uploadStream(hub: HubConnection): UploadStream {
  guardStreamWrites(hub);
  return new Subject<unknown>();
}

function guardStreamWrites(hub: HubConnection): void {
  const fields = hub as unknown as SendFields;
  const write = fields._sendWithProtocol;
  if (fields.benchStreamsGuarded || typeof write !== 'function') return;
  fields.benchStreamsGuarded = true;
  fields._sendWithProtocol = function (this: unknown, message) {
    const sent = write.call(this, message);
    // Items and stream ends (completions the client sends: a stream's end, or a client result's
    // answer, whose failure the client catches itself) are never awaited by anyone who would catch.
    return message.type === MessageType.StreamItem || message.type === MessageType.Completion ? sent.catch(() => undefined) : sent;
  };
}
