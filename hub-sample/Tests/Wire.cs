using System.Buffers;
using HubSample.MessagePack;
using Microsoft.AspNetCore.SignalR;
using Microsoft.AspNetCore.SignalR.Protocol;

namespace HubSample.Tests;

/// <summary>Shortcuts for building and reading frames in tests.</summary>
internal static class Wire
{
    public static readonly MessagePackWireProtocol Protocol = new();

    public static byte[] Hex(string hex) => Convert.FromHexString(hex);

    public static string ToHex(ReadOnlySpan<byte> bytes) => Convert.ToHexStringLower(bytes);

    public static byte[] Write(HubMessage message)
    {
        var output = new ArrayBufferWriter<byte>();
        Protocol.WriteMessage(message, output);
        return output.WrittenSpan.ToArray();
    }

    /// <summary>Encodes a payload with <paramref name="build"/> and puts the length prefix in front.</summary>
    public static byte[] Frame(Action<MessagePackWriterBox> build)
    {
        var payload = new ArrayBufferWriter<byte>();
        build(new MessagePackWriterBox(payload));
        return Frame(payload.WrittenSpan);
    }

    public static byte[] Frame(ReadOnlySpan<byte> payload)
    {
        var prefix = new byte[VarIntFraming.MaxPrefixLength];
        var prefixLength = VarIntFraming.WritePrefix(payload.Length, prefix);
        return [.. prefix.AsSpan(0, prefixLength), .. payload];
    }

    public static HubMessage ParseOne(byte[] frame, IInvocationBinder? binder = null)
    {
        var input = new ReadOnlySequence<byte>(frame);
        Assert.True(Protocol.TryParseMessage(ref input, binder ?? new TestBinder(), out var message));
        Assert.True(input.IsEmpty, "the whole frame should be consumed");
        return message!;
    }

    public static T ParseOne<T>(byte[] frame, IInvocationBinder? binder = null) where T : HubMessage =>
        Assert.IsType<T>(ParseOne(frame, binder));

    public static T RoundTrip<T>(HubMessage message, IInvocationBinder? binder = null) where T : HubMessage =>
        ParseOne<T>(Write(message), binder);

    /// <summary>Splits <paramref name="bytes"/> into a multi-segment sequence, cutting at each offset given.</summary>
    public static ReadOnlySequence<byte> Segmented(byte[] bytes, params int[] cuts)
    {
        var bounds = cuts.Append(bytes.Length).ToArray();
        var first = new Segment(bytes.AsMemory(0, bounds[0]), 0);
        var last = first;
        for (var i = 1; i < bounds.Length; i++)
        {
            last = last.Append(bytes.AsMemory(bounds[i - 1], bounds[i] - bounds[i - 1]));
        }

        return new ReadOnlySequence<byte>(first, 0, last, last.Memory.Length);
    }

    private sealed class Segment : ReadOnlySequenceSegment<byte>
    {
        public Segment(ReadOnlyMemory<byte> memory, long runningIndex)
        {
            Memory = memory;
            RunningIndex = runningIndex;
        }

        public Segment Append(ReadOnlyMemory<byte> memory)
        {
            var next = new Segment(memory, RunningIndex + Memory.Length);
            Next = next;
            return next;
        }
    }
}

/// <summary>
/// A class wrapper so that lambdas can build payloads: <see cref="MessagePackWriter"/> is a ref
/// struct and cannot be captured.
/// </summary>
internal sealed class MessagePackWriterBox(IBufferWriter<byte> output)
{
    public MessagePackWriterBox Array(int count) { new MessagePackWriter(output).WriteArrayHeader(count); return this; }
    public MessagePackWriterBox Map(int count) { new MessagePackWriter(output).WriteMapHeader(count); return this; }
    public MessagePackWriterBox Int(long value) { new MessagePackWriter(output).WriteInt64(value); return this; }
    public MessagePackWriterBox UInt(ulong value) { new MessagePackWriter(output).WriteUInt64(value); return this; }
    public MessagePackWriterBox Double(double value) { new MessagePackWriter(output).WriteDouble(value); return this; }
    public MessagePackWriterBox Single(float value) { new MessagePackWriter(output).WriteSingle(value); return this; }
    public MessagePackWriterBox Str(string? value) { new MessagePackWriter(output).WriteString(value); return this; }
    public MessagePackWriterBox Bin(byte[] value) { new MessagePackWriter(output).WriteBinary(value); return this; }
    public MessagePackWriterBox Bool(bool value) { new MessagePackWriter(output).WriteBoolean(value); return this; }
    public MessagePackWriterBox Nil() { new MessagePackWriter(output).WriteNil(); return this; }
    public MessagePackWriterBox Raw(params byte[] bytes) { output.Write(bytes); return this; }
}
