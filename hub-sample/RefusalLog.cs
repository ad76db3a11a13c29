using Microsoft.AspNetCore.SignalR;

namespace HubSample;

/// <summary>
/// What the hub refuses (hub calls that throw, requests from foreign origins or for names it does
/// not answer to, control connections that never join a session) is counted and logged as one
/// summary line per interval, never a line or a stack trace per refusal: any client can cause
/// thousands a second, and the log carries at most a short printable prefix of what a client sent.
/// </summary>
public sealed class RefusalLog : IDisposable
{
    /// <summary>How often the counts are written (and once more when the hub stops).</summary>
    public static readonly TimeSpan Interval = TimeSpan.FromSeconds(10);

    /// <summary>Most characters of a refusal's first message kept for the summary.</summary>
    public const int SampleChars = 100;

    private readonly ILogger<RefusalLog> _logger;
    private readonly Timer _timer;
    private readonly object _lock = new();
    private Dictionary<string, (int Count, string Sample)> _counts = new();
    private readonly HashSet<string> _everSeen = new();

    public RefusalLog(ILogger<RefusalLog> logger)
    {
        _logger = logger;
        _timer = new Timer(_ => Flush(), null, Interval, Interval);
    }

    /// <summary>Counts one refusal of kind <paramref name="kind"/> (a fixed text, never client
    /// input: it is a key); <paramref name="message"/> may hold client text. Returns true the
    /// first time this kind is seen in the hub's life.</summary>
    public bool Count(string kind, string message)
    {
        lock (_lock)
        {
            _counts[kind] = _counts.TryGetValue(kind, out var seen) ? (seen.Count + 1, seen.Sample) : (1, Printable(message, SampleChars));
            return _everSeen.Add(kind);
        }
    }

    /// <summary>Writes the counts since the last summary, if any: one line.</summary>
    public void Flush()
    {
        Dictionary<string, (int Count, string Sample)> counts;
        lock (_lock)
        {
            if (_counts.Count == 0) return;
            (counts, _counts) = (_counts, new());
        }
        var total = counts.Values.Sum(c => c.Count);
        var kinds = string.Join("; ", counts.Select(c => $"{c.Key} x{c.Value.Count} (first: {c.Value.Sample})"));
        _logger.LogWarning("Refused {Total} requests or calls in the last {Seconds} s or less: {Kinds}", total, Interval.TotalSeconds, kinds);
    }

    public void Dispose()
    {
        _timer.Dispose();
        Flush();
    }

    /// <summary>At most <paramref name="maxChars"/> characters of <paramref name="text"/>, with
    /// anything outside printable ASCII (control characters, terminal escapes, line breaks)
    /// replaced by '?', and "..." when cut.</summary>
    public static string Printable(string? text, int maxChars)
    {
        text ??= "";
        var shown = new string(text.Take(maxChars).Select(c => c is >= ' ' and <= '~' ? c : '?').ToArray());
        return text.Length > maxChars ? shown + "..." : shown;
    }
}

/// <summary>
/// Counts every failed hub call, and every connection refused as it opens, in the
/// <see cref="RefusalLog"/> and lets the error reach the caller as before. Microsoft's dispatcher
/// and connection handler would log each one with its stack trace (their log categories are off
/// in Program.cs for that reason); an unexpected exception, not a
/// <see cref="HubException"/> the hub threw on purpose, still gets its stack trace logged the
/// first time its kind is seen.
/// </summary>
public sealed class RefusalFilter(RefusalLog refusals, ILogger<RefusalFilter> logger) : IHubFilter
{
    public ValueTask<object?> InvokeMethodAsync(HubInvocationContext invocation, Func<HubInvocationContext, ValueTask<object?>> next)
    {
        ValueTask<object?> pending;
        try
        {
            pending = next(invocation);
        }
        catch (Exception error)
        {
            Record(invocation, error);
            throw;
        }
        // Benchmark calls complete here almost always: no extra state machine on the hot path.
        return pending.IsCompletedSuccessfully ? pending : Awaited(invocation, pending);
    }

    private async ValueTask<object?> Awaited(HubInvocationContext invocation, ValueTask<object?> pending)
    {
        try
        {
            return await pending;
        }
        catch (Exception error)
        {
            Record(invocation, error);
            throw;
        }
    }

    /// <summary>A connection the hub refuses as it opens (the backplane's <see cref="BackplaneGate"/>):
    /// SignalR sends the client its error and logs it with a stack trace under its
    /// HubConnectionHandler category, which Program.cs turns off for this count.</summary>
    public async Task OnConnectedAsync(HubLifetimeContext context, Func<HubLifetimeContext, Task> next)
    {
        try
        {
            await next(context);
        }
        catch (Exception error)
        {
            Record($"{context.Hub.GetType().Name}.OnConnectedAsync: {error.GetType().Name}", error);
            throw;
        }
    }

    public async Task OnDisconnectedAsync(HubLifetimeContext context, Exception? exception, Func<HubLifetimeContext, Exception?, Task> next)
    {
        try
        {
            await next(context, exception);
        }
        catch (Exception error)
        {
            Record($"{context.Hub.GetType().Name}.OnDisconnectedAsync: {error.GetType().Name}", error);
            throw;
        }
    }

    private void Record(HubInvocationContext invocation, Exception error) =>
        Record($"{invocation.Hub.GetType().Name}.{invocation.HubMethodName}: {error.GetType().Name}", error);

    private void Record(string kind, Exception error)
    {
        if (refusals.Count(kind, error.Message) && error is not HubException)
        {
            logger.LogError(error, "{Kind} (only the first of this kind is logged in full; later ones are counted)", kind);
        }
    }
}
