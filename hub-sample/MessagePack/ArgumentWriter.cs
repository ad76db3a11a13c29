using System.Collections;
using Microsoft.AspNetCore.SignalR.Protocol;

namespace HubSample.MessagePack;

/// <summary>
/// Writes hub method arguments, stream items and results: null, bool, every integer type,
/// float, double, string, byte[], and arrays or other sequences of those. Anything else throws
/// <see cref="NotSupportedException"/> naming its type, rather than guessing at an encoding the
/// client would misread.
/// </summary>
public static class ArgumentWriter
{
    public static void Write(ref MessagePackWriter writer, object? value) => Write(ref writer, value, depth: 0);

    private static void Write(ref MessagePackWriter writer, object? value, int depth)
    {
        switch (value)
        {
            case null:
                writer.WriteNil();
                break;
            case string text:
                writer.WriteString(text);
                break;
            case long number:
                writer.WriteInt64(number);
                break;
            case int number:
                writer.WriteInt64(number);
                break;
            case double number:
                writer.WriteDouble(number);
                break;
            case bool flag:
                writer.WriteBoolean(flag);
                break;
            case byte[] bytes:
                writer.WriteBinary(bytes);
                break;
            case RawResult raw:
                WriteRaw(ref writer, raw);
                break;
            default:
                WriteOther(ref writer, value, depth);
                break;
        }
    }

    private static void WriteOther(ref MessagePackWriter writer, object value, int depth)
    {
        switch (value)
        {
            case short number:
                writer.WriteInt64(number);
                break;
            case sbyte number:
                writer.WriteInt64(number);
                break;
            case ulong number:
                writer.WriteUInt64(number);
                break;
            case uint number:
                writer.WriteUInt64(number);
                break;
            case ushort number:
                writer.WriteUInt64(number);
                break;
            case byte number:
                writer.WriteUInt64(number);
                break;
            case float number:
                writer.WriteSingle(number);
                break;
            case IEnumerable items:
                WriteSequence(ref writer, items, depth);
                break;
            default:
                throw new NotSupportedException(
                    $"The messagepack hub protocol cannot write values of type {value.GetType().FullName}.");
        }
    }

    private static void WriteSequence(ref MessagePackWriter writer, IEnumerable items, int depth)
    {
        if (depth >= MessagePackReader.MaxDepth)
        {
            throw new NotSupportedException(
                $"The messagepack hub protocol cannot write sequences nested deeper than {MessagePackReader.MaxDepth} levels.");
        }

        if (items is object?[] array)
        {
            writer.WriteArrayHeader(array.Length);
            foreach (var item in array)
            {
                Write(ref writer, item, depth + 1);
            }

            return;
        }

        // The array header needs the count up front; a lazy sequence is materialised once to get it.
        var collection = items as ICollection ?? ToList(items);
        writer.WriteArrayHeader(collection.Count);
        foreach (var item in collection)
        {
            Write(ref writer, item, depth + 1);
        }
    }

    private static ArrayList ToList(IEnumerable items)
    {
        var list = new ArrayList();
        foreach (var item in items)
        {
            list.Add(item);
        }

        return list;
    }

    private static void WriteRaw(ref MessagePackWriter writer, RawResult raw)
    {
        foreach (var segment in raw.RawSerializedData)
        {
            writer.WriteRaw(segment.Span);
        }
    }
}
