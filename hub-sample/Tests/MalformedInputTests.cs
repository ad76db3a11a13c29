using Microsoft.AspNetCore.SignalR.Protocol;

namespace HubSample.Tests;

/// <summary>
/// A complete frame that is not a valid hub message throws <see cref="InvalidDataException"/>,
/// which makes SignalR close that one connection.
/// </summary>
public class MalformedInputTests
{
    [Theory]
    [InlineData("00", "cannot be empty")]
    [InlineData("0101", "Expected an array")]
    [InlineData("0190", "at least 1 items")]
    [InlineData("09950180c0a44563686f", "ends unexpectedly")]
    [InlineData("0291c1", "format byte 0xc1 (invalid)")]
    [InlineData("029101", "Invocation message needs at least 5 items")]
    [InlineData("0392a178", "Expected an integer")]
    [InlineData("029105", "CancelInvocation message needs at least 3 items")]
    [InlineData("029107", "Close message needs at least 2 items")]
    [InlineData("029108", "Ack message needs at least 2 items")]
    [InlineData("0b92cfffffffffffffffff00", "does not fit a 64-bit integer")]
    public void Malformed_frames_throw_InvalidDataException(string hex, string expectedMessage)
    {
        var ex = Assert.Throws<InvalidDataException>(() => Wire.ParseOne(Wire.Hex(hex)));

        Assert.Contains(expectedMessage, ex.Message);
    }

    [Fact]
    public void Header_map_must_hold_strings()
    {
        var frame = Wire.Frame(w => w.Array(3).Int(5).Map(1).Int(1).Int(2).Str("7"));

        Assert.Throws<InvalidDataException>(() => Wire.ParseOne(frame));
    }

    [Fact]
    public void Arguments_that_are_not_an_array_are_malformed()
    {
        var frame = Wire.Frame(w => w.Array(5).Int(1).Map(0).Nil().Str("Echo").Str("oops"));

        Assert.Throws<InvalidDataException>(() => Wire.ParseOne(frame));
    }

    [Fact]
    public void StreamInvocation_needs_an_invocation_id()
    {
        var frame = Wire.Frame(w => w.Array(5).Int(4).Map(0).Nil().Str("Counter").Array(1).Int(1));

        var ex = Assert.Throws<InvalidDataException>(() => Wire.ParseOne(frame));
        Assert.Contains("invocation ID", ex.Message);
    }

    [Fact]
    public void Empty_target_is_malformed()
    {
        var frame = Wire.Frame(w => w.Array(5).Int(1).Map(0).Nil().Str("").Array(0));

        Assert.Throws<InvalidDataException>(() => Wire.ParseOne(frame));
    }

    [Fact]
    public void Unknown_completion_result_kind_is_malformed()
    {
        var frame = Wire.Frame(w => w.Array(5).Int(3).Map(0).Str("1").Int(7).Nil());

        Assert.Throws<InvalidDataException>(() => Wire.ParseOne(frame));
    }

    [Fact]
    public void Unknown_message_types_are_skipped_as_a_ping()
    {
        // A message type from a future protocol version, with fields this parser knows nothing of,
        // followed by an ordinary invocation.
        var future = Wire.Frame(w => w.Array(3).Int(42).Map(0).Str("whatever"));
        var next = Wire.Write(new InvocationMessage("Echo", [1L, "x"]));
        var input = new System.Buffers.ReadOnlySequence<byte>([.. future, .. next]);

        Assert.True(Wire.Protocol.TryParseMessage(ref input, new TestBinder(), out var skipped));
        Assert.Same(PingMessage.Instance, skipped);
        Assert.True(Wire.Protocol.TryParseMessage(ref input, new TestBinder(), out var invocation));
        Assert.IsType<InvocationMessage>(invocation);
    }

    [Fact]
    public void Extra_trailing_items_are_ignored()
    {
        var frame = Wire.Frame(w => w.Array(4).Int(6).Str("future").Int(1).Nil());

        Assert.IsType<PingMessage>(Wire.ParseOne(frame));
    }

    [Fact]
    public void Writing_an_unsupported_argument_names_its_type()
    {
        var ex = Assert.Throws<NotSupportedException>(() => Wire.Write(new InvocationMessage("Measure", [DateTime.UnixEpoch])));

        Assert.Contains("System.DateTime", ex.Message);
    }
}
