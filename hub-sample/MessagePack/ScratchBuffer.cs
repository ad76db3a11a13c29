using System.Buffers;

namespace HubSample.MessagePack;

/// <summary>
/// One reusable payload buffer per thread for <see cref="MessagePackWireProtocol"/>'s writes,
/// so that sending a message does not allocate a fresh buffer each time.
/// </summary>
internal static class ScratchBuffer
{
    // Kept buffers stay at most this large: one odd huge message should not pin its memory to a
    // thread for good. 1 MiB covers the benchmark's largest messages with room to spare.
    private const int MaxRetainedCapacity = 1024 * 1024;
    private const int InitialCapacity = 4096;

    [ThreadStatic]
    private static ArrayBufferWriter<byte>? t_cached;

    public static ArrayBufferWriter<byte> Rent()
    {
        var buffer = t_cached;
        if (buffer is null)
        {
            return new ArrayBufferWriter<byte>(InitialCapacity);
        }

        // Taken out while in use, so a nested write on the same thread gets its own buffer.
        t_cached = null;
        return buffer;
    }

    public static void Return(ArrayBufferWriter<byte> buffer)
    {
        if (buffer.Capacity > MaxRetainedCapacity)
        {
            return;
        }

        buffer.ResetWrittenCount();
        t_cached = buffer;
    }
}
