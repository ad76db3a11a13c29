using Microsoft.AspNetCore.SignalR.Protocol;

namespace HubSample.MessagePack;

/// <summary>
/// Writes one <see cref="HubMessage"/> as the MessagePack array HubProtocol.md describes, without
/// its length prefix. Arrays carry only the items the message needs: the JS client and the official
/// .NET client both accept an Invocation without the trailing, empty stream ID list.
/// </summary>
public static class HubMessageWriter
{
    private const int ErrorResult = 1;
    private const int VoidResult = 2;
    private const int NonVoidResult = 3;

    public static void Write(HubMessage message, ref MessagePackWriter writer)
    {
        switch (message)
        {
            case InvocationMessage invocation:
                WriteInvocation(HubProtocolConstants.InvocationMessageType, invocation, ref writer);
                break;
            case CompletionMessage completion:
                WriteCompletion(completion, ref writer);
                break;
            case StreamItemMessage streamItem:
                WriteHead(HubProtocolConstants.StreamItemMessageType, 4, streamItem, ref writer);
                ArgumentWriter.Write(ref writer, streamItem.Item);
                break;
            case PingMessage:
                writer.WriteArrayHeader(1);
                writer.WriteInt64(HubProtocolConstants.PingMessageType);
                break;
            default:
                WriteControl(message, ref writer);
                break;
        }
    }

    private static void WriteControl(HubMessage message, ref MessagePackWriter writer)
    {
        switch (message)
        {
            case CloseMessage close:
                writer.WriteArrayHeader(3);
                writer.WriteInt64(HubProtocolConstants.CloseMessageType);
                writer.WriteString(string.IsNullOrEmpty(close.Error) ? null : close.Error);
                writer.WriteBoolean(close.AllowReconnect);
                break;
            case CancelInvocationMessage cancel:
                WriteHead(HubProtocolConstants.CancelInvocationMessageType, 3, cancel, ref writer);
                break;
            case StreamInvocationMessage streamInvocation:
                WriteInvocation(HubProtocolConstants.StreamInvocationMessageType, streamInvocation, ref writer);
                break;
            case AckMessage ack:
                WriteSequenceMessage(HubProtocolConstants.AckMessageType, ack.SequenceId, ref writer);
                break;
            case SequenceMessage sequence:
                WriteSequenceMessage(HubProtocolConstants.SequenceMessageType, sequence.SequenceId, ref writer);
                break;
            default:
                throw new NotSupportedException(
                    $"The messagepack hub protocol cannot write a {message.GetType().Name}.");
        }
    }

    private static void WriteInvocation(int messageType, HubMethodInvocationMessage message, ref MessagePackWriter writer)
    {
        var streamIds = message.StreamIds;
        var hasStreams = streamIds is { Length: > 0 };
        WriteHead(messageType, hasStreams ? 6 : 5, message, ref writer);
        writer.WriteString(message.Target);

        var arguments = message.Arguments ?? [];
        writer.WriteArrayHeader(arguments.Length);
        foreach (var argument in arguments)
        {
            ArgumentWriter.Write(ref writer, argument);
        }

        if (hasStreams)
        {
            writer.WriteArrayHeader(streamIds!.Length);
            foreach (var streamId in streamIds)
            {
                writer.WriteString(streamId);
            }
        }
    }

    private static void WriteCompletion(CompletionMessage message, ref MessagePackWriter writer)
    {
        var resultKind = message.Error is not null ? ErrorResult : message.HasResult ? NonVoidResult : VoidResult;
        WriteHead(HubProtocolConstants.CompletionMessageType, resultKind == VoidResult ? 4 : 5, message, ref writer);
        writer.WriteInt64(resultKind);
        if (resultKind == ErrorResult)
        {
            writer.WriteString(message.Error);
        }
        else if (resultKind == NonVoidResult)
        {
            ArgumentWriter.Write(ref writer, message.Result);
        }
    }

    /// <summary>Writes the array header, the type, the headers and the invocation ID (nil when none).</summary>
    private static void WriteHead(int messageType, int itemCount, HubInvocationMessage message, ref MessagePackWriter writer)
    {
        writer.WriteArrayHeader(itemCount);
        writer.WriteInt64(messageType);
        WriteHeaders(message.Headers, ref writer);
        writer.WriteString(string.IsNullOrEmpty(message.InvocationId) ? null : message.InvocationId);
    }

    private static void WriteHeaders(IDictionary<string, string>? headers, ref MessagePackWriter writer)
    {
        if (headers is null || headers.Count == 0)
        {
            writer.WriteMapHeader(0);
            return;
        }

        writer.WriteMapHeader(headers.Count);
        foreach (var (key, value) in headers)
        {
            writer.WriteString(key);
            writer.WriteString(value);
        }
    }

    private static void WriteSequenceMessage(int messageType, long sequenceId, ref MessagePackWriter writer)
    {
        writer.WriteArrayHeader(2);
        writer.WriteInt64(messageType);
        writer.WriteInt64(sequenceId);
    }
}
