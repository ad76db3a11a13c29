// The .NET peer of the peer benchmark (bench/peers/peers.mjs): what a load agent on Microsoft's own
// SignalR client (Microsoft.AspNetCore.SignalR.Client, as the official azure-signalr-bench agents
// and Crankier use it) spends to run the same echo load as the runner and the plain-library Node
// control (bench/tool/clients/library-client.mjs):
// - the same open loop: send n of connection i planned at start + i/N x interval + n x interval,
//   never early, a send more than one interval late a missed slot; here one schedule thread walks
//   the slots in their order and sends every due one (a timer per connection is not how a .NET
//   agent is written);
// - the same text: "<runId>:<sender>:<seq>:<sendLagUs>:<plannedUs>|xxx..." padded to the size
//   (workers/engine/payload.ts), the planned time in us since the epoch also as the hub's ts;
// - latency = receive time minus planned time, into an HdrHistogram (HdrHistogram.NET, 1 us to
//   10 min, 3 significant digits: the engine's settings, core/latency/latency.ts); warm-up sends
//   left out; the engine's drain rule (core/run-config/config.ts drainPlan);
// - one SocketsHttpHandler shared by every connection, so the negotiate request's socket goes back
//   to one pool (released) instead of each connection keeping a second socket open beside its
//   WebSocket; workstation GC (DotnetClient.csproj).
// Its input is the control's: one JSON argument; its output one JSON line like the control's,
// with rampStartMs and rampEndMs (epoch ms) for the bench to cut its CPU samples by phase.
using System.Diagnostics;
using System.Text.Json;
using System.Text.Json.Nodes;
using HdrHistogram;
using Microsoft.AspNetCore.Http.Connections;
using Microsoft.AspNetCore.SignalR.Client;
using Microsoft.Extensions.Logging;

if (args.Length != 1)
{
    Console.Error.WriteLine("Pass the load as one JSON argument, e.g. '{\"endpointUrl\":\"http://127.0.0.1:5330/signalrbench\",\"connections\":100,\"intervalMs\":1000,\"durationSec\":10}'.");
    return 2;
}
var options = LoadOptions.Parse(args[0]);
var load = new EchoLoad(options);
await load.OpenAsync();
load.Start();
await load.DrainAsync();
Console.WriteLine(load.Result().ToJsonString());
return 0;

sealed record LoadOptions(string EndpointUrl, int Connections, int IntervalMs, int DurationSec, int WarmupSec, int ConnectConcurrency, int MessageBytes, bool SkipNegotiation, int DrainSec)
{
    public static LoadOptions Parse(string json)
    {
        var o = JsonNode.Parse(json)?.AsObject() ?? throw new ArgumentException("The load must be a JSON object.");
        int Int(string name, int fallback) => o[name] is JsonNode n ? n.GetValue<int>() : fallback;
        return new LoadOptions(
            o["endpointUrl"]?.GetValue<string>() ?? throw new ArgumentException("endpointUrl is missing."),
            Int("connections", 1), Int("intervalMs", 1000), Int("durationSec", 10), Int("warmupSec", 0),
            Int("connectConcurrency", 8), Int("messageBytes", 2048), o["skipNegotiation"]?.GetValue<bool>() == true, Int("drainSec", 30));
    }
}

/// <summary>Microseconds since the Unix epoch, from one wall-clock reading and a monotonic clock.</summary>
static class Clock
{
    static readonly long EpochUsAtStart = DateTimeOffset.UtcNow.ToUnixTimeMilliseconds() * 1_000;
    static readonly long TicksAtStart = Stopwatch.GetTimestamp();
    public static long NowUs() => EpochUsAtStart + (long)((Stopwatch.GetTimestamp() - TicksAtStart) * (1_000_000.0 / Stopwatch.Frequency));
}

/// <summary>A transport handler every connection shares, which no connection's stop disposes.</summary>
sealed class SharedHandler(HttpMessageHandler inner) : DelegatingHandler(inner)
{
    protected override void Dispose(bool disposing) { }
}

sealed class EchoLoad
{
    const long HighestLatencyUs = 600_000_000;
    const string Alphabet = "0123456789abcdefghijklmnopqrstuvwxyz";
    readonly LoadOptions _o;
    readonly string _runId = string.Concat(Enumerable.Range(0, 8).Select(_ => Alphabet[Random.Shared.Next(Alphabet.Length)]));
    readonly HubConnection?[] _opened;
    readonly SharedHandler _handler = new(new SocketsHttpHandler { PooledConnectionIdleTimeout = TimeSpan.FromSeconds(5) });
    readonly LongHistogram _latency = new(HighestLatencyUs, 3);
    readonly LongHistogram _uncorrected = new(HighestLatencyUs, 3);
    readonly object _histogramLock = new();
    readonly long _intervalUs;
    long _sent, _received, _missedSlots, _sendErrors, _connectFailures;
    long _sendStartUs, _warmupEndUs = long.MaxValue, _sendEndUs;
    long _rampStartMs, _rampEndMs;
    Thread? _scheduler;

    public EchoLoad(LoadOptions o)
    {
        _o = o;
        _opened = new HubConnection?[o.Connections];
        _intervalUs = o.IntervalMs * 1_000L;
        if (o.WarmupSec == 0) _warmupEndUs = long.MinValue;
    }

    /// <summary>Paced connects, at most ConnectConcurrency in flight.</summary>
    public async Task OpenAsync()
    {
        _rampStartMs = DateTimeOffset.UtcNow.ToUnixTimeMilliseconds();
        var next = -1;
        async Task Opener()
        {
            int index;
            while ((index = Interlocked.Increment(ref next)) < _o.Connections)
            {
                var connection = new HubConnectionBuilder()
                    .WithUrl(_o.EndpointUrl, HttpTransportType.WebSockets, http =>
                    {
                        http.SkipNegotiation = _o.SkipNegotiation;
                        http.HttpMessageHandlerFactory = _ => _handler;
                    })
                    .ConfigureLogging(logging => logging.SetMinimumLevel(LogLevel.None))
                    .Build();
                connection.On<long, string>("Measure", Receive);
                try
                {
                    await connection.StartAsync();
                    _opened[index] = connection;
                }
                catch (Exception error)
                {
                    if (Interlocked.Increment(ref _connectFailures) == 1) Console.Error.WriteLine($"dotnet: connection {index} failed: {error.Message}");
                    await connection.DisposeAsync();
                }
            }
        }
        await Task.WhenAll(Enumerable.Range(0, Math.Min(_o.ConnectConcurrency, _o.Connections)).Select(_ => Task.Run(Opener)));
        _rampEndMs = DateTimeOffset.UtcNow.ToUnixTimeMilliseconds();
    }

    void Receive(long ts, string payload)
    {
        var receivedUs = Clock.NowUs();
        if (ts < Volatile.Read(ref _warmupEndUs) || !payload.StartsWith(_runId, StringComparison.Ordinal)) return;
        var latencyUs = Math.Clamp(receivedUs - ts, 1, HighestLatencyUs);
        var uncorrectedUs = Math.Clamp(latencyUs - SendLagUs(payload), 1, HighestLatencyUs);
        lock (_histogramLock)
        {
            _latency.RecordValue(latencyUs);
            _uncorrected.RecordValue(uncorrectedUs);
        }
        Interlocked.Increment(ref _received);
    }

    /// <summary>The header's fourth field: "<runId>:<sender>:<seq>:<sendLagUs>:...".</summary>
    static long SendLagUs(string payload)
    {
        var at = 0;
        for (var colons = 0; colons < 3; colons++) at = payload.IndexOf(':', at) + 1;
        long lag = 0;
        for (; at < payload.Length && char.IsAsciiDigit(payload[at]); at++) lag = lag * 10 + (payload[at] - '0');
        return lag;
    }

    string Payload(int sender, long seq, long sendLagUs, long plannedUs)
    {
        var head = $"{_runId}:{sender}:{seq}:{sendLagUs}:{plannedUs}|";
        if (head.Length >= _o.MessageBytes) return head;
        return string.Create(_o.MessageBytes, head, (span, h) =>
        {
            h.AsSpan().CopyTo(span);
            span[h.Length..].Fill('x');
        });
    }

    public void Start()
    {
        _sendStartUs = Clock.NowUs() + 200_000;
        Volatile.Write(ref _warmupEndUs, _sendStartUs + _o.WarmupSec * 1_000_000L);
        _sendEndUs = _sendStartUs + _o.DurationSec * 1_000_000L;
        _scheduler = new Thread(Schedule) { IsBackground = true, Name = "schedule" };
        _scheduler.Start();
    }

    /// <summary>Every slot in planned order (slot k: connection k mod N, its send k div N); sleeps
    /// until the next one is due, then sends all that are due.</summary>
    void Schedule()
    {
        var n = _o.Connections;
        for (long k = 0; ; k++)
        {
            var index = (int)(k % n);
            var seq = k / n;
            var plannedUs = _sendStartUs + index * _intervalUs / n + seq * _intervalUs;
            if (plannedUs >= _sendEndUs) return;
            var connection = _opened[index];
            if (connection is null) continue;
            long nowUs;
            while ((nowUs = Clock.NowUs()) < plannedUs) Thread.Sleep((int)Math.Max(1, (plannedUs - nowUs + 999) / 1_000));
            var sendLagUs = nowUs - plannedUs;
            if (plannedUs >= _warmupEndUs)
            {
                _sent++;
                if (sendLagUs > _intervalUs) _missedSlots++;
            }
            try
            {
                var sending = connection.SendAsync("Echo", plannedUs, Payload(index, seq, sendLagUs, plannedUs));
                if (!sending.IsCompletedSuccessfully) sending.ContinueWith(t => Interlocked.Increment(ref _sendErrors), TaskContinuationOptions.OnlyOnFaulted);
            }
            catch
            {
                _sendErrors++;
            }
        }
    }

    /// <summary>Waits for the last send, then drains by the engine's rule: while messages still
    /// arrive, up to the cap.</summary>
    public async Task DrainAsync()
    {
        _scheduler!.Join();
        var capMs = _o.DrainSec * 1_000L;
        var quietMs = Math.Min(capMs, Math.Max(3_000, 2L * _o.IntervalMs));
        var drainStart = Stopwatch.StartNew();
        var lastProgressMs = 0L;
        var received = Interlocked.Read(ref _received);
        while (Interlocked.Read(ref _received) < _sent && drainStart.ElapsedMilliseconds < capMs && drainStart.ElapsedMilliseconds - lastProgressMs < quietMs)
        {
            await Task.Delay(20);
            var now = Interlocked.Read(ref _received);
            if (now != received)
            {
                received = now;
                lastProgressMs = drainStart.ElapsedMilliseconds;
            }
        }
        await Task.WhenAll(_opened.Where(c => c is not null).Select(async c =>
        {
            try { await c!.DisposeAsync(); } catch { }
        }));
    }

    static JsonObject Summary(LongHistogram h) => h.TotalCount == 0
        ? new JsonObject { ["count"] = 0, ["p50Us"] = null, ["p90Us"] = null, ["p99Us"] = null, ["p999Us"] = null, ["maxUs"] = null, ["meanUs"] = null }
        : new JsonObject
        {
            ["count"] = h.TotalCount,
            ["p50Us"] = h.GetValueAtPercentile(50),
            ["p90Us"] = h.GetValueAtPercentile(90),
            ["p99Us"] = h.GetValueAtPercentile(99),
            ["p999Us"] = h.GetValueAtPercentile(99.9),
            ["maxUs"] = h.GetMaxValue(),
            ["meanUs"] = Math.Round(h.GetMean(), 2),
        };

    public JsonObject Result()
    {
        var received = Interlocked.Read(ref _received);
        return new JsonObject
        {
            ["client"] = "dotnet",
            ["connectionsOpened"] = _opened.Count(c => c is not null),
            ["sent"] = _sent,
            ["received"] = received,
            ["missedSlots"] = _missedSlots,
            ["sendErrors"] = Interlocked.Read(ref _sendErrors),
            ["connectFailures"] = _connectFailures,
            ["lost"] = Math.Max(0, _sent - received),
            ["rampMs"] = _rampEndMs - _rampStartMs,
            ["rampStartMs"] = _rampStartMs,
            ["rampEndMs"] = _rampEndMs,
            ["latency"] = Summary(_latency),
            ["uncorrectedLatency"] = Summary(_uncorrected),
            ["measuredFromMs"] = _warmupEndUs / 1_000,
            ["measuredToMs"] = _sendEndUs / 1_000,
            ["signalrClient"] = typeof(HubConnection).Assembly.GetName().Version?.ToString(),
        };
    }
}
