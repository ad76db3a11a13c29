using System.Buffers;
using HubSample.MessagePack;
using Microsoft.AspNetCore.SignalR.Protocol;

namespace HubSample.Tests;

public class VarIntFramingTests
{
    [Theory]
    [InlineData(0, "00")]
    [InlineData(1, "01")]
    [InlineData(127, "7f")]
    [InlineData(128, "8001")]
    [InlineData(300, "ac02")]
    [InlineData(16383, "ff7f")]
    [InlineData(16384, "808001")]
    [InlineData(2097151, "ffff7f")]
    [InlineData(2097152, "80808001")]
    [InlineData(int.MaxValue, "ffffffff07")]
    public void Prefix_is_7_bits_per_byte_low_group_first(int length, string expectedHex)
    {
        var prefix = new byte[VarIntFraming.MaxPrefixLength];
        var written = VarIntFraming.WritePrefix(length, prefix);

        Assert.Equal(expectedHex, Wire.ToHex(prefix.AsSpan(0, written)));
        Assert.Equal(written, VarIntFraming.GetPrefixLength(length));
    }

    [Theory]
    [InlineData(127)]
    [InlineData(128)]
    [InlineData(16383)]
    [InlineData(16384)]
    public void Frames_of_boundary_lengths_are_read_back_whole(int length)
    {
        var payload = Enumerable.Range(0, length).Select(i => (byte)i).ToArray();
        var input = new ReadOnlySequence<byte>([.. Wire.Frame(payload), 0xAA]);

        Assert.True(VarIntFraming.TryReadFrame(input, out var frame));

        Assert.Equal(payload, frame.ToArray());
        Assert.Equal(1, input.Slice(frame.End).Length);
    }

    [Theory]
    [InlineData(127)]
    [InlineData(128)]
    [InlineData(16383)]
    [InlineData(16384)]
    public void Written_string_messages_of_boundary_lengths_parse(int payloadLength)
    {
        // A Measure invocation whose total payload length lands exactly on the boundary:
        // the fixed part before the string is measured first.
        var overhead = Wire.Write(new InvocationMessage("Measure", [1L, ""])).Length - 2;
        var text = new string('y', FitString(payloadLength - overhead));
        var frame = Wire.Write(new InvocationMessage("Measure", [1L, text]));
        var prefixLength = VarIntFraming.GetPrefixLength(payloadLength);

        Assert.Equal(payloadLength, frame.Length - prefixLength);
        var message = Wire.ParseOne<InvocationMessage>(frame);
        Assert.Equal(text, message.Arguments[1]);
    }

    [Fact]
    public void A_prefix_claiming_more_than_2GB_is_rejected()
    {
        var input = new ReadOnlySequence<byte>(Wire.Hex("ffffffff08"));

        var ex = Assert.Throws<InvalidDataException>(() => VarIntFraming.TryReadFrame(input, out _));
        Assert.Contains("2 GB", ex.Message);
    }

    [Fact]
    public void A_prefix_with_a_sixth_byte_is_rejected()
    {
        var input = new ReadOnlySequence<byte>(Wire.Hex("ffffffff8f01"));

        Assert.Throws<InvalidDataException>(() => VarIntFraming.TryReadFrame(input, out _));
    }

    [Theory]
    [InlineData("")]
    [InlineData("80")]
    [InlineData("8080")]
    [InlineData("ffffffff")]
    [InlineData("05")]
    [InlineData("0501020304")]
    [InlineData("8001" + "00")]
    public void Incomplete_prefixes_and_payloads_are_not_frames_yet(string hex)
    {
        Assert.False(VarIntFraming.TryReadFrame(new ReadOnlySequence<byte>(Wire.Hex(hex)), out _));
    }

    [Fact]
    public void A_prefix_split_across_segments_is_read()
    {
        var payload = new byte[300];
        var bytes = Wire.Frame(payload);

        Assert.True(VarIntFraming.TryReadFrame(Wire.Segmented(bytes, 1, 2), out var frame));
        Assert.Equal(300, frame.Length);
    }

    // A str's header is 1 byte up to 31 bytes of text, 2 up to 255 and 3 beyond: shrink the text
    // so that header and text together fill exactly the room there is.
    private static int FitString(int room) => room switch
    {
        <= 32 => room - 1,
        <= 255 + 2 => room - 2,
        _ => room - 3,
    };
}
