namespace HubSample;

/// <summary>
/// A hub that breaks where a test says, for the capacity search's tests only
/// (<c>--TestMessageRateLimit N</c>, refused unless <c>--EnableTestHubs</c>): the first N
/// benchmark messages the hub receives in each second are delivered at once, and every further
/// one is delivered <see cref="DelayMs"/> later, so its latency passes the guide's 1 s. Nothing is
/// dropped, and the delay does not hold up the sender's next message (the delayed send runs
/// apart from the hub call). A broadcast or group message counts once, whatever it fans out to.
/// Off (0) by default: then every delivery goes straight through.
/// </summary>
public sealed class DeliveryLimit(HubSettings settings, TimeProvider time)
{
    /// <summary>How late a message over the limit is delivered, ms: past the guide's 1 s rule.</summary>
    public const int DelayMs = 1_500;

    private readonly long _perSecond = settings.TestMessageRateLimit;
    private readonly object _gate = new();
    private long _windowSecond = -1;
    private long _inWindow;

    /// <summary>Runs <paramref name="send"/> now when the limit is off or not yet reached this second, otherwise after the delay.</summary>
    public Task Deliver(Func<Task> send)
    {
        if (_perSecond <= 0 || Admit()) return send();
        _ = DeliverLate(send);
        return Task.CompletedTask;
    }

    private bool Admit()
    {
        var second = time.GetTimestamp() / time.TimestampFrequency;
        lock (_gate)
        {
            if (second != _windowSecond)
            {
                _windowSecond = second;
                _inWindow = 0;
            }
            return ++_inWindow <= _perSecond;
        }
    }

    private async Task DeliverLate(Func<Task> send)
    {
        await Task.Delay(TimeSpan.FromMilliseconds(DelayMs), time);
        try
        {
            await send();
        }
        catch (Exception)
        {
            // The connection closed meanwhile: the client counts the message as lost, as it should.
        }
    }
}
