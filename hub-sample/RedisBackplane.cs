using System.Diagnostics.Metrics;
using Microsoft.AspNetCore.SignalR;
using Microsoft.AspNetCore.SignalR.StackExchangeRedis;
using Microsoft.Extensions.DependencyInjection.Extensions;
using StackExchange.Redis;

namespace HubSample;

/// <summary>
/// <c>--Redis &lt;configuration&gt;</c>: several hub-sample processes share one Redis as their
/// SignalR backplane (Microsoft's <c>Microsoft.AspNetCore.SignalR.StackExchangeRedis</c>), so a
/// broadcast, a group message or a send-to-connection made on one instance reaches the
/// connections of every instance. Each connection still lives on the one process it opened on.
/// <para>
/// What stays per process, and so per instance, with a backplane: the group bounds of
/// <see cref="GroupLimits"/> (per connection, right as they are), the test delivery limit of
/// <see cref="DeliveryLimit"/> (N instances deliver N times the limit promptly), and the figures
/// of <see cref="HubCounters"/>: calls and connections are this instance's own (their sum over
/// instances is the whole), but a call's deliveries are counted where the call is made, from the
/// connections and group members of that instance only; deliveries the backplane carries to other
/// instances are counted nowhere. docs/agents.md says so where it shows the commands.
/// </para>
/// </summary>
public static class RedisBackplane
{
    /// <summary>How long the start-up check waits for Redis, ms.</summary>
    public const int ConnectTimeoutMs = 5_000;

    /// <summary>Prefix of the backplane's Redis channels: other applications on the same Redis
    /// keep theirs, and every hub-sample on it shares these.</summary>
    public const string ChannelPrefix = "live-bench";

    /// <summary>The configuration read, or what is wrong with it (never quoting a password).</summary>
    public static (ConfigurationOptions? Options, string? Problem) Parse(string configuration)
    {
        const string example = "--Redis 127.0.0.1:6379 (host:port, then options such as ,password=... or ,ssl=true, comma separated)";
        if (string.IsNullOrWhiteSpace(configuration)) return (null, $"--Redis is empty: pass the Redis to share, such as {example}, or leave --Redis out for one process.");
        ConfigurationOptions options;
        try
        {
            options = ConfigurationOptions.Parse(configuration);
        }
        catch (Exception error) when (error is ArgumentException or FormatException)
        {
            // The library's message names the keyword at fault, never the password's value.
            return (null, $"--Redis is not a StackExchange.Redis configuration ({error.Message.TrimEnd('.')}): pass one such as {example}.");
        }
        if (options.EndPoints.Count == 0) return (null, $"--Redis names no Redis server: pass one such as {example}.");
        options.ConnectTimeout = ConnectTimeoutMs;
        options.ChannelPrefix = RedisChannel.Literal(ChannelPrefix);
        return (options, null);
    }

    /// <summary>Where the backplane is, for people: the servers, never the password.</summary>
    public static string Describe(ConfigurationOptions options) =>
        string.Join(", ", options.EndPoints.Select(endpoint => endpoint.ToString()));

    /// <summary>Why Redis cannot be used, tried once before the hub starts; null when it answered.
    /// StackExchange.Redis keeps retrying in the background, so without this a hub with a wrong
    /// address would start and lose every message between instances without a word.</summary>
    public static string? ReachProblem(ConfigurationOptions options)
    {
        var probe = options.Clone();
        probe.AbortOnConnectFail = true;
        // One attempt: a refused connect then says so at once instead of after three time-outs.
        probe.ConnectRetry = 1;
        try
        {
            using var redis = ConnectionMultiplexer.Connect(probe);
            redis.GetSubscriber().Ping();
            return null;
        }
        catch (Exception error) when (IsAuthenticationFailure(error))
        {
            return $"--Redis: the Redis at {Describe(options)} refused this hub's credentials (authentication failure). " +
                "Check password= (and user=) in --Redis, or HUBSAMPLE_REDIS, against that Redis's requirepass or ACL.";
        }
        catch (Exception error) when (error is RedisException or TimeoutException)
        {
            // The first sentence: the rest advises abortConnect=false, which is the silent hub this check prevents.
            var said = error.Message.Split(". ")[0].Split('\n')[0].TrimEnd('.');
            return $"--Redis: no Redis answered at {Describe(options)} within {ConnectTimeoutMs / 1_000} s ({said}). " +
                "Start one there (for a local test: redis-server --port <port> --save '' --appendonly no), or pass the address of a running one.";
        }
    }

    private static bool IsAuthenticationFailure(Exception error) =>
        error is RedisConnectionException { FailureType: ConnectionFailureType.AuthenticationFailure }
        || error.Message.Contains("authentication failure", StringComparison.OrdinalIgnoreCase)
        || error.InnerException?.Message.Contains("WRONGPASS", StringComparison.Ordinal) == true;

    /// <summary>The hubs' messages through Redis, for every instance started with the same
    /// configuration; Redis failures said to clients, /healthz and /metrics as "backplane
    /// unavailable" (<see cref="BackplaneHealth"/>, <see cref="BackplaneLifetimeManager{THub}"/>).</summary>
    public static ISignalRServerBuilder AddHubSampleRedis(this ISignalRServerBuilder signalR, ConfigurationOptions options)
    {
        var backplane = options.Clone();
        // Made even while Redis is away, then reconnecting in the background: Microsoft's own
        // default for the backplane (a configuration string parsed here would abort instead).
        backplane.AbortOnConnectFail = false;
        // While Redis is away a command fails at once, rather than wait its 5 s in StackExchange.Redis's
        // backlog and fail then: the client reads "backplane unavailable" at once, and hub calls do
        // not queue up behind sends that cannot go.
        backplane.BacklogPolicy = BacklogPolicy.FailFast;
        var services = signalR.Services;
        services.AddSingleton(provider => new BackplaneHealth(Describe(options), backplane.AsyncTimeout,
            provider.GetRequiredService<TimeProvider>(), provider.GetRequiredService<ILogger<BackplaneHealth>>(), provider.GetService<IMeterFactory>()));
        signalR.AddStackExchangeRedis(redis => redis.Configuration = backplane);
        // Microsoft's documented hook for its connection events: the health reads the very
        // multiplexers the backplane sends and receives through (one per hub).
        services.AddOptions<RedisOptions>().Configure<BackplaneHealth>((redis, health) => redis.ConnectionFactory = log => health.ConnectAsync(backplane, log));
        services.AddSingleton(typeof(RedisHubLifetimeManager<>));
        services.RemoveAll(typeof(HubLifetimeManager<>));
        services.AddSingleton(typeof(HubLifetimeManager<>), typeof(BackplaneLifetimeManager<>));
        return signalR;
    }
}
