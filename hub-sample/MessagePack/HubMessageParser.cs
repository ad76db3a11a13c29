using System.Runtime.ExceptionServices;
using System.Text;
using Microsoft.AspNetCore.SignalR;
using Microsoft.AspNetCore.SignalR.Protocol;

namespace HubSample.MessagePack;

/// <summary>
/// Turns one message payload (its length prefix already removed) into a <see cref="HubMessage"/>,
/// following the MessagePack encoding of SignalR's HubProtocol.md: each message is an array whose
/// first item is its type. Fields beyond those known are ignored, so that later protocol versions
/// can append some. Malformed messages throw <see cref="InvalidDataException"/>; arguments that do
/// not fit the hub method become binding-failure messages instead, which the hub answers with an
/// error completion while the connection stays open.
/// </summary>
public static partial class HubMessageParser
{
    public static HubMessage Parse(ReadOnlySpan<byte> payload, IInvocationBinder binder)
    {
        if (payload.IsEmpty)
        {
            throw new InvalidDataException("A hub message cannot be empty.");
        }

        var reader = new MessagePackReader(payload);
        var itemCount = reader.ReadArrayHeader();
        RequireItems(itemCount, 1, "hub");
        return ReadEnvelopeInt64(ref reader, "message type") switch
        {
            HubProtocolConstants.InvocationMessageType => ParseInvocation(ref reader, binder, itemCount, streaming: false),
            HubProtocolConstants.StreamInvocationMessageType => ParseInvocation(ref reader, binder, itemCount, streaming: true),
            HubProtocolConstants.StreamItemMessageType => ParseStreamItem(ref reader, binder, itemCount),
            HubProtocolConstants.CompletionMessageType => ParseCompletion(ref reader, binder, itemCount),
            HubProtocolConstants.CancelInvocationMessageType => ParseCancelInvocation(ref reader, itemCount),
            HubProtocolConstants.PingMessageType => PingMessage.Instance,
            HubProtocolConstants.CloseMessageType => ParseClose(ref reader, itemCount),
            HubProtocolConstants.AckMessageType => new AckMessage(ReadSequenceId(ref reader, itemCount, "Ack")),
            HubProtocolConstants.SequenceMessageType => new SequenceMessage(ReadSequenceId(ref reader, itemCount, "Sequence")),

            // Later protocol versions may add message types, which an older peer is meant to ignore.
            // The official parser returns no message for them, but the server's read loop then never
            // consumes the frame once MaximumReceiveMessageSize is set and the connection stalls.
            // A Ping is the protocol's own no-op, so handing one back skips the frame cleanly.
            _ => PingMessage.Instance,
        };
    }

    private static HubMessage ParseInvocation(ref MessagePackReader reader, IInvocationBinder binder, int itemCount, bool streaming)
    {
        var kind = streaming ? "StreamInvocation" : "Invocation";
        RequireItems(itemCount, 5, kind);
        var headers = ReadHeaders(ref reader);

        // An empty ID means "no reply wanted", like nil, for a plain invocation.
        var invocationId = reader.ReadString();
        if (string.IsNullOrEmpty(invocationId))
        {
            invocationId = streaming ? throw MissingInvocationId(kind) : null;
        }

        var target = ReadTarget(ref reader, binder);
        object?[] arguments;
        try
        {
            arguments = BindArguments(ref reader, binder.GetParameterTypes(target));
        }
        catch (Exception ex) when (ex is not InvalidDataException)
        {
            return new InvocationBindingFailureMessage(invocationId, target, ExceptionDispatchInfo.Capture(ex));
        }

        var streamIds = itemCount > 5 ? ReadStreamIds(ref reader) : null;
        HubMethodInvocationMessage message = streaming
            ? new StreamInvocationMessage(invocationId!, target, arguments, streamIds)
            : new InvocationMessage(invocationId, target, arguments, streamIds);
        return WithHeaders(message, headers);
    }

    private static object?[] BindArguments(ref MessagePackReader reader, IReadOnlyList<Type> parameterTypes)
    {
        var count = reader.ReadArrayHeader();
        if (count != parameterTypes.Count)
        {
            throw new HubException($"Invocation provides {count} argument(s) but the target expects {parameterTypes.Count}.");
        }

        if (count == 0)
        {
            return [];
        }

        var arguments = new object?[count];
        for (var i = 0; i < count; i++)
        {
            try
            {
                arguments[i] = ArgumentReader.Read(ref reader, parameterTypes[i]);
            }
            catch (HubException ex)
            {
                throw new HubException($"Error binding argument {i + 1}: {ex.Message}", ex);
            }
        }

        return arguments;
    }

    private static string ReadTarget(ref MessagePackReader reader, IInvocationBinder binder)
    {
        var utf8 = reader.ReadStringBytes();
        if (utf8.IsEmpty)
        {
            throw new InvalidDataException("An invocation must name its target method.");
        }

        // The server's binder hands back its own string for a known method name, which saves
        // decoding (and allocating) the same few names on every message.
        return binder.GetTarget(utf8) ?? Encoding.UTF8.GetString(utf8);
    }

    private static string[]? ReadStreamIds(ref MessagePackReader reader)
    {
        var count = reader.ReadArrayHeader();
        if (count == 0)
        {
            return null;
        }

        var streamIds = new string[count];
        for (var i = 0; i < count; i++)
        {
            var streamId = reader.ReadString();
            streamIds[i] = string.IsNullOrEmpty(streamId)
                ? throw new InvalidDataException("Stream IDs cannot be null or empty.")
                : streamId;
        }

        return streamIds;
    }

    private static HubMessage ParseCancelInvocation(ref MessagePackReader reader, int itemCount)
    {
        RequireItems(itemCount, 3, "CancelInvocation");
        var headers = ReadHeaders(ref reader);
        var invocationId = ReadRequiredInvocationId(ref reader, "CancelInvocation");
        return WithHeaders(new CancelInvocationMessage(invocationId), headers);
    }

    private static CloseMessage ParseClose(ref MessagePackReader reader, int itemCount)
    {
        RequireItems(itemCount, 2, "Close");
        var error = reader.ReadString();
        var allowReconnect = itemCount > 2 && reader.ReadBoolean();
        return error is null && !allowReconnect ? CloseMessage.Empty : new CloseMessage(error, allowReconnect);
    }

    private static long ReadSequenceId(ref MessagePackReader reader, int itemCount, string kind)
    {
        RequireItems(itemCount, 2, kind);
        return ReadEnvelopeInt64(ref reader, "sequence ID");
    }
}
