using System.Buffers;
using System.Diagnostics.CodeAnalysis;
using Microsoft.AspNetCore.Connections;
using Microsoft.AspNetCore.SignalR;
using Microsoft.AspNetCore.SignalR.Protocol;

namespace HubSample.MessagePack;

/// <summary>
/// SignalR's "messagepack" hub protocol, wire-compatible with the official server package and the
/// @microsoft/signalr-protocol-msgpack client, written here because that package is not available
/// to this project. Each message is a VarInt length prefix (<see cref="VarIntFraming"/>) followed by
/// one MessagePack array (<see cref="HubMessageParser"/>, <see cref="HubMessageWriter"/>).
/// </summary>
public sealed class MessagePackWireProtocol : IHubProtocol
{
    public const string ProtocolName = "messagepack";

    // Version 2 adds the Ack and Sequence messages of stateful reconnect. The JS client announces
    // version 1 in its handshake unless stateful reconnect is switched on, so both must be accepted.
    public const int ProtocolVersion = 2;

    public string Name => ProtocolName;

    public int Version => ProtocolVersion;

    public TransferFormat TransferFormat => TransferFormat.Binary;

    public bool IsVersionSupported(int version) => version <= ProtocolVersion;

    public bool TryParseMessage(ref ReadOnlySequence<byte> input, IInvocationBinder binder, [NotNullWhen(true)] out HubMessage? message)
    {
        if (!VarIntFraming.TryReadFrame(input, out var payload))
        {
            message = null;
            return false;
        }

        message = payload.IsSingleSegment
            ? HubMessageParser.Parse(payload.FirstSpan, binder)
            : ParseScattered(payload, binder);
        input = input.Slice(payload.End);
        return true;
    }

    public void WriteMessage(HubMessage message, IBufferWriter<byte> output)
    {
        var payload = ScratchBuffer.Rent();
        try
        {
            WritePayload(message, payload);
            VarIntFraming.WritePrefix(payload.WrittenCount, output);
            output.Write(payload.WrittenSpan);
        }
        finally
        {
            ScratchBuffer.Return(payload);
        }
    }

    public ReadOnlyMemory<byte> GetMessageBytes(HubMessage message)
    {
        var payload = ScratchBuffer.Rent();
        try
        {
            WritePayload(message, payload);
            var prefixLength = VarIntFraming.GetPrefixLength(payload.WrittenCount);
            var bytes = new byte[prefixLength + payload.WrittenCount];
            VarIntFraming.WritePrefix(payload.WrittenCount, bytes);
            payload.WrittenSpan.CopyTo(bytes.AsSpan(prefixLength));
            return bytes;
        }
        finally
        {
            ScratchBuffer.Return(payload);
        }
    }

    // The length prefix comes first but depends on the payload's size, so the payload is built
    // aside and copied after it, as the official implementation does.
    private static void WritePayload(HubMessage message, ArrayBufferWriter<byte> payload)
    {
        var writer = new MessagePackWriter(payload);
        HubMessageWriter.Write(message, ref writer);
    }

    // A frame split across pipe segments (large messages, or unlucky reads) is gathered into one
    // pooled block so that the reader can work on a single span.
    private static HubMessage ParseScattered(in ReadOnlySequence<byte> payload, IInvocationBinder binder)
    {
        var length = (int)payload.Length;
        var rented = ArrayPool<byte>.Shared.Rent(length);
        try
        {
            payload.CopyTo(rented);
            return HubMessageParser.Parse(rented.AsSpan(0, length), binder);
        }
        finally
        {
            ArrayPool<byte>.Shared.Return(rented);
        }
    }
}
