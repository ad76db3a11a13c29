using System.Diagnostics.Metrics;
using StackExchange.Redis;

namespace HubSample;

/// <summary>
/// Whether the Redis backplane (<c>--Redis</c>) answers, for <c>/healthz</c>, the
/// <c>hubsample.backplane.up</c> gauge, the errors clients read (<see cref="BackplaneLifetimeManager{THub}"/>)
/// and the log. Read from the multiplexers the backplane itself uses (one per hub, made by
/// <see cref="RedisBackplane.AddHubSampleRedis"/>): StackExchange.Redis's ConnectionFailed and
/// ConnectionRestored events say when a connection is lost and back.
/// <para>
/// A frozen Redis (a stopped process, a network that drops packets) keeps its sockets open, and
/// StackExchange.Redis calls a socket dead only once nothing has come back for 4 command timeouts
/// (about 20 s) while its commands time out: never on an idle hub. So the backplane's commands
/// that time out count as "no answer" too, and <see cref="Check"/> (a /healthz request, a /metrics scrape) sends one PING
/// through each multiplexer, at most one a second: the hub asks Redis when it is asked, with no
/// timer of its own.
/// </para>
/// </summary>
public sealed class BackplaneHealth : IDisposable
{
    public const string MeterInstrument = "hubsample.backplane.up";
    /// <summary>The words every refusal and 503 starts with; clients and the runner key on them.</summary>
    public const string Unavailable = "backplane unavailable";
    /// <summary>Least time between two PINGs of <see cref="Check"/>.</summary>
    public static readonly TimeSpan ProbeInterval = TimeSpan.FromSeconds(1);

    private readonly string _where;
    private readonly int _replyTimeoutMs;
    private readonly TimeProvider _time;
    private readonly ILogger<BackplaneHealth> _logger;
    private readonly ITimer _timer;
    private readonly object _lock = new();
    private readonly List<IConnectionMultiplexer> _watched = new();
    /// <summary>Connections StackExchange.Redis reported lost and not yet restored, by multiplexer and kind.</summary>
    private readonly Dictionary<(object Source, ConnectionType Kind), string> _lost = new();
    /// <summary>Why the last command or PING failed, until one succeeds or a connection is restored.</summary>
    private string? _failing;
    private long? _downSinceTimestamp;
    private string _cause = "";
    private long? _lastLineTimestamp;
    private bool _toldDown;
    /// <summary>Losses since the last line, for the next one: a flapping Redis writes a count.</summary>
    private int _unwrittenLosses;
    private Task _probe = Task.CompletedTask;
    private long? _probeStartedTimestamp;

    /// <param name="where">The Redis servers, never the password (<see cref="RedisBackplane.Describe"/>).</param>
    /// <param name="replyTimeoutMs">How long a command waits for Redis (StackExchange.Redis's AsyncTimeout), ms.</param>
    public BackplaneHealth(string where, int replyTimeoutMs, TimeProvider time, ILogger<BackplaneHealth> logger, IMeterFactory? meters)
    {
        _where = where;
        _replyTimeoutMs = replyTimeoutMs;
        _time = time;
        _logger = logger;
        // The gauge reads what is known and asks for a PING, so a scraper alone also sees a frozen Redis.
        meters?.Create(HubCounters.MeterName).CreateObservableGauge(MeterInstrument, () => Check() is null ? 1 : 0, null,
            "1 while this instance's Redis backplane (--Redis) answers, 0 while it does not.");
        // Only the log line of a lasting loss needs a timer.
        _timer = time.CreateTimer(_ => Tick(), null, RefusalLog.Interval, RefusalLog.Interval);
    }

    /// <summary>Null while the backplane answers; otherwise the one-line reason ("backplane
    /// unavailable: Redis at ... does not answer (...)") without ever a password.</summary>
    public string? Reason()
    {
        lock (_lock) return _downSinceTimestamp is null ? null : $"{Unavailable}: {ProblemLocked()}";
    }

    /// <summary>What /healthz and the gauge read: <see cref="Reason"/>, after starting a PING of
    /// every multiplexer if none is under way and the last began over <see cref="ProbeInterval"/>
    /// ago. The answer does not wait for the PING: the next reading has its outcome.</summary>
    public string? Check()
    {
        lock (_lock)
        {
            var due = _probeStartedTimestamp is not long started || _time.GetElapsedTime(started) >= ProbeInterval;
            if (_watched.Count > 0 && _probe.IsCompleted && due)
            {
                _probeStartedTimestamp = _time.GetTimestamp();
                _probe = Probe([.. _watched]);
            }
        }
        return Reason();
    }

    /// <summary>Connects one multiplexer for the backplane (the RedisOptions.ConnectionFactory)
    /// and watches it from then on.</summary>
    public async Task<IConnectionMultiplexer> ConnectAsync(ConfigurationOptions options, TextWriter log)
    {
        var redis = await ConnectionMultiplexer.ConnectAsync(options, log);
        Watch(redis);
        return redis;
    }

    public void Watch(IConnectionMultiplexer redis)
    {
        redis.ConnectionFailed += (_, failed) =>
        {
            // The hub stopping closes its own connections: no loss.
            if (failed.FailureType != ConnectionFailureType.ConnectionDisposed) Lost(redis, failed.ConnectionType, failed.FailureType.ToString());
        };
        redis.ConnectionRestored += (_, restored) => Restored(redis, restored.ConnectionType);
        lock (_lock) _watched.Add(redis);
        // Events raised while it connected went to nobody.
        if (!redis.IsConnected) Lost(redis, ConnectionType.Interactive, "not connected");
        if (!redis.GetSubscriber().IsConnected()) Lost(redis, ConnectionType.Subscription, "not connected");
    }

    /// <summary>StackExchange.Redis lost connection <paramref name="kind"/> of <paramref name="source"/>.</summary>
    public void Lost(object source, ConnectionType kind, string failureType)
    {
        lock (_lock)
        {
            _lost[(source, kind)] = failureType;
            Evaluate(failureType);
        }
    }

    /// <summary>StackExchange.Redis connected it again: Redis answered its handshake.</summary>
    public void Restored(object source, ConnectionType kind)
    {
        lock (_lock)
        {
            _lost.Remove((source, kind));
            _failing = null;
            Evaluate(null);
        }
    }

    /// <summary>A command through the backplane failed with <paramref name="error"/> (one for which
    /// <see cref="IsRedisFailure"/> holds): returns the reason to give the client, without the
    /// time, so that the same failure reads the same for every connection and call (a runner
    /// counts errors by their text).</summary>
    public string Failed(Exception error)
    {
        var cause = error switch
        {
            RedisTimeoutException => $"no reply within {_replyTimeoutMs / 1_000.0:0.#} s",
            RedisConnectionException connection => connection.FailureType.ToString(),
            RedisServerException server => $"error reply {server.Message.Split(' ')[0]}",
            _ => error.GetType().Name,
        };
        lock (_lock)
        {
            _failing = cause;
            Evaluate(cause);
            return $"{Unavailable}: {ProblemLocked(withTime: false)}";
        }
    }

    /// <summary>A command through the backplane succeeded. Cheap when nothing failed: every
    /// broadcast reports here.</summary>
    public void Answered()
    {
        if (Volatile.Read(ref _failing) is null) return;
        lock (_lock)
        {
            _failing = null;
            Evaluate(null);
        }
    }

    /// <summary>Errors that mean Redis did not do what the backplane asked: a lost connection, a
    /// timeout, an error reply.</summary>
    public static bool IsRedisFailure(Exception error) => error is RedisException or RedisTimeoutException;

    /// <summary>Writes a lasting loss again, or losses too short and close together to have
    /// been written, at most one line per <see cref="RefusalLog.Interval"/> (the timer calls it;
    /// tests call it with their own clock).</summary>
    public void Tick()
    {
        lock (_lock)
        {
            if (!LineDue()) return;
            if (_downSinceTimestamp is not null) Line($"Backplane {(_toldDown ? "still unavailable" : "lost")}: {ProblemLocked()}{Unwritten()}. {Consequence}", toldDown: true);
            else if (_unwrittenLosses > 0) Line($"Backplane lost and back{Unwritten(all: true)}: Redis at {_where} answers now.", toldDown: false);
        }
    }

    public void Dispose() => _timer.Dispose();

    private async Task Probe(IConnectionMultiplexer[] watched)
    {
        try
        {
            await Task.WhenAll(watched.Select(redis => redis.GetSubscriber().PingAsync()));
            Answered();
        }
        catch (Exception error) when (IsRedisFailure(error))
        {
            Failed(error);
        }
        catch (ObjectDisposedException)
        {
            // The hub is stopping.
        }
    }

    /// <summary>Under the lock: down while a connection is lost or the last command failed; a
    /// change of state is logged, the loss at most once per interval.</summary>
    private void Evaluate(string? cause)
    {
        var down = _lost.Count > 0 || _failing is not null;
        if (down && _downSinceTimestamp is null)
        {
            _downSinceTimestamp = _time.GetTimestamp();
            _cause = cause ?? _failing ?? _lost.Values.First();
            _unwrittenLosses++;
            if (LineDue()) Line($"Backplane lost: {ProblemLocked(withTime: false)}{Unwritten()}. {Consequence}", toldDown: true);
        }
        else if (!down && _downSinceTimestamp is long since)
        {
            var seconds = _time.GetElapsedTime(since).TotalSeconds;
            _downSinceTimestamp = null;
            // Not held to the interval: it follows a loss line, which is.
            if (_toldDown) Line($"Backplane back: Redis at {_where} answers again after {seconds:0.#} s.", toldDown: false);
        }
    }

    private const string Consequence = "/healthz answers 503; connections and calls that need Redis are refused with \"backplane unavailable\" until it answers.";

    private string ProblemLocked(bool withTime = true)
    {
        if (!withTime) return $"Redis at {_where} does not answer ({_cause})";
        var seconds = (long)_time.GetElapsedTime(_downSinceTimestamp!.Value).TotalSeconds;
        return $"Redis at {_where} does not answer ({_cause}, since {seconds} s)";
    }

    private bool LineDue() => _lastLineTimestamp is not long last || _time.GetElapsedTime(last) >= RefusalLog.Interval;

    /// <summary>The losses since the last line that it did not write, this one excepted unless <paramref name="all"/>.</summary>
    private string Unwritten(bool all = false)
    {
        var earlier = all ? _unwrittenLosses : _unwrittenLosses - 1;
        return earlier switch
        {
            <= 0 => "",
            1 when all => " once since the last line",
            _ when all => $" {earlier} times since the last line",
            1 => "; lost and back once more since the last line",
            _ => $"; lost and back {earlier} more times since the last line",
        };
    }

    private void Line(string text, bool toldDown)
    {
        _lastLineTimestamp = _time.GetTimestamp();
        _toldDown = toldDown;
        _unwrittenLosses = 0;
        _logger.LogWarning("{Line}", text);
    }
}
