using System.Buffers;
using HubSample.MessagePack;

namespace HubSample.Tests;

public class MessagePackPrimitiveTests
{
    [Theory]
    [InlineData(0L, "00")]
    [InlineData(127L, "7f")]
    [InlineData(128L, "cc80")]
    [InlineData(255L, "ccff")]
    [InlineData(256L, "cd0100")]
    [InlineData(65535L, "cdffff")]
    [InlineData(65536L, "ce00010000")]
    [InlineData(4294967295L, "ceffffffff")]
    [InlineData(4294967296L, "cf0000000100000000")]
    [InlineData(1731234567890123L, "cf0006268c757124cb")]
    [InlineData(long.MaxValue, "cf7fffffffffffffff")]
    [InlineData(-1L, "ff")]
    [InlineData(-32L, "e0")]
    [InlineData(-33L, "d0df")]
    [InlineData(-128L, "d080")]
    [InlineData(-129L, "d1ff7f")]
    [InlineData(-32768L, "d18000")]
    [InlineData(-32769L, "d2ffff7fff")]
    [InlineData(-2147483648L, "d280000000")]
    [InlineData(-2147483649L, "d3ffffffff7fffffff")]
    [InlineData(long.MinValue, "d38000000000000000")]
    public void Integers_take_their_smallest_form_and_read_back(long value, string expectedHex)
    {
        var bytes = Encode(w => w.WriteInt64(value));

        Assert.Equal(expectedHex, Wire.ToHex(bytes));
        var reader = new MessagePackReader(bytes);
        Assert.Equal(value, reader.ReadInt64());
        Assert.True(reader.End);
    }

    [Fact]
    public void UInt64_above_long_range_reads_as_ulong_only()
    {
        var bytes = Encode(w => w.WriteUInt64(ulong.MaxValue));

        Assert.Equal("cfffffffffffffffff", Wire.ToHex(bytes));
        Assert.Equal(ulong.MaxValue, new MessagePackReader(bytes).ReadUInt64());
        Assert.Equal(ulong.MaxValue, new MessagePackReader(bytes).ReadValue());
        Assert.Throws<OverflowException>(() => new MessagePackReader(bytes).ReadInt64());
    }

    [Fact]
    public void Floats_are_written_in_their_own_width()
    {
        Assert.Equal("ca3fc00000", Wire.ToHex(Encode(w => w.WriteSingle(1.5f))));
        Assert.Equal("cb3ff8000000000000", Wire.ToHex(Encode(w => w.WriteDouble(1.5))));
        Assert.Equal(1.5f, new MessagePackReader(Wire.Hex("ca3fc00000")).ReadValue());
        Assert.Equal(1.5d, new MessagePackReader(Wire.Hex("cb3ff8000000000000")).ReadValue());
    }

    [Theory]
    [InlineData(0, "a0")]
    [InlineData(31, "bf")]
    [InlineData(32, "d920")]
    [InlineData(255, "d9ff")]
    [InlineData(256, "da0100")]
    [InlineData(65535, "daffff")]
    [InlineData(65536, "db00010000")]
    public void String_headers_grow_with_the_UTF8_length(int length, string expectedHeaderHex)
    {
        var text = new string('x', length);
        var bytes = Encode(w => w.WriteString(text));

        Assert.StartsWith(expectedHeaderHex, Wire.ToHex(bytes));
        Assert.Equal(text, new MessagePackReader(bytes).ReadString());
    }

    [Fact]
    public void Strings_are_UTF8()
    {
        var bytes = Encode(w => w.WriteString("é€😀"));

        Assert.Equal("a9c3a9e282acf09f9880", Wire.ToHex(bytes));
        Assert.Equal("é€😀", new MessagePackReader(bytes).ReadString());
    }

    [Theory]
    [InlineData(0, "c400")]
    [InlineData(255, "c4ff")]
    [InlineData(256, "c50100")]
    [InlineData(65536, "c600010000")]
    public void Binary_headers_grow_with_the_length(int length, string expectedHeaderHex)
    {
        var data = Enumerable.Range(0, length).Select(i => (byte)i).ToArray();
        var bytes = Encode(w => w.WriteBinary(data));

        Assert.StartsWith(expectedHeaderHex, Wire.ToHex(bytes));
        Assert.Equal(data, new MessagePackReader(bytes).ReadBinary());
    }

    [Theory]
    [InlineData(0, "90", "80")]
    [InlineData(15, "9f", "8f")]
    [InlineData(16, "dc0010", "de0010")]
    [InlineData(65536, "dd00010000", "df00010000")]
    public void Array_and_map_headers(int count, string arrayHex, string mapHex)
    {
        Assert.Equal(arrayHex, Wire.ToHex(Encode(w => w.WriteArrayHeader(count))));
        Assert.Equal(mapHex, Wire.ToHex(Encode(w => w.WriteMapHeader(count))));
    }

    [Fact]
    public void ReadValue_returns_plain_values()
    {
        // [nil, true, false, -1, 300, 1.5 (f64), "hi", bin[1,2], [1], {"k": 2}]
        var bytes = Wire.Hex("9a" + "c0" + "c3" + "c2" + "ff" + "cd012c" + "cb3ff8000000000000" + "a26869" + "c4020102" + "9101" + "81a16b02");

        var value = Assert.IsType<object?[]>(new MessagePackReader(bytes).ReadValue());

        Assert.Equal<object?>([null, true, false, -1L, 300L, 1.5d, "hi"], value[..7]);
        Assert.Equal(new byte[] { 1, 2 }, value[7]);
        Assert.Equal<object?>([1L], Assert.IsType<object?[]>(value[8]));
        Assert.Equal(2L, Assert.IsType<Dictionary<object, object?>>(value[9])["k"]);
    }

    [Fact]
    public void Skip_passes_over_nested_values_and_extensions()
    {
        // [ {"a": [1, 2, "x"]}, fixext1, ext8(len 2), float32 ] followed by 0x07
        var bytes = Wire.Hex("94" + "81a1619301" + "02a178" + "d40105" + "c70201aabb" + "ca3fc00000" + "07");
        var reader = new MessagePackReader(bytes);

        reader.Skip();

        Assert.Equal(7, reader.ReadInt64());
        Assert.True(reader.End);
    }

    [Fact]
    public void ReadRaw_returns_the_encoded_bytes_of_one_value()
    {
        var reader = new MessagePackReader(Wire.Hex("92a1610102"));

        Assert.Equal("92a16101", Wire.ToHex(reader.ReadRaw()));
        Assert.Equal(2, reader.ReadInt64());
    }

    [Theory]
    [InlineData("c1", "Invalid MessagePack format byte 0xc1")]
    [InlineData("cd01", "ends unexpectedly")]
    [InlineData("a5616263", "ends unexpectedly")]
    [InlineData("dd7fffffff", "claims 2147483647 items")]
    [InlineData("", "ends unexpectedly")]
    public void Malformed_bytes_throw_InvalidDataException(string hex, string expectedMessage)
    {
        var ex = Assert.Throws<InvalidDataException>(() => new MessagePackReader(Wire.Hex(hex)).ReadValue());

        Assert.Contains(expectedMessage, ex.Message);
    }

    [Fact]
    public void Reading_the_wrong_kind_throws_InvalidDataException_naming_both()
    {
        var ex = Assert.Throws<InvalidDataException>(() => new MessagePackReader(Wire.Hex("a178")).ReadInt64());

        Assert.Contains("Expected an integer", ex.Message);
        Assert.Contains("string", ex.Message);
    }

    [Fact]
    public void Deep_nesting_is_refused_by_ReadValue_but_skipped_without_recursion()
    {
        var bytes = Enumerable.Repeat((byte)0x91, 10_000).Append((byte)0xc0).ToArray();

        Assert.Throws<InvalidDataException>(() => new MessagePackReader(bytes).ReadValue());
        var reader = new MessagePackReader(bytes);
        reader.Skip();
        Assert.True(reader.End);
    }

    [Fact]
    public void Extension_values_have_no_plain_form()
    {
        Assert.Throws<NotSupportedException>(() => new MessagePackReader(Wire.Hex("d6ff00000001")).ReadValue());
    }

    private delegate void WriteAction(MessagePackWriter writer);

    private static byte[] Encode(WriteAction write)
    {
        var output = new ArrayBufferWriter<byte>();
        write(new MessagePackWriter(output));
        return output.WrittenSpan.ToArray();
    }
}
