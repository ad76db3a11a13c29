using Microsoft.AspNetCore.SignalR;

namespace HubSample.MessagePack;

/// <summary>
/// Converts the next MessagePack value to a hub method's parameter type. A value of another kind,
/// out of range, or a parameter type this protocol does not bind throws <see cref="HubException"/>:
/// the hub reports it to the caller and the connection lives on. Malformed MessagePack still
/// throws <see cref="InvalidDataException"/>.
/// </summary>
public static class ArgumentReader
{
    // 2^63 and 2^64 are exact doubles; the largest integral double below each fits the target.
    private const double TwoPow63 = 9223372036854775808d;
    private const double TwoPow64 = 18446744073709551616d;

    public static object? Read(ref MessagePackReader reader, Type type)
    {
        // The types a benchmark hub takes come first: this runs for every argument of every message.
        if (type == typeof(long))
        {
            return ReadSigned(ref reader, type, long.MinValue, long.MaxValue);
        }

        if (type == typeof(string))
        {
            return reader.PeekKind() is MessagePackKind.String or MessagePackKind.Nil
                ? reader.ReadString()
                : throw WrongKind(ref reader, type);
        }

        if (type == typeof(object))
        {
            return reader.ReadValue();
        }

        if (!type.IsValueType)
        {
            return reader.TryReadNil() ? null : ReadReference(ref reader, type);
        }

        var underlying = Nullable.GetUnderlyingType(type);
        if (underlying is null)
        {
            return ReadValueType(ref reader, type);
        }

        return reader.TryReadNil() ? null : ReadValueType(ref reader, underlying);
    }

    private static object ReadReference(ref MessagePackReader reader, Type type)
    {
        if (type != typeof(byte[]))
        {
            throw Unsupported(type);
        }

        return reader.PeekKind() == MessagePackKind.Binary
            ? reader.ReadBinaryBytes().ToArray()
            : throw WrongKind(ref reader, type);
    }

    private static object ReadValueType(ref MessagePackReader reader, Type type)
    {
        if (type == typeof(long)) return ReadSigned(ref reader, type, long.MinValue, long.MaxValue);
        if (type == typeof(int)) return (int)ReadSigned(ref reader, type, int.MinValue, int.MaxValue);
        if (type == typeof(short)) return (short)ReadSigned(ref reader, type, short.MinValue, short.MaxValue);
        if (type == typeof(sbyte)) return (sbyte)ReadSigned(ref reader, type, sbyte.MinValue, sbyte.MaxValue);
        if (type == typeof(ulong)) return ReadUnsigned(ref reader, type, ulong.MaxValue);
        if (type == typeof(uint)) return (uint)ReadUnsigned(ref reader, type, uint.MaxValue);
        if (type == typeof(ushort)) return (ushort)ReadUnsigned(ref reader, type, ushort.MaxValue);
        if (type == typeof(byte)) return (byte)ReadUnsigned(ref reader, type, byte.MaxValue);
        if (type == typeof(double)) return ReadFloating(ref reader, type);
        if (type == typeof(float)) return (float)ReadFloating(ref reader, type);
        if (type == typeof(bool))
        {
            return reader.PeekKind() == MessagePackKind.Boolean ? reader.ReadBoolean() : throw WrongKind(ref reader, type);
        }

        throw Unsupported(type);
    }

    private static long ReadSigned(ref MessagePackReader reader, Type type, long min, long max)
    {
        long value;
        switch (reader.PeekKind())
        {
            case MessagePackKind.Integer when reader.PeekCode() == MessagePackCode.UInt64:
                var large = reader.ReadUInt64();
                value = large <= long.MaxValue ? (long)large : throw OutOfRange(type, large);
                break;
            case MessagePackKind.Integer:
                value = reader.ReadInt64();
                break;
            case MessagePackKind.Float:
                // JS sends numbers beyond 2^53 (and any number once it went through a division) as float64.
                var number = reader.ReadDouble();
                value = double.IsInteger(number) && number >= -TwoPow63 && number < TwoPow63
                    ? (long)number
                    : throw OutOfRange(type, number);
                break;
            default:
                throw WrongKind(ref reader, type);
        }

        return value >= min && value <= max ? value : throw OutOfRange(type, value);
    }

    private static ulong ReadUnsigned(ref MessagePackReader reader, Type type, ulong max)
    {
        ulong value;
        switch (reader.PeekKind())
        {
            case MessagePackKind.Integer when reader.PeekCode() == MessagePackCode.UInt64:
                value = reader.ReadUInt64();
                break;
            case MessagePackKind.Integer:
                var signed = reader.ReadInt64();
                value = signed >= 0 ? (ulong)signed : throw OutOfRange(type, signed);
                break;
            case MessagePackKind.Float:
                var number = reader.ReadDouble();
                value = double.IsInteger(number) && number >= 0 && number < TwoPow64
                    ? (ulong)number
                    : throw OutOfRange(type, number);
                break;
            default:
                throw WrongKind(ref reader, type);
        }

        return value <= max ? value : throw OutOfRange(type, value);
    }

    private static double ReadFloating(ref MessagePackReader reader, Type type) => reader.PeekKind() switch
    {
        MessagePackKind.Float => reader.ReadDouble(),
        MessagePackKind.Integer when reader.PeekCode() == MessagePackCode.UInt64 => reader.ReadUInt64(),
        MessagePackKind.Integer => reader.ReadInt64(),
        _ => throw WrongKind(ref reader, type),
    };

    private static HubException WrongKind(ref MessagePackReader reader, Type type) =>
        new($"Expected {Describe(type)} but the client sent a MessagePack {reader.PeekKind().ToString().ToLowerInvariant()}.");

    private static HubException OutOfRange(Type type, object value) =>
        new($"The value {value} does not fit {Describe(type)}.");

    private static HubException Unsupported(Type type) =>
        new($"Parameters of type {Describe(type)} are not supported by this hub's messagepack protocol.");

    private static string Describe(Type type) =>
        Nullable.GetUnderlyingType(type) is { } underlying ? underlying.Name + "?" : type.Name;
}
