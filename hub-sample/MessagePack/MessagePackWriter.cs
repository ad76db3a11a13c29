using System.Buffers;
using System.Buffers.Binary;
using System.Text;
using Code = HubSample.MessagePack.MessagePackCode;

namespace HubSample.MessagePack;

/// <summary>
/// Writes MessagePack values, always in their smallest encoding, so that what a JS client decodes
/// is exactly what @msgpack/msgpack itself would have produced for the same value.
/// </summary>
public readonly ref struct MessagePackWriter
{
    private readonly IBufferWriter<byte> _output;

    public MessagePackWriter(IBufferWriter<byte> output)
    {
        _output = output;
    }

    public void WriteNil() => WriteCode(Code.Nil);

    public void WriteBoolean(bool value) => WriteCode(value ? Code.True : Code.False);

    public void WriteArrayHeader(int count) =>
        WriteHeader(count, Code.MinFixArray, fixMax: 15, Code.Array16, Code.Array32);

    public void WriteMapHeader(int count) =>
        WriteHeader(count, Code.MinFixMap, fixMax: 15, Code.Map16, Code.Map32);

    public void WriteInt64(long value)
    {
        if (value >= 0)
        {
            WriteUInt64((ulong)value);
        }
        else if (value >= Code.MinNegativeFixIntValue)
        {
            WriteCode(unchecked((byte)(sbyte)value));
        }
        else if (value >= sbyte.MinValue)
        {
            Write8(Code.Int8, unchecked((byte)value));
        }
        else if (value >= short.MinValue)
        {
            Write16(Code.Int16, unchecked((ushort)value));
        }
        else if (value >= int.MinValue)
        {
            Write32(Code.Int32, unchecked((uint)value));
        }
        else
        {
            Write64(Code.Int64, unchecked((ulong)value));
        }
    }

    // Non-negative values always take the unsigned formats: that is the smallest encoding, and the
    // one @msgpack/msgpack writes, so a JS number up to 2^53 round-trips exactly.
    public void WriteUInt64(ulong value)
    {
        if (value <= Code.MaxPositiveFixInt)
        {
            WriteCode((byte)value);
        }
        else if (value <= byte.MaxValue)
        {
            Write8(Code.UInt8, (byte)value);
        }
        else if (value <= ushort.MaxValue)
        {
            Write16(Code.UInt16, (ushort)value);
        }
        else if (value <= uint.MaxValue)
        {
            Write32(Code.UInt32, (uint)value);
        }
        else
        {
            Write64(Code.UInt64, value);
        }
    }

    public void WriteSingle(float value) => Write32(Code.Float32, BitConverter.SingleToUInt32Bits(value));

    public void WriteDouble(double value) => Write64(Code.Float64, BitConverter.DoubleToUInt64Bits(value));

    /// <summary>Writes a str, or nil for null.</summary>
    public void WriteString(string? value)
    {
        if (value is null)
        {
            WriteNil();
            return;
        }

        var length = Encoding.UTF8.GetByteCount(value);
        WriteStringHeader(length);
        if (length > 0)
        {
            var written = Encoding.UTF8.GetBytes(value, _output.GetSpan(length));
            _output.Advance(written);
        }
    }

    /// <summary>Writes a bin, or nil for null.</summary>
    public void WriteBinary(byte[]? value)
    {
        if (value is null)
        {
            WriteNil();
            return;
        }

        WriteBinary(value.AsSpan());
    }

    public void WriteBinary(ReadOnlySpan<byte> value)
    {
        if (value.Length <= byte.MaxValue)
        {
            Write8(Code.Bin8, (byte)value.Length);
        }
        else if (value.Length <= ushort.MaxValue)
        {
            Write16(Code.Bin16, (ushort)value.Length);
        }
        else
        {
            Write32(Code.Bin32, (uint)value.Length);
        }

        _output.Write(value);
    }

    /// <summary>Copies bytes that are already MessagePack, such as a relayed client result.</summary>
    public void WriteRaw(ReadOnlySpan<byte> encoded) => _output.Write(encoded);

    private void WriteStringHeader(int length)
    {
        if (length <= Code.MaxFixStr - Code.MinFixStr)
        {
            WriteCode((byte)(Code.MinFixStr + length));
        }
        else if (length <= byte.MaxValue)
        {
            Write8(Code.Str8, (byte)length);
        }
        else if (length <= ushort.MaxValue)
        {
            Write16(Code.Str16, (ushort)length);
        }
        else
        {
            Write32(Code.Str32, (uint)length);
        }
    }

    private void WriteHeader(int count, byte fixCode, int fixMax, byte code16, byte code32)
    {
        ArgumentOutOfRangeException.ThrowIfNegative(count);
        if (count <= fixMax)
        {
            WriteCode((byte)(fixCode + count));
        }
        else if (count <= ushort.MaxValue)
        {
            Write16(code16, (ushort)count);
        }
        else
        {
            Write32(code32, (uint)count);
        }
    }

    private void WriteCode(byte code)
    {
        _output.GetSpan(1)[0] = code;
        _output.Advance(1);
    }

    private void Write8(byte code, byte value)
    {
        var span = _output.GetSpan(2);
        span[0] = code;
        span[1] = value;
        _output.Advance(2);
    }

    private void Write16(byte code, ushort value)
    {
        var span = _output.GetSpan(3);
        span[0] = code;
        BinaryPrimitives.WriteUInt16BigEndian(span[1..], value);
        _output.Advance(3);
    }

    private void Write32(byte code, uint value)
    {
        var span = _output.GetSpan(5);
        span[0] = code;
        BinaryPrimitives.WriteUInt32BigEndian(span[1..], value);
        _output.Advance(5);
    }

    private void Write64(byte code, ulong value)
    {
        var span = _output.GetSpan(9);
        span[0] = code;
        BinaryPrimitives.WriteUInt64BigEndian(span[1..], value);
        _output.Advance(9);
    }
}
