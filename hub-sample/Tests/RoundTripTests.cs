using System.Buffers;
using HubSample.MessagePack;
using Microsoft.AspNetCore.Connections;
using Microsoft.AspNetCore.SignalR.Protocol;

namespace HubSample.Tests;

public class RoundTripTests
{
    [Fact]
    public void Protocol_identity_matches_the_JS_client()
    {
        var protocol = Wire.Protocol;

        Assert.Equal("messagepack", protocol.Name);
        Assert.Equal(2, protocol.Version);
        Assert.Equal(TransferFormat.Binary, protocol.TransferFormat);
        Assert.True(protocol.IsVersionSupported(1));
        Assert.True(protocol.IsVersionSupported(2));
        Assert.False(protocol.IsVersionSupported(3));
    }

    [Fact]
    public void Invocation_with_id_headers_and_stream_ids()
    {
        var sent = new InvocationMessage("42", "Echo", [1731234567890123L, "payload"], ["s1", "s2"])
        {
            Headers = new Dictionary<string, string> { ["trace"] = "abc" },
        };

        var got = Wire.RoundTrip<InvocationMessage>(sent);

        Assert.Equal("42", got.InvocationId);
        Assert.Equal("Echo", got.Target);
        Assert.Equal<object?>([1731234567890123L, "payload"], got.Arguments);
        Assert.Equal(["s1", "s2"], got.StreamIds!);
        Assert.Equal("abc", got.Headers!["trace"]);
    }

    [Fact]
    public void Invocation_without_id_is_nonblocking()
    {
        var got = Wire.RoundTrip<InvocationMessage>(new InvocationMessage("Echo", [5L, "x"]));

        Assert.Null(got.InvocationId);
        Assert.Null(got.StreamIds);
        Assert.Null(got.Headers);
        Assert.Equal<object?>([5L, "x"], got.Arguments);
    }

    [Fact]
    public void StreamInvocation()
    {
        var got = Wire.RoundTrip<StreamInvocationMessage>(new StreamInvocationMessage("7", "Counter", [10]));

        Assert.Equal("7", got.InvocationId);
        Assert.Equal("Counter", got.Target);
        Assert.Equal<object?>([10], got.Arguments);
    }

    [Fact]
    public void StreamItem_is_bound_to_the_stream_item_type()
    {
        var binder = new TestBinder();
        binder.StreamItemTypes["s1"] = typeof(int);

        var got = Wire.RoundTrip<StreamItemMessage>(new StreamItemMessage("s1", 12), binder);

        Assert.Equal("s1", got.InvocationId);
        Assert.Equal(12, got.Item);
    }

    [Fact]
    public void StreamItem_for_an_unknown_stream_is_a_binding_failure()
    {
        var got = Wire.RoundTrip<StreamBindingFailureMessage>(new StreamItemMessage("nope", 12));

        Assert.Equal("nope", got.Id);
    }

    [Fact]
    public void Completion_of_each_result_kind()
    {
        var binder = new TestBinder();
        binder.ReturnTypes["3"] = typeof(string);

        var error = Wire.RoundTrip<CompletionMessage>(CompletionMessage.WithError("1", "boom"), binder);
        var empty = Wire.RoundTrip<CompletionMessage>(CompletionMessage.Empty("2"), binder);
        var result = Wire.RoundTrip<CompletionMessage>(CompletionMessage.WithResult("3", "value"), binder);

        Assert.Equal(("1", "boom", false), (error.InvocationId, error.Error, error.HasResult));
        Assert.Equal(("2", null, false), (empty.InvocationId, empty.Error, empty.HasResult));
        Assert.Equal(("3", "value", true), (result.InvocationId, result.Result, result.HasResult));
    }

    [Fact]
    public void Completion_nobody_waits_for_is_read_and_dropped()
    {
        var got = Wire.RoundTrip<CompletionMessage>(CompletionMessage.WithResult("9", new[] { 1, 2, 3 }));

        Assert.True(got.HasResult);
        Assert.Null(got.Result);
    }

    [Fact]
    public void Completion_result_can_stay_raw()
    {
        var binder = new TestBinder();
        binder.ReturnTypes["4"] = typeof(RawResult);

        var got = Wire.RoundTrip<CompletionMessage>(CompletionMessage.WithResult("4", new object?[] { 1, "a" }), binder);

        var raw = Assert.IsType<RawResult>(got.Result);
        Assert.Equal("9201a161", Wire.ToHex(raw.RawSerializedData.ToArray()));
    }

    [Fact]
    public void Completion_result_of_the_wrong_type_becomes_an_error()
    {
        var binder = new TestBinder();
        binder.ReturnTypes["5"] = typeof(int);

        var got = Wire.RoundTrip<CompletionMessage>(CompletionMessage.WithResult("5", "not a number"), binder);

        Assert.False(got.HasResult);
        Assert.Contains("Int32", got.Error);
    }

    [Fact]
    public void CancelInvocation()
    {
        var got = Wire.RoundTrip<CancelInvocationMessage>(new CancelInvocationMessage("8"));

        Assert.Equal("8", got.InvocationId);
    }

    [Fact]
    public void Ping_is_the_documented_three_bytes()
    {
        Assert.Equal("029106", Wire.ToHex(Wire.Write(PingMessage.Instance)));
        Assert.Same(PingMessage.Instance, Wire.RoundTrip<PingMessage>(PingMessage.Instance));
    }

    [Fact]
    public void Close_with_error_and_reconnect()
    {
        Assert.Equal("049307c0c2", Wire.ToHex(Wire.Write(CloseMessage.Empty)));
        Assert.Same(CloseMessage.Empty, Wire.RoundTrip<CloseMessage>(CloseMessage.Empty));

        var got = Wire.RoundTrip<CloseMessage>(new CloseMessage("bye", allowReconnect: true));

        Assert.Equal(("bye", true), (got.Error, got.AllowReconnect));
    }

    [Fact]
    public void Ack_and_Sequence()
    {
        Assert.Equal(1L << 40, Wire.RoundTrip<AckMessage>(new AckMessage(1L << 40)).SequenceId);
        Assert.Equal(5, Wire.RoundTrip<SequenceMessage>(new SequenceMessage(5)).SequenceId);
    }

    [Fact]
    public void GetMessageBytes_matches_WriteMessage()
    {
        var message = new InvocationMessage("Measure", [1731234567890123L, new string('z', 500)]);

        Assert.Equal(Wire.Write(message), Wire.Protocol.GetMessageBytes(message).ToArray());
    }

    [Fact]
    public void Two_frames_in_one_buffer_are_parsed_one_per_call()
    {
        var invocation = Wire.Write(new InvocationMessage("Echo", [1L, "a"]));
        var input = new ReadOnlySequence<byte>([.. Wire.Write(PingMessage.Instance), .. invocation]);
        var binder = new TestBinder();

        Assert.True(Wire.Protocol.TryParseMessage(ref input, binder, out var first));
        Assert.IsType<PingMessage>(first);
        Assert.Equal(invocation.Length, input.Length);
        Assert.True(Wire.Protocol.TryParseMessage(ref input, binder, out var second));
        Assert.IsType<InvocationMessage>(second);
        Assert.True(input.IsEmpty);
        Assert.False(Wire.Protocol.TryParseMessage(ref input, binder, out _));
    }

    [Fact]
    public void Partial_frames_return_false_and_leave_the_input_untouched()
    {
        var frame = Wire.Write(new InvocationMessage("Echo", [1L, new string('p', 200)]));

        for (var length = 0; length < frame.Length; length++)
        {
            var input = new ReadOnlySequence<byte>(frame, 0, length);
            var before = input;

            Assert.False(Wire.Protocol.TryParseMessage(ref input, new TestBinder(), out var message));
            Assert.Null(message);
            Assert.Equal(before, input);
        }
    }

    [Fact]
    public void Frames_split_across_segments_anywhere_still_parse()
    {
        var frame = Wire.Write(new InvocationMessage("1", "Echo", [1731234567890123L, new string('q', 300)]));

        for (var cut = 1; cut < frame.Length; cut += 7)
        {
            var input = Wire.Segmented(frame, 1, cut == 1 ? 2 : cut);
            Assert.True(Wire.Protocol.TryParseMessage(ref input, new TestBinder(), out var message));
            Assert.Equal(1731234567890123L, Assert.IsType<InvocationMessage>(message).Arguments[0]);
            Assert.True(input.IsEmpty);
        }
    }
}
