using System.Buffers.Binary;
using System.Text;
using Code = HubSample.MessagePack.MessagePackCode;

namespace HubSample.MessagePack;

/// <summary>
/// Reads MessagePack values from one complete, contiguous message payload.
/// Bytes that are not valid MessagePack, are cut short, or are not of the kind asked for throw
/// <see cref="InvalidDataException"/>, so a malformed message closes its connection; a caller that
/// wants to tolerate another kind (argument binding) checks <see cref="PeekKind"/> first.
/// </summary>
public ref partial struct MessagePackReader
{
    private readonly ReadOnlySpan<byte> _buffer;
    private int _position;

    public MessagePackReader(ReadOnlySpan<byte> buffer)
    {
        _buffer = buffer;
        _position = 0;
    }

    /// <summary>The offset of the next unread byte.</summary>
    public readonly int Position => _position;

    public readonly bool End => _position >= _buffer.Length;

    public readonly MessagePackKind PeekKind() => KindOf(PeekCode());

    public static MessagePackKind KindOf(byte code) => code switch
    {
        <= Code.MaxPositiveFixInt => MessagePackKind.Integer,
        <= Code.MaxFixMap => MessagePackKind.Map,
        <= Code.MaxFixArray => MessagePackKind.Array,
        <= Code.MaxFixStr => MessagePackKind.String,
        Code.Nil => MessagePackKind.Nil,
        Code.False or Code.True => MessagePackKind.Boolean,
        Code.Bin8 or Code.Bin16 or Code.Bin32 => MessagePackKind.Binary,
        Code.Ext8 or Code.Ext16 or Code.Ext32 => MessagePackKind.Extension,
        Code.Float32 or Code.Float64 => MessagePackKind.Float,
        >= Code.UInt8 and <= Code.Int64 => MessagePackKind.Integer,
        >= Code.FixExt1 and <= Code.FixExt16 => MessagePackKind.Extension,
        Code.Str8 or Code.Str16 or Code.Str32 => MessagePackKind.String,
        Code.Array16 or Code.Array32 => MessagePackKind.Array,
        Code.Map16 or Code.Map32 => MessagePackKind.Map,
        >= Code.MinNegativeFixInt => MessagePackKind.Integer,
        _ => throw new InvalidDataException($"Invalid MessagePack format byte 0x{code:x2}."),
    };

    public bool TryReadNil()
    {
        if (PeekCode() != Code.Nil)
        {
            return false;
        }

        _position++;
        return true;
    }

    public bool ReadBoolean() => ReadCode() switch
    {
        Code.True => true,
        Code.False => false,
        var code => throw Unexpected("a boolean", code),
    };

    public int ReadArrayHeader()
    {
        var code = ReadCode();
        long count = code switch
        {
            >= Code.MinFixArray and <= Code.MaxFixArray => code - Code.MinFixArray,
            Code.Array16 => BinaryPrimitives.ReadUInt16BigEndian(Take(2)),
            Code.Array32 => BinaryPrimitives.ReadUInt32BigEndian(Take(4)),
            _ => throw Unexpected("an array", code),
        };
        return CheckCount(count, bytesPerItem: 1, "array");
    }

    public int ReadMapHeader()
    {
        var code = ReadCode();
        long count = code switch
        {
            >= Code.MinFixMap and <= Code.MaxFixMap => code - Code.MinFixMap,
            Code.Map16 => BinaryPrimitives.ReadUInt16BigEndian(Take(2)),
            Code.Map32 => BinaryPrimitives.ReadUInt32BigEndian(Take(4)),
            _ => throw Unexpected("a map", code),
        };
        return CheckCount(count, bytesPerItem: 2, "map");
    }

    /// <summary>Reads any integer format; a uint64 above <see cref="long.MaxValue"/> throws <see cref="OverflowException"/>.</summary>
    public long ReadInt64()
    {
        var code = ReadCode();
        return code switch
        {
            <= Code.MaxPositiveFixInt => code,
            >= Code.MinNegativeFixInt => (sbyte)code,
            Code.UInt8 => Take(1)[0],
            Code.UInt16 => BinaryPrimitives.ReadUInt16BigEndian(Take(2)),
            Code.UInt32 => BinaryPrimitives.ReadUInt32BigEndian(Take(4)),
            Code.UInt64 => checked((long)BinaryPrimitives.ReadUInt64BigEndian(Take(8))),
            Code.Int8 => (sbyte)Take(1)[0],
            Code.Int16 => BinaryPrimitives.ReadInt16BigEndian(Take(2)),
            Code.Int32 => BinaryPrimitives.ReadInt32BigEndian(Take(4)),
            Code.Int64 => BinaryPrimitives.ReadInt64BigEndian(Take(8)),
            _ => throw Unexpected("an integer", code),
        };
    }

    /// <summary>Reads any integer format; a negative value throws <see cref="OverflowException"/>.</summary>
    public ulong ReadUInt64()
    {
        if (PeekCode() == Code.UInt64)
        {
            _position++;
            return BinaryPrimitives.ReadUInt64BigEndian(Take(8));
        }

        return checked((ulong)ReadInt64());
    }

    /// <summary>Reads a float32 or float64; integers are not accepted here.</summary>
    public double ReadDouble()
    {
        var code = ReadCode();
        return code switch
        {
            Code.Float32 => BinaryPrimitives.ReadSingleBigEndian(Take(4)),
            Code.Float64 => BinaryPrimitives.ReadDoubleBigEndian(Take(8)),
            _ => throw Unexpected("a float", code),
        };
    }

    /// <summary>Reads a str as its UTF-8 bytes, without decoding it.</summary>
    public ReadOnlySpan<byte> ReadStringBytes()
    {
        var code = ReadCode();
        var length = code switch
        {
            >= Code.MinFixStr and <= Code.MaxFixStr => code - Code.MinFixStr,
            Code.Str8 => Take(1)[0],
            Code.Str16 => BinaryPrimitives.ReadUInt16BigEndian(Take(2)),
            Code.Str32 => CheckLength(BinaryPrimitives.ReadUInt32BigEndian(Take(4))),
            _ => throw Unexpected("a string", code),
        };
        return Take(length);
    }

    /// <summary>Reads a str, or nil as null.</summary>
    public string? ReadString() => TryReadNil() ? null : Encoding.UTF8.GetString(ReadStringBytes());

    public ReadOnlySpan<byte> ReadBinaryBytes()
    {
        var code = ReadCode();
        var length = code switch
        {
            Code.Bin8 => Take(1)[0],
            Code.Bin16 => BinaryPrimitives.ReadUInt16BigEndian(Take(2)),
            Code.Bin32 => CheckLength(BinaryPrimitives.ReadUInt32BigEndian(Take(4))),
            _ => throw Unexpected("binary", code),
        };
        return Take(length);
    }

    /// <summary>Reads a bin, or nil as null.</summary>
    public byte[]? ReadBinary() => TryReadNil() ? null : ReadBinaryBytes().ToArray();

    /// <summary>The format byte of the next value, without moving past it.</summary>
    public readonly byte PeekCode()
    {
        if (_position >= _buffer.Length)
        {
            throw Truncated();
        }

        return _buffer[_position];
    }

    private byte ReadCode()
    {
        var code = PeekCode();
        _position++;
        return code;
    }

    private ReadOnlySpan<byte> Take(int length)
    {
        if (length > _buffer.Length - _position)
        {
            throw Truncated();
        }

        var bytes = _buffer.Slice(_position, length);
        _position += length;
        return bytes;
    }

    private readonly int CheckLength(uint length) =>
        length <= (uint)(_buffer.Length - _position) ? (int)length : throw Truncated();

    // Every element takes at least one byte, so a count larger than what is left is a lie that
    // would otherwise make callers allocate huge arrays before noticing the truncation.
    private readonly int CheckCount(long count, int bytesPerItem, string what) =>
        count * bytesPerItem <= _buffer.Length - _position
            ? (int)count
            : throw new InvalidDataException(
                $"MessagePack {what} at offset {_position} claims {count} items but only {_buffer.Length - _position} bytes remain.");

    private readonly InvalidDataException Truncated() =>
        new($"MessagePack data ends unexpectedly at offset {_position} of {_buffer.Length}.");

    private readonly InvalidDataException Unexpected(string expected, byte code) =>
        new($"Expected {expected} at offset {_position - 1} but found MessagePack format byte 0x{code:x2} ({KindOfOrInvalid(code)}).");

    private static string KindOfOrInvalid(byte code) =>
        code == Code.NeverUsed ? "invalid" : KindOf(code).ToString().ToLowerInvariant();
}
