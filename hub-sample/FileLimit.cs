using System.Diagnostics.Metrics;
using System.Runtime.InteropServices;
using Microsoft.AspNetCore.Connections;

namespace HubSample;

/// <summary>
/// The process's open-files limit (<c>ulimit -n</c>, RLIMIT_NOFILE) as a budget of connections.
/// Every TCP connection is a file, and so is much of what the runtime itself opens while it runs:
/// the assemblies it loads on first use (two files each), <c>/proc/self/status</c> that the GC
/// reads, a pipe per new thread. Left alone, Kestrel's socket transport takes an accept's EMFILE
/// for a connection reset in the backlog and tries again at once, thousands of times a second,
/// while the runtime, finding no file for itself, prints <c>Out of memory.</c> and aborts, taking
/// every open connection with it (seen at 768 connections under <c>ulimit -n 1024</c>). So the hub
/// keeps files for the runtime and lets Kestrel hold only what is left
/// (<c>MaxConcurrentConnections</c>: beyond it Kestrel closes a new connection at once, which
/// frees its file); a little before that, new SignalR connections get a 503 that says why
/// (<see cref="FileLimitGate"/>), so a client reads the reason rather than a reset. (Kestrel's
/// <c>MaxConcurrentUpgradedConnections</c> is left alone: a WebSocket is one of the connections
/// already counted, and refusing its upgrade would answer a bare error after the negotiate passed.)
/// </summary>
/// <param name="Limit">The soft limit on open files.</param>
/// <param name="InUse">Files open before any client (assemblies, logs, the listening sockets).</param>
/// <param name="Reserve">Files kept for the runtime's own later needs.</param>
/// <param name="MaxConnections">Kestrel's <c>MaxConcurrentConnections</c>: the limit less the two above.</param>
/// <param name="RefuseAbove">Open connections above which new SignalR connections get a 503.</param>
public sealed record FileBudget(long Limit, int InUse, int Reserve, int MaxConnections, int RefuseAbove)
{
    /// <summary>Fewest files kept for the runtime. Measured on this machine (.NET 10.0.12): 204
    /// open when Kestrel is configured (where <see cref="InUse"/> is counted), 251 once it has
    /// started, 12 to 35 more after the first echo runs over every transport and protocol
    /// (assemblies loaded on first use, two files each): about 85 of the 192 go to those; the
    /// rest is for a thread's pipe, the GC's reads of /proc, the dashboard's files as they are
    /// served and a backplane's sockets, all at once.</summary>
    public const int MinReserve = 192;

    /// <summary>Above 3,840 files, a twentieth of the limit is kept instead: outgoing sockets
    /// (Azure SignalR's server connections, Redis) that Kestrel does not count grow with the hubs.</summary>
    public const int ReserveShare = 20;

    /// <summary>Fewest connections between the 503s and Kestrel's own limit: the connects in
    /// flight when the 503s begin, negotiated and so let in (<see cref="FileLimitGate.OpensAConnection"/>),
    /// land there rather than on Kestrel's limit, which closes them without a word. The runner
    /// keeps 8 connects in flight per engine by default.</summary>
    public const int MinMargin = 32;

    /// <summary>Files the hub opens between the first lines of Program.cs and Kestrel's
    /// configuration (the framework's assemblies, mostly): 115 then and 204 by then on this
    /// machine; for the check before anything starts.</summary>
    public const int StartUpFiles = 90;

    public static FileBudget From(long limit, int inUse)
    {
        var reserve = (int)Math.Min(int.MaxValue, Math.Max(MinReserve, limit / ReserveShare));
        var max = (int)Math.Clamp(limit - inUse - reserve, 0, int.MaxValue);
        var margin = Math.Max(MinMargin, max / 20);
        return new FileBudget(limit, inUse, reserve, max, Math.Max(0, max - margin));
    }

    /// <summary>How to raise the limit, for every line that names it.</summary>
    public const string HowToRaise = "'ulimit -n 65536' in the hub's shell before starting it (LimitNOFILE= in a systemd unit, --ulimit nofile=65536:65536 for docker run)";

    /// <summary>What a connection takes, for the lines that count sockets.</summary>
    public const string SocketsPerConnection = "a WebSocket connection takes one, Server-Sent Events two, long polling three";

    /// <summary>The start-up line: what the limit lets the hub hold.</summary>
    public string StartLine() =>
        $"  connections: at most {MaxConnections:N0} sockets at a time ({SocketsPerConnection}; open files: ulimit -n {Limit:N0}, {InUse:N0} used by the hub before any client, {Reserve:N0} kept for the runtime); new connections get 503 above {RefuseAbove:N0}";

    /// <summary>Why the hub cannot start: no connection would fit; null when some do.</summary>
    public string? StartProblem() => MaxConnections > 0 ? null
        : $"This hub may open {Limit:N0} files (ulimit -n) and uses about {InUse:N0} of them itself before any client, keeping {Reserve:N0} more for the runtime: no connection would fit, so it would serve nothing. Raise the limit: {HowToRaise}.";

    /// <summary>The body of a 503, one line.</summary>
    public string RefusalText(int sockets) =>
        $"503: the hub is at its open-files limit (ulimit -n {Limit:N0}: {sockets:N0} sockets taken, at most {MaxConnections:N0}); it keeps its connections and refuses new ones. Raise the limit before starting the hub (ulimit -n 65536), or connect fewer.";

    /// <summary>The log line for the refusals since the last one.</summary>
    public string LogLine(long answered, long closed, int sockets, TimeSpan since) =>
        $"Open files at the limit: refused {answered + closed:N0} new connection{(answered + closed == 1 ? "" : "s")} in the last {Math.Ceiling(since.TotalSeconds):N0} s ({answered:N0} answered 503, {closed:N0} closed at once by Kestrel), with {sockets:N0} sockets taken. This process may open {Limit:N0} files (ulimit -n), used {InUse:N0} before any client and keeps {Reserve:N0} for the runtime, so it holds at most {MaxConnections:N0} sockets ({SocketsPerConnection}). To hold more, raise the limit: {HowToRaise}.";

    /// <summary>The budget of this process now, or null where it has no such limit (Windows) or
    /// none that binds (unlimited).</summary>
    public static FileBudget? OfThisProcess() =>
        OpenFilesLimit() is { } limit && FilesInUse() is { } inUse ? From(limit, inUse) : null;

    [StructLayout(LayoutKind.Sequential)]
    private struct RLimit
    {
        public ulong Current;
        public ulong Maximum;
    }

    [DllImport("libc", SetLastError = true)]
    private static extern int getrlimit(int resource, out RLimit limit);

    /// <summary>The soft RLIMIT_NOFILE: what this process may open now (the hard limit only bounds
    /// how far the soft one may be raised).</summary>
    public static long? OpenFilesLimit()
    {
        int resource;
        if (OperatingSystem.IsLinux()) resource = 7;
        else if (OperatingSystem.IsMacOS() || OperatingSystem.IsFreeBSD()) resource = 8;
        else return null;
        if (getrlimit(resource, out var limit) != 0) return null;
        return limit.Current >= long.MaxValue ? null : (long)limit.Current;
    }

    /// <summary>Files open in this process now (the listing's own is not counted).</summary>
    public static int? FilesInUse()
    {
        foreach (var folder in new[] { "/proc/self/fd", "/dev/fd" })
        {
            try
            {
                return Math.Max(0, Directory.EnumerateFileSystemEntries(folder).Count() - 1);
            }
            catch (Exception error) when (error is IOException or UnauthorizedAccessException)
            {
            }
        }
        return null;
    }
}

/// <summary>
/// Holds the hub to its <see cref="FileBudget"/> while it runs: counts its open TCP connections
/// (a connection middleware on every endpoint), answers new SignalR connections above the budget's
/// 503 line with the reason while the open ones go on, and writes what it refused, and what
/// Kestrel closed beyond its <c>MaxConcurrentConnections</c> (its <c>kestrel.rejected_connections</c>
/// counter), in one line at most every 10 s.
/// </summary>
public sealed class FileLimitGate : IDisposable
{
    /// <summary>Shortest time between two log lines.</summary>
    public static readonly TimeSpan Interval = TimeSpan.FromSeconds(10);

    private readonly FileBudget _budget;
    private readonly TimeProvider _time;
    private readonly ILogger<FileLimitGate> _logger;
    private readonly ITimer _timer;
    private readonly MeterListener _kestrelRejections = new();
    private readonly object _lock = new();
    private int _open;
    private int _sendSockets;
    private long _answered;
    private long _closed;
    private long _lastLine;
    private bool _everWritten;

    public FileLimitGate(FileBudget budget, TimeProvider time, ILogger<FileLimitGate> logger)
    {
        _budget = budget;
        _time = time;
        _logger = logger;
        _lastLine = time.GetTimestamp();
        // Refusals after a line are written once the interval is over, even if none follow.
        _timer = time.CreateTimer(_ => Flush(), null, Interval, Interval);
        _kestrelRejections.InstrumentPublished = (instrument, listener) =>
        {
            if (instrument.Meter.Name == "Microsoft.AspNetCore.Server.Kestrel" && instrument.Name == "kestrel.rejected_connections") listener.EnableMeasurementEvents(instrument);
        };
        _kestrelRejections.SetMeasurementEventCallback<long>((_, measurement, _, _) => Refused(closed: measurement));
        _kestrelRejections.Start();
    }

    public FileBudget Budget => _budget;

    /// <summary>TCP connections open now.</summary>
    public int Open => Volatile.Read(ref _open);

    /// <summary>Sockets in use now, or soon: the open ones, and more for each Server-Sent Events
    /// stream and long polling poll in flight, whose connection sends on requests (and so
    /// sockets) of their own. Measured with the runner's echo at 1 msg/s: 300 SSE connections
    /// held up to 487 sockets at the hub, 300 long polling ones 905 (a poll, a send, and the
    /// client's pool opening one more as they cross). Without these, a hub full of such
    /// connections had their polls and sends closed by Kestrel's limit: 154 of 299 long polling
    /// connections lost under ulimit -n 1024.</summary>
    public int Sockets => Open + Volatile.Read(ref _sendSockets);

    /// <summary>A connection middleware: counts the connection while it is open.</summary>
    public ConnectionDelegate Count(ConnectionDelegate next) => async connection =>
    {
        Interlocked.Increment(ref _open);
        try
        {
            await next(connection);
        }
        finally
        {
            Interlocked.Decrement(ref _open);
        }
    };

    /// <summary>What a request is to the file budget.</summary>
    public enum Request
    {
        /// <summary>Nothing to count: long polling's sends, the dashboard, /metrics.</summary>
        Other,
        /// <summary>A new SignalR connection: refused above the line.</summary>
        NewConnection,
        /// <summary>A connection's Server-Sent Events stream: its sends take one more socket.</summary>
        EventStream,
        /// <summary>A connection's long polling poll: its sends and the next poll take two more.</summary>
        Poll,
    }

    /// <summary>A new SignalR connection is a negotiate, or a WebSocket or Server-Sent Events
    /// stream that skipped it (no connection <c>id</c>). That is where a client can read the 503's
    /// reason (the SignalR client reports a refused WebSocket as "could not be found", without its
    /// status), so a negotiated connection is let in: the margin between the 503s and Kestrel's
    /// limit holds the connects in flight. Refusing a poll or a send would end an open connection.</summary>
    public static Request Classify(HttpRequest request)
    {
        if (request.Path.Value?.EndsWith("/negotiate", StringComparison.Ordinal) == true) return Request.NewConnection;
        // The WebSocket middleware is not in front of this one (SignalR adds its own per hub), so
        // the upgrade is read from the request itself: HTTP/1.1's Upgrade, HTTP/2's CONNECT.
        var upgrade = request.Headers.Upgrade.ToString().Contains("websocket", StringComparison.OrdinalIgnoreCase) || HttpMethods.IsConnect(request.Method);
        var events = request.Headers.Accept.ToString().Contains("text/event-stream", StringComparison.OrdinalIgnoreCase);
        if (!request.Query.ContainsKey("id")) return upgrade || events ? Request.NewConnection : Request.Other;
        if (events) return Request.EventStream;
        return !upgrade && HttpMethods.IsGet(request.Method) ? Request.Poll : Request.Other;
    }

    /// <summary>Whether a new connection is refused now.</summary>
    public bool Full => Sockets > _budget.RefuseAbove;

    /// <summary>The middleware: 503 and the reason for a new connection above the line, and the
    /// socket closed after it, so its file is free at once.</summary>
    public Task Gate(HttpContext context, RequestDelegate next) => Classify(context.Request) switch
    {
        Request.NewConnection when Full => Refuse(context),
        Request.EventStream => Holding(context, next, 1),
        Request.Poll => Holding(context, next, 2),
        _ => next(context),
    };

    private async Task Holding(HttpContext context, RequestDelegate next, int more)
    {
        Interlocked.Add(ref _sendSockets, more);
        try
        {
            await next(context);
        }
        finally
        {
            Interlocked.Add(ref _sendSockets, -more);
        }
    }

    private Task Refuse(HttpContext context)
    {
        Refused(answered: 1);
        context.Response.StatusCode = StatusCodes.Status503ServiceUnavailable;
        context.Response.Headers.Connection = "close";
        context.Response.Headers.RetryAfter = "10";
        return context.Response.WriteAsync(_budget.RefusalText(Sockets) + "\n");
    }

    /// <summary>Counts refusals; writes the line at once when none was written in the last
    /// interval, so the first refusal is seen when it happens.</summary>
    public void Refused(long answered = 0, long closed = 0)
    {
        lock (_lock)
        {
            _answered += answered;
            _closed += closed;
        }
        Flush(onlyAfterInterval: true);
    }

    /// <summary>Writes the refusals since the last line, if any and if the interval is over.</summary>
    public void Flush() => Flush(onlyAfterInterval: true);

    private void Flush(bool onlyAfterInterval)
    {
        string line;
        lock (_lock)
        {
            if (_answered + _closed == 0) return;
            var since = _time.GetElapsedTime(_lastLine);
            if (onlyAfterInterval && _everWritten && since < Interval) return;
            line = _budget.LogLine(_answered, _closed, Sockets, since);
            (_answered, _closed, _lastLine, _everWritten) = (0, 0, _time.GetTimestamp(), true);
        }
        _logger.LogWarning("{Line}", line);
    }

    public void Dispose()
    {
        _timer.Dispose();
        _kestrelRejections.Dispose();
        Flush(onlyAfterInterval: false);
    }
}
