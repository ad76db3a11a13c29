/** The size of a hub call in a protocol, as the official client's own writers encode it. */
import { JsonHubProtocol, MessageType, type IHubProtocol, type InvocationMessage } from '@microsoft/signalr';
import { MessagePackHubProtocol } from '@microsoft/signalr-protocol-msgpack';
import type { ProtocolName } from '../core/run/index.ts';
import type { EncodedSize } from '../workers/engine/connection.ts';

/**
 * Sizes hub calls with the official client's own protocol writers, so bandwidth is counted in
 * the bytes each protocol really puts on the wire (transport framing aside). A hub's writer may
 * differ by a byte or two (field order, an empty stream-id list).
 */
export function encodedSizeFor(protocolName: ProtocolName): EncodedSize {
  const protocol: IHubProtocol = protocolName === 'messagepack' ? new MessagePackHubProtocol() : new JsonHubProtocol();
  return (method, args) => {
    // The same shape HubConnection.send() writes: no invocation id, headers or stream ids.
    const encoded = protocol.writeMessage({ target: method, arguments: args, type: MessageType.Invocation } as InvocationMessage);
    return typeof encoded === 'string' ? new TextEncoder().encode(encoded).length : encoded.byteLength;
  };
}
