using System.Buffers;
using System.Runtime.ExceptionServices;
using Microsoft.AspNetCore.SignalR;
using Microsoft.AspNetCore.SignalR.Protocol;

namespace HubSample.MessagePack;

/// <summary>
/// The messages a client sends in answer to the server: items of a stream it uploads, and the
/// completion of a client-result invocation; plus the field readers every message shares.
/// </summary>
public static partial class HubMessageParser
{
    private const long ErrorResult = 1;
    private const long VoidResult = 2;
    private const long NonVoidResult = 3;

    private static HubMessage ParseStreamItem(ref MessagePackReader reader, IInvocationBinder binder, int itemCount)
    {
        RequireItems(itemCount, 4, "StreamItem");
        var headers = ReadHeaders(ref reader);
        var invocationId = ReadRequiredInvocationId(ref reader, "StreamItem");
        object? item;
        try
        {
            item = ArgumentReader.Read(ref reader, binder.GetStreamItemType(invocationId));
        }
        catch (Exception ex) when (ex is not InvalidDataException)
        {
            return new StreamBindingFailureMessage(invocationId, ExceptionDispatchInfo.Capture(ex));
        }

        return WithHeaders(new StreamItemMessage(invocationId, item), headers);
    }

    private static HubMessage ParseCompletion(ref MessagePackReader reader, IInvocationBinder binder, int itemCount)
    {
        RequireItems(itemCount, 4, "Completion");
        var headers = ReadHeaders(ref reader);
        var invocationId = ReadRequiredInvocationId(ref reader, "Completion");
        var resultKind = ReadEnvelopeInt64(ref reader, "result kind");
        if (resultKind != VoidResult)
        {
            RequireItems(itemCount, 5, "Completion");
        }

        var completion = resultKind switch
        {
            ErrorResult => CompletionMessage.WithError(invocationId, reader.ReadString()),
            VoidResult => CompletionMessage.Empty(invocationId),
            NonVoidResult => ReadCompletionResult(ref reader, binder, invocationId),
            _ => throw new InvalidDataException($"Completion message has unknown result kind {resultKind}."),
        };
        return WithHeaders(completion, headers);
    }

    private static CompletionMessage ReadCompletionResult(ref MessagePackReader reader, IInvocationBinder binder, string invocationId)
    {
        Type? resultType;
        try
        {
            resultType = binder.GetReturnType(invocationId);
        }
        catch (Exception ex) when (ex is not InvalidDataException)
        {
            // Nobody waits for this result any more (it timed out, or never existed): drop it.
            reader.Skip();
            return CompletionMessage.WithResult(invocationId, null);
        }

        if (resultType == typeof(RawResult))
        {
            return CompletionMessage.WithResult(invocationId, new RawResult(new ReadOnlySequence<byte>(reader.ReadRaw().ToArray())));
        }

        try
        {
            return CompletionMessage.WithResult(invocationId, ArgumentReader.Read(ref reader, resultType));
        }
        catch (Exception ex) when (ex is not InvalidDataException)
        {
            return CompletionMessage.WithError(invocationId, $"Error trying to deserialize result to {resultType.Name}. {ex.Message}");
        }
    }

    private static Dictionary<string, string>? ReadHeaders(ref MessagePackReader reader)
    {
        var count = reader.ReadMapHeader();
        if (count == 0)
        {
            return null;
        }

        var headers = new Dictionary<string, string>(count, StringComparer.Ordinal);
        for (var i = 0; i < count; i++)
        {
            var key = reader.ReadString();
            var value = reader.ReadString();
            if (string.IsNullOrEmpty(key) || value is null)
            {
                throw new InvalidDataException("Message headers must map non-empty strings to strings.");
            }

            headers[key] = value;
        }

        return headers;
    }

    private static string ReadRequiredInvocationId(ref MessagePackReader reader, string kind)
    {
        var invocationId = reader.ReadString();
        return string.IsNullOrEmpty(invocationId) ? throw MissingInvocationId(kind) : invocationId;
    }

    private static long ReadEnvelopeInt64(ref MessagePackReader reader, string field)
    {
        try
        {
            return reader.ReadInt64();
        }
        catch (OverflowException ex)
        {
            throw new InvalidDataException($"The {field} does not fit a 64-bit integer.", ex);
        }
    }

    private static T WithHeaders<T>(T message, Dictionary<string, string>? headers) where T : HubInvocationMessage
    {
        if (headers is not null)
        {
            message.Headers = headers;
        }

        return message;
    }

    private static void RequireItems(int itemCount, int required, string kind)
    {
        if (itemCount < required)
        {
            throw new InvalidDataException($"A {kind} message needs at least {required} items but has {itemCount}.");
        }
    }

    private static InvalidDataException MissingInvocationId(string kind) =>
        new($"A {kind} message needs a non-empty invocation ID.");
}
