using System.Buffers;

namespace HubSample.MessagePack;

/// <summary>
/// SignalR's framing of binary hub messages (BinaryMessageFormatter in the official server,
/// BinaryMessageFormat in the JS client): every message is preceded by its length as a VarInt of
/// 7 bits per byte, least significant group first, the high bit set while more bytes follow.
/// The prefix is at most 5 bytes long, which caps a message at 2^31 - 1 bytes.
/// </summary>
public static class VarIntFraming
{
    public const int MaxPrefixLength = 5;

    // The 5th byte only has room for the 3 bits left after 4 * 7 of the 31 allowed.
    private const byte MaxLastByte = 0x07;

    /// <summary>
    /// Finds the first complete frame in <paramref name="input"/>. Returns false, without throwing,
    /// while the prefix or the payload has not fully arrived; throws <see cref="InvalidDataException"/>
    /// for a prefix that announces more than 2 GB.
    /// </summary>
    public static bool TryReadFrame(in ReadOnlySequence<byte> input, out ReadOnlySequence<byte> payload)
    {
        if (!TryReadLength(input, out var length, out var prefixLength) || input.Length - prefixLength < length)
        {
            payload = default;
            return false;
        }

        payload = input.Slice(prefixLength, length);
        return true;
    }

    public static int GetPrefixLength(int length)
    {
        ArgumentOutOfRangeException.ThrowIfNegative(length);
        var prefixLength = 1;
        for (var rest = (uint)length >> 7; rest > 0; rest >>= 7)
        {
            prefixLength++;
        }

        return prefixLength;
    }

    /// <summary>Writes the prefix for a payload of <paramref name="length"/> bytes; returns its size.</summary>
    public static int WritePrefix(int length, Span<byte> destination)
    {
        ArgumentOutOfRangeException.ThrowIfNegative(length);
        var rest = (uint)length;
        var written = 0;
        while (rest > 0x7f)
        {
            destination[written++] = (byte)(rest | 0x80);
            rest >>= 7;
        }

        destination[written++] = (byte)rest;
        return written;
    }

    public static void WritePrefix(int length, IBufferWriter<byte> output)
    {
        var written = WritePrefix(length, output.GetSpan(MaxPrefixLength));
        output.Advance(written);
    }

    private static bool TryReadLength(in ReadOnlySequence<byte> input, out int length, out int prefixLength)
    {
        length = 0;
        prefixLength = 0;
        var available = (int)Math.Min(input.Length, MaxPrefixLength);
        Span<byte> gathered = stackalloc byte[MaxPrefixLength];
        scoped ReadOnlySpan<byte> prefix = input.FirstSpan;
        if (prefix.Length < available)
        {
            // The prefix straddles segments: gather its few bytes in one place.
            input.Slice(0, available).CopyTo(gathered);
            prefix = gathered;
        }

        uint value = 0;
        for (var i = 0; i < available; i++)
        {
            var current = prefix[i];
            if (i == MaxPrefixLength - 1 && current > MaxLastByte)
            {
                throw new InvalidDataException("Messages bigger than 2 GB are not supported.");
            }

            value |= (uint)(current & 0x7f) << (7 * i);
            if ((current & 0x80) == 0)
            {
                length = (int)value;
                prefixLength = i + 1;
                return true;
            }
        }

        return false;
    }
}
