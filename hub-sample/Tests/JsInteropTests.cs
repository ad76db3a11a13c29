using Microsoft.AspNetCore.SignalR.Protocol;

namespace HubSample.Tests;

/// <summary>
/// Byte-level compatibility with the official JS client, @microsoft/signalr-protocol-msgpack 10.0.11
/// (which encodes with @msgpack/msgpack 2.8.0).
///
/// Client to server: each fixture is the hex that client's MessagePackHubProtocol.writeMessage
/// returned, printed by a throwaway Node script that required the package from node_modules, for
/// the message named beside it (the messages HubConnection builds: streamIds [] included).
///
/// Server to client: each expected hex is what this writer produced, run through that same
/// package's parseMessages by the same throwaway script, which read back the values shown.
/// Where the JS writer can produce the same message, its bytes were also compared and are identical.
/// </summary>
public class JsInteropTests
{
    private const long Timestamp = 1731234567890123;

    // 300 'x' characters as UTF-8, the middle of the Echo and Measure fixtures.
    private static readonly string X300 = string.Concat(Enumerable.Repeat("78", 300));

    // writeMessage({ type: 1, invocationId: "1", target: "Echo", arguments: [1731234567890123, "x".repeat(300)], streamIds: [] })
    private static readonly string EchoWithId = "c402960180a131a44563686f92cf0006268c757124cbda012c" + X300 + "90";

    // writeMessage({ type: 1, target: "Echo", arguments: [1731234567890123, "x".repeat(300)], streamIds: [] })
    private static readonly string EchoWithoutId = "c302960180c0a44563686f92cf0006268c757124cbda012c" + X300 + "90";

    [Fact]
    public void JS_invocation_with_id()
    {
        var message = Wire.ParseOne<InvocationMessage>(Wire.Hex(EchoWithId));

        Assert.Equal("1", message.InvocationId);
        Assert.Equal("Echo", message.Target);
        Assert.Equal(Timestamp, Assert.IsType<long>(message.Arguments[0]));
        Assert.Equal(new string('x', 300), message.Arguments[1]);
        Assert.Null(message.StreamIds);
    }

    [Fact]
    public void JS_invocation_without_id()
    {
        var message = Wire.ParseOne<InvocationMessage>(Wire.Hex(EchoWithoutId));

        Assert.Null(message.InvocationId);
        Assert.Equal<object?>([Timestamp, new string('x', 300)], message.Arguments);
    }

    [Fact]
    public void JS_number_beyond_2_pow_53_arrives_as_float64_and_binds_to_long()
    {
        // writeMessage({ type: 1, invocationId: "9", target: "Echo", arguments: [9007199254740994, "x"], streamIds: [] })
        var message = Wire.ParseOne<InvocationMessage>(Wire.Hex("17960180a139a44563686f92cb4340000000000001a17890"));

        Assert.Equal(9007199254740994L, message.Arguments[0]);
    }

    [Fact]
    public void JS_fractional_number_for_a_long_is_a_binding_failure()
    {
        // writeMessage({ type: 1, invocationId: "2", target: "Echo", arguments: [1.5, "x"], streamIds: [] })
        var failure = Wire.ParseOne<InvocationBindingFailureMessage>(Wire.Hex("17960180a132a44563686f92cb3ff8000000000000a17890"));

        Assert.Equal("2", failure.InvocationId);
        Assert.Equal("Echo", failure.Target);
    }

    [Fact]
    public void JS_mixed_argument_kinds()
    {
        // writeMessage({ type: 1, target: "Bytes", arguments: [new Uint8Array([1, 2, 3]), null, true, -5, 4294967296], streamIds: [] })
        var binder = new TestBinder().With("Bytes", typeof(byte[]), typeof(string), typeof(bool), typeof(int), typeof(long));

        var message = Wire.ParseOne<InvocationMessage>(Wire.Hex("1d960180c0a5427974657395c403010203c0c3fbcf000000010000000090"), binder);

        Assert.Equal(new byte[] { 1, 2, 3 }, message.Arguments[0]);
        Assert.Equal<object?>([null, true, -5, 4294967296L], message.Arguments[1..]);
    }

    [Fact]
    public void JS_ping() => Assert.Same(PingMessage.Instance, Wire.ParseOne(Wire.Hex("029106")));

    [Fact]
    public void JS_close()
    {
        // writeMessage({ type: 7 }): the JS client writes only [7, nil].
        Assert.Same(CloseMessage.Empty, Wire.ParseOne(Wire.Hex("039207c0")));
    }

    [Fact]
    public void JS_cancel_invocation()
    {
        // writeMessage({ type: 5, invocationId: "7" })
        Assert.Equal("7", Wire.ParseOne<CancelInvocationMessage>(Wire.Hex("05930580a137")).InvocationId);
    }

    [Fact]
    public void JS_stream_invocation()
    {
        // writeMessage({ type: 4, invocationId: "3", target: "Counter", arguments: [10], streamIds: [] })
        var message = Wire.ParseOne<StreamInvocationMessage>(Wire.Hex("10960480a133a7436f756e746572910a90"));

        Assert.Equal(("3", "Counter"), (message.InvocationId, message.Target));
        Assert.Equal<object?>([10], message.Arguments);
    }

    [Fact]
    public void JS_ack_and_sequence()
    {
        // writeMessage({ type: 8, sequenceId: 1394 }) and writeMessage({ type: 9, sequenceId: 5 })
        Assert.Equal(1394, Wire.ParseOne<AckMessage>(Wire.Hex("059208cd0572")).SequenceId);
        Assert.Equal(5, Wire.ParseOne<SequenceMessage>(Wire.Hex("03920905")).SequenceId);
    }

    [Fact]
    public void JS_frames_back_to_back()
    {
        var input = new System.Buffers.ReadOnlySequence<byte>(Wire.Hex("029106" + EchoWithoutId + "039207c0"));
        var binder = new TestBinder();

        Assert.True(Wire.Protocol.TryParseMessage(ref input, binder, out var ping));
        Assert.True(Wire.Protocol.TryParseMessage(ref input, binder, out var echo));
        Assert.True(Wire.Protocol.TryParseMessage(ref input, binder, out var close));

        Assert.IsType<PingMessage>(ping);
        Assert.IsType<InvocationMessage>(echo);
        Assert.IsType<CloseMessage>(close);
        Assert.True(input.IsEmpty);
    }

    [Fact]
    public void Measure_as_the_JS_client_reads_it()
    {
        // JS parse: { type: 1, target: "Measure", headers: {}, arguments: [1731234567890123, "hello"] },
        // the number a safe integer; JS writeMessage of that same invocation gives the same bytes.
        Assert.Equal(
            "1c950180c0a74d65617375726592cf0006268c757124cba568656c6c6f",
            Wire.ToHex(Wire.Write(new InvocationMessage("Measure", [Timestamp, "hello"]))));

        // JS parse: arguments [1731234567890123, "x".repeat(300)] (2-byte length prefix, str16).
        Assert.Equal(
            "c502950180c0a74d65617375726592cf0006268c757124cbda012c" + X300,
            Wire.ToHex(Wire.Write(new InvocationMessage("Measure", [Timestamp, new string('x', 300)]))));
    }

    [Fact]
    public void Completions_as_the_JS_client_reads_them()
    {
        // JS parse: { type: 3, invocationId: "1" } (void); identical to JS writeMessage.
        Assert.Equal("06940380a13102", Wire.ToHex(Wire.Write(CompletionMessage.Empty("1"))));

        // JS parse: { type: 3, invocationId: "2", result: 1731234567890123 }; identical to JS writeMessage.
        Assert.Equal("0f950380a13203cf0006268c757124cb", Wire.ToHex(Wire.Write(CompletionMessage.WithResult("2", Timestamp))));

        // JS parse: { type: 3, invocationId: "3", error: "Failed to invoke 'Echo' due to an error on the server." }
        Assert.Equal(
            "3e950380a13301d936" + Convert.ToHexStringLower("Failed to invoke 'Echo' due to an error on the server."u8),
            Wire.ToHex(Wire.Write(CompletionMessage.WithError("3", "Failed to invoke 'Echo' due to an error on the server."))));
    }

    [Fact]
    public void Close_as_the_JS_client_reads_it()
    {
        // JS parse: { type: 7, error: "Connection closed with an error.", allowReconnect: true }
        Assert.Equal(
            "259307d920" + Convert.ToHexStringLower("Connection closed with an error."u8) + "c3",
            Wire.ToHex(Wire.Write(new CloseMessage("Connection closed with an error.", allowReconnect: true))));

        // JS parse: { type: 7, error: null, allowReconnect: false }
        Assert.Equal("049307c0c2", Wire.ToHex(Wire.Write(CloseMessage.Empty)));
    }

    [Fact]
    public void Stream_item_of_every_argument_kind_as_the_JS_client_reads_it()
    {
        // JS parse: item [null, true, -5, 2.5, 1.5, Uint8Array [1, 2], [1, 2], 18446744073709552000, -9223372036854776000]
        // (the last two lose precision in a JS number, as they would from the official server).
        var item = new object?[] { null, true, -5, 2.5, 1.5f, new byte[] { 1, 2 }, new[] { 1L, 2L }, ulong.MaxValue, long.MinValue };

        Assert.Equal(
            "30940280a13499c0c3fbcb4004000000000000ca3fc00000c4020102920102cfffffffffffffffffd38000000000000000",
            Wire.ToHex(Wire.Write(new StreamItemMessage("4", item))));
    }

    [Fact]
    public void Ping_ack_and_sequence_as_the_JS_client_reads_them()
    {
        // JS parse: { type: 6 }, { type: 8, sequenceId: 1394 }, { type: 9, sequenceId: 5 }; all identical to JS writeMessage.
        Assert.Equal("029106", Wire.ToHex(Wire.Write(PingMessage.Instance)));
        Assert.Equal("059208cd0572", Wire.ToHex(Wire.Write(new AckMessage(1394))));
        Assert.Equal("03920905", Wire.ToHex(Wire.Write(new SequenceMessage(5))));
    }
}
