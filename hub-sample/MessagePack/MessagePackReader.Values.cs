using System.Buffers.Binary;
using Code = HubSample.MessagePack.MessagePackCode;

namespace HubSample.MessagePack;

/// <summary>Reading and skipping whole values, whatever their kind.</summary>
public ref partial struct MessagePackReader
{
    /// <summary>Deeper nesting than this is refused: the argument tree is read recursively.</summary>
    public const int MaxDepth = 64;

    /// <summary>
    /// Reads the next value as a plain .NET value: null, bool, long (ulong above long.MaxValue),
    /// float (float32), double (float64), string, byte[], object?[] or Dictionary&lt;object, object?&gt;.
    /// Extension types and nil map keys have no plain form and throw <see cref="NotSupportedException"/>.
    /// </summary>
    public object? ReadValue() => ReadValue(depth: 0);

    /// <summary>Moves past the next value, including everything nested in it.</summary>
    public void Skip()
    {
        // Iterative so that hostile nesting cannot exhaust the stack.
        long pending = 1;
        while (pending-- > 0)
        {
            pending += SkipOne();
        }
    }

    /// <summary>The encoded bytes of the next value, which is skipped.</summary>
    public ReadOnlySpan<byte> ReadRaw()
    {
        var start = _position;
        Skip();
        return _buffer[start.._position];
    }

    private object? ReadValue(int depth)
    {
        if (depth > MaxDepth)
        {
            throw new InvalidDataException($"MessagePack value nested deeper than {MaxDepth} levels.");
        }

        var code = PeekCode();
        switch (KindOf(code))
        {
            case MessagePackKind.Nil:
                _position++;
                return null;
            case MessagePackKind.Boolean:
                return ReadBoolean();
            case MessagePackKind.Integer:
                return code == Code.UInt64 ? ReadLargeInteger() : ReadInt64();
            case MessagePackKind.Float when code == Code.Float32:
                return (float)ReadDouble();
            case MessagePackKind.Float:
                return ReadDouble();
            case MessagePackKind.String:
                return ReadString();
            case MessagePackKind.Binary:
                return ReadBinary();
            case MessagePackKind.Array:
                return ReadArray(depth);
            case MessagePackKind.Map:
                return ReadMap(depth);
            default:
                throw new NotSupportedException(
                    $"MessagePack extension types (format byte 0x{code:x2}) are not supported by this hub protocol.");
        }
    }

    private object ReadLargeInteger()
    {
        var value = ReadUInt64();
        return value <= long.MaxValue ? (long)value : value;
    }

    private object?[] ReadArray(int depth)
    {
        var items = new object?[ReadArrayHeader()];
        for (var i = 0; i < items.Length; i++)
        {
            items[i] = ReadValue(depth + 1);
        }

        return items;
    }

    private Dictionary<object, object?> ReadMap(int depth)
    {
        var count = ReadMapHeader();
        var map = new Dictionary<object, object?>(count);
        for (var i = 0; i < count; i++)
        {
            var key = ReadValue(depth + 1)
                ?? throw new NotSupportedException("MessagePack maps with a nil key are not supported by this hub protocol.");
            map[key] = ReadValue(depth + 1);
        }

        return map;
    }

    /// <summary>Moves past one value's own bytes and returns how many nested values follow it.</summary>
    private long SkipOne()
    {
        var code = PeekCode();
        switch (KindOf(code))
        {
            case MessagePackKind.Array:
                return ReadArrayHeader();
            case MessagePackKind.Map:
                return 2L * ReadMapHeader();
            case MessagePackKind.String:
                ReadStringBytes();
                return 0;
            case MessagePackKind.Binary:
                ReadBinaryBytes();
                return 0;
            case MessagePackKind.Extension:
                SkipExtension(code);
                return 0;
            default:
                _position++;
                Take(ScalarPayloadLength(code));
                return 0;
        }
    }

    private void SkipExtension(byte code)
    {
        _position++;
        var length = code switch
        {
            Code.Ext8 => Take(1)[0],
            Code.Ext16 => BinaryPrimitives.ReadUInt16BigEndian(Take(2)),
            Code.Ext32 => CheckLength(BinaryPrimitives.ReadUInt32BigEndian(Take(4))),
            _ => 1 << (code - Code.FixExt1),
        };

        // The type byte, then the data.
        Take(1);
        Take(length);
    }

    private static int ScalarPayloadLength(byte code) => code switch
    {
        Code.UInt8 or Code.Int8 => 1,
        Code.UInt16 or Code.Int16 => 2,
        Code.UInt32 or Code.Int32 or Code.Float32 => 4,
        Code.UInt64 or Code.Int64 or Code.Float64 => 8,
        _ => 0,
    };
}
