using System.Diagnostics.Metrics;
using Microsoft.AspNetCore.Connections;
using Microsoft.AspNetCore.SignalR;
using Microsoft.Extensions.DependencyInjection;
using Microsoft.Extensions.Logging;
using Microsoft.Extensions.Logging.Abstractions;
using StackExchange.Redis;

namespace HubSample.Tests;

/// <summary>
/// The backplane's health and its refusals: what /healthz, the gauge, the log and the client read
/// when Redis goes away, from StackExchange.Redis's events and the backplane's failed commands.
/// The real Redis is in tests/integration/backplane-health.test.ts.
/// </summary>
public class BackplaneTests
{
    private sealed class Lines : ILogger<BackplaneHealth>
    {
        public List<string> Written { get; } = new();
        public IDisposable? BeginScope<TState>(TState state) where TState : notnull => null;
        public bool IsEnabled(LogLevel logLevel) => true;
        public void Log<TState>(LogLevel logLevel, EventId eventId, TState state, Exception? exception, Func<TState, Exception?, string> formatter) =>
            Written.Add(formatter(state, exception) + (exception is null ? "" : exception.StackTrace));
    }

    private static readonly string Where = RedisBackplane.Describe(RedisBackplane.Parse("127.0.0.1:6390,password=never-shown").Options!);

    private static (BackplaneHealth Health, StoppedClock Clock, Lines Lines) NewHealth(IMeterFactory? meters = null)
    {
        var clock = new StoppedClock();
        var lines = new Lines();
        return (new BackplaneHealth(Where, 5_000, clock, lines, meters), clock, lines);
    }

    private static readonly object Multiplexer = new();

    [Fact]
    public void ALostConnectionGivesOneLineReasonWithTheServerAndTheTimeButNeverThePassword()
    {
        var (health, clock, _) = NewHealth();
        Assert.Null(health.Reason());
        health.Lost(Multiplexer, ConnectionType.Subscription, nameof(ConnectionFailureType.SocketClosed));
        clock.Advance(12.4);
        Assert.Equal("backplane unavailable: Redis at 127.0.0.1:6390 does not answer (SocketClosed, since 12 s)", health.Reason());
        Assert.DoesNotContain("never-shown", health.Reason());
        health.Restored(Multiplexer, ConnectionType.Subscription);
        Assert.Null(health.Reason());
    }

    [Fact]
    public void DownUntilEveryLostConnectionIsBack()
    {
        var (health, _, _) = NewHealth();
        var other = new object();
        health.Lost(Multiplexer, ConnectionType.Interactive, "SocketClosed");
        health.Lost(other, ConnectionType.Subscription, "SocketClosed");
        health.Restored(Multiplexer, ConnectionType.Interactive);
        Assert.NotNull(health.Reason());
        health.Restored(other, ConnectionType.Subscription);
        Assert.Null(health.Reason());
    }

    [Fact]
    public void ACommandThatTimesOutMeansNoAnswerUntilOneSucceeds()
    {
        // A frozen Redis keeps its sockets: no event says so, the timeouts do.
        var (health, clock, _) = NewHealth();
        var said = health.Failed(new RedisTimeoutException("Timeout awaiting response (5100ms elapsed, timeout is 5000ms), command=PUBLISH", CommandStatus.Sent));
        // The client's words carry no time: the same failure reads the same for every call.
        Assert.Equal("backplane unavailable: Redis at 127.0.0.1:6390 does not answer (no reply within 5 s)", said);
        clock.Advance(3);
        Assert.EndsWith("(no reply within 5 s, since 3 s)", health.Reason());
        health.Answered();
        Assert.Null(health.Reason());
    }

    [Fact]
    public void TheFirstCauseStaysWhileItLasts()
    {
        var (health, _, _) = NewHealth();
        health.Lost(Multiplexer, ConnectionType.Subscription, "SocketClosed");
        health.Failed(new RedisConnectionException(ConnectionFailureType.UnableToConnect, "No connection is active/available to service this operation"));
        Assert.Contains("(SocketClosed, since", health.Reason());
        // Redis restored: the failure of a command sent while it was away is over too.
        health.Restored(Multiplexer, ConnectionType.Subscription);
        Assert.Null(health.Reason());
    }

    [Fact]
    public void ALossIsLoggedOnceThenEveryTenSecondsAtMostAndItsEndOnce()
    {
        var (health, clock, lines) = NewHealth();
        for (var i = 0; i < 10_000; i++)
        {
            health.Lost(Multiplexer, ConnectionType.Subscription, "SocketClosed");
            health.Failed(new RedisConnectionException(ConnectionFailureType.SocketClosed, "x"));
            health.Tick();
        }
        Assert.Single(lines.Written);
        Assert.StartsWith("Backplane lost: Redis at 127.0.0.1:6390 does not answer (SocketClosed). /healthz answers 503", lines.Written[0]);
        clock.Advance(9);
        health.Tick();
        Assert.Single(lines.Written);
        clock.Advance(1);
        health.Tick();
        Assert.Equal("Backplane still unavailable: Redis at 127.0.0.1:6390 does not answer (SocketClosed, since 10 s). /healthz answers 503; connections and calls that need Redis are refused with \"backplane unavailable\" until it answers.", lines.Written[1]);
        clock.Advance(2);
        health.Restored(Multiplexer, ConnectionType.Subscription);
        Assert.Equal("Backplane back: Redis at 127.0.0.1:6390 answers again after 12 s.", lines.Written[2]);
        health.Tick();
        Assert.Equal(3, lines.Written.Count);
        Assert.All(lines.Written, line => Assert.DoesNotContain("never-shown", line));
    }

    [Fact]
    public void FlappingFasterThanTheIntervalWritesNoMoreThanALossAndItsEnd()
    {
        var (health, clock, lines) = NewHealth();
        for (var i = 0; i < 100; i++)
        {
            health.Lost(Multiplexer, ConnectionType.Interactive, "SocketFailure");
            clock.Advance(0.05);
            health.Restored(Multiplexer, ConnectionType.Interactive);
        }
        Assert.Equal(2, lines.Written.Count);
        Assert.StartsWith("Backplane lost:", lines.Written[0]);
        Assert.StartsWith("Backplane back:", lines.Written[1]);
        // The 99 losses the interval held back are counted in the next line.
        clock.Advance(10);
        health.Tick();
        Assert.Equal("Backplane lost and back 99 times since the last line: Redis at 127.0.0.1:6390 answers now.", lines.Written[2]);
        clock.Advance(10);
        health.Tick();
        Assert.Equal(3, lines.Written.Count);
    }

    [Fact]
    public void ALossSoonAfterAnotherIsWrittenAtTheNextTickEvenWhenOver()
    {
        var (health, clock, lines) = NewHealth();
        health.Lost(Multiplexer, ConnectionType.Subscription, "SocketClosed");
        clock.Advance(1);
        health.Restored(Multiplexer, ConnectionType.Subscription);
        clock.Advance(1);
        health.Failed(new RedisTimeoutException("Timeout awaiting response", CommandStatus.Sent));
        clock.Advance(3);
        health.Answered();
        Assert.Equal(2, lines.Written.Count);
        // Due 10 s after the last line (the loss's end, at 1 s).
        clock.Advance(5);
        health.Tick();
        Assert.Equal(2, lines.Written.Count);
        clock.Advance(1);
        health.Tick();
        Assert.Equal("Backplane lost and back once since the last line: Redis at 127.0.0.1:6390 answers now.", lines.Written[2]);
    }

    [Fact]
    public void ALossHeldBackByTheIntervalIsWrittenAtTheNextTickWhileItLasts()
    {
        var (health, clock, lines) = NewHealth();
        health.Lost(Multiplexer, ConnectionType.Subscription, "SocketClosed");
        health.Restored(Multiplexer, ConnectionType.Subscription);
        clock.Advance(2);
        health.Failed(new RedisTimeoutException("Timeout awaiting response", CommandStatus.Sent));
        clock.Advance(7);
        health.Tick();
        Assert.Equal(2, lines.Written.Count);
        // Due 10 s after the last line (the first loss's end, at 0 s).
        clock.Advance(1);
        health.Tick();
        Assert.StartsWith("Backplane lost: Redis at 127.0.0.1:6390 does not answer (no reply within 5 s, since 8 s). /healthz answers 503", lines.Written[2]);
    }

    [Fact]
    public void TheGaugeReadsOneWhileRedisAnswersAndZeroWhileNot()
    {
        using var services = new ServiceCollection().AddMetrics().BuildServiceProvider();
        var (health, _, _) = NewHealth(services.GetRequiredService<IMeterFactory>());
        int? up = null;
        using var listener = new MeterListener();
        listener.InstrumentPublished = (instrument, l) =>
        {
            if (instrument.Meter.Name == HubCounters.MeterName && instrument.Name == BackplaneHealth.MeterInstrument) l.EnableMeasurementEvents(instrument);
        };
        listener.SetMeasurementEventCallback<int>((_, value, _, _) => up = value);
        listener.Start();
        listener.RecordObservableInstruments();
        Assert.Equal(1, up);
        health.Lost(Multiplexer, ConnectionType.Subscription, "SocketClosed");
        listener.RecordObservableInstruments();
        Assert.Equal(0, up);
    }

    /// <summary>A lifetime manager whose every call fails as Microsoft's Redis one does with Redis away.</summary>
    private sealed class RedisAway(Exception error) : HubLifetimeManager<Hub>
    {
        public override Task OnConnectedAsync(HubConnectionContext connection) => Task.FromException(error);
        public override Task OnDisconnectedAsync(HubConnectionContext connection) => Task.FromException(error);
        public override Task SendAllAsync(string methodName, object?[] args, CancellationToken cancellationToken = default) => Task.FromException(error);
        public override Task SendAllExceptAsync(string methodName, object?[] args, IReadOnlyList<string> excludedConnectionIds, CancellationToken cancellationToken = default) => Task.FromException(error);
        // A connection of this instance: written directly, no Redis.
        public override Task SendConnectionAsync(string connectionId, string methodName, object?[] args, CancellationToken cancellationToken = default) => Task.CompletedTask;
        public override Task SendConnectionsAsync(IReadOnlyList<string> connectionIds, string methodName, object?[] args, CancellationToken cancellationToken = default) => Task.FromException(error);
        public override Task SendGroupAsync(string groupName, string methodName, object?[] args, CancellationToken cancellationToken = default) => Task.FromException(error);
        public override Task SendGroupsAsync(IReadOnlyList<string> groupNames, string methodName, object?[] args, CancellationToken cancellationToken = default) => Task.FromException(error);
        public override Task SendGroupExceptAsync(string groupName, string methodName, object?[] args, IReadOnlyList<string> excludedConnectionIds, CancellationToken cancellationToken = default) => Task.FromException(error);
        public override Task SendUserAsync(string userId, string methodName, object?[] args, CancellationToken cancellationToken = default) => Task.FromException(error);
        public override Task SendUsersAsync(IReadOnlyList<string> userIds, string methodName, object?[] args, CancellationToken cancellationToken = default) => Task.FromException(error);
        public override Task AddToGroupAsync(string connectionId, string groupName, CancellationToken cancellationToken = default) => Task.FromException(error);
        public override Task RemoveFromGroupAsync(string connectionId, string groupName, CancellationToken cancellationToken = default) => Task.FromException(error);
    }

    private static HubConnectionContext NewConnection() =>
        new(new DefaultConnectionContext("connection-1"), new HubConnectionContextOptions { KeepAliveInterval = TimeSpan.FromSeconds(15), ClientTimeoutInterval = TimeSpan.FromSeconds(30) }, NullLoggerFactory.Instance);

    private sealed class Context(HubConnectionContext connection) : HubCallerContext
    {
        public override string ConnectionId => connection.ConnectionId;
        public override string? UserIdentifier => null;
        public override System.Security.Claims.ClaimsPrincipal? User => null;
        public override IDictionary<object, object?> Items => connection.Items;
        public override Microsoft.AspNetCore.Http.Features.IFeatureCollection Features => connection.Features;
        public override CancellationToken ConnectionAborted => CancellationToken.None;
        public override void Abort() { }
    }

    private sealed class SomeHub : Hub;

    [Fact]
    public async Task AConnectionRedisCannotTakeIsRefusedByTheHubFilterWithTheReasonNotByTheLifetimeManager()
    {
        var (health, _, _) = NewHealth();
        var manager = new BackplaneLifetimeManager<Hub>(new RedisAway(new RedisConnectionException(ConnectionFailureType.SocketClosed, "SocketClosed on 127.0.0.1:6390/Subscription")), health);
        var connection = NewConnection();
        // Thrown here, SignalR would close the socket with 1011 and no reason.
        await manager.OnConnectedAsync(connection);
        var hubReached = false;
        var refused = await Assert.ThrowsAsync<HubException>(() => new BackplaneGate().OnConnectedAsync(
            new HubLifetimeContext(new Context(connection), new ServiceCollection().BuildServiceProvider(), new SomeHub()),
            _ => { hubReached = true; return Task.CompletedTask; }));
        Assert.False(hubReached);
        Assert.Equal("backplane unavailable: Redis at 127.0.0.1:6390 does not answer (SocketClosed)", refused.Message);
        // Its close cannot unsubscribe either, and says nothing more.
        await manager.OnDisconnectedAsync(connection);
    }

    [Fact]
    public async Task AConnectionRedisTookReachesTheHub()
    {
        var (health, _, _) = NewHealth();
        var manager = new BackplaneLifetimeManager<Hub>(new RedisAway(new RedisConnectionException(ConnectionFailureType.SocketClosed, "x")), health);
        var connection = NewConnection();
        var hubReached = false;
        await new BackplaneGate().OnConnectedAsync(
            new HubLifetimeContext(new Context(connection), new ServiceCollection().BuildServiceProvider(), new SomeHub()),
            _ => { hubReached = true; return Task.CompletedTask; });
        Assert.True(hubReached);
        // An echo to a connection of this instance needs no Redis.
        await manager.SendConnectionAsync("connection-1", "Measure", [1L, "x"]);
        Assert.Null(health.Reason());
    }

    [Fact]
    public async Task SendsThroughRedisFailWithAHubExceptionSayingBackplaneUnavailable()
    {
        var (health, _, _) = NewHealth();
        var manager = new BackplaneLifetimeManager<Hub>(new RedisAway(new RedisTimeoutException("Timeout awaiting response, command=PUBLISH", CommandStatus.Sent)), health);
        Func<Task>[] sends =
        [
            () => manager.SendAllAsync("Measure", [1L, "x"]),
            () => manager.SendGroupAsync("g", "Measure", [1L, "x"]),
            () => manager.SendConnectionsAsync(["elsewhere"], "Measure", [1L, "x"]),
            () => manager.AddToGroupAsync("elsewhere", "g"),
        ];
        foreach (var send in sends)
        {
            var error = await Assert.ThrowsAsync<HubException>(send);
            Assert.Equal("backplane unavailable: Redis at 127.0.0.1:6390 does not answer (no reply within 5 s)", error.Message);
        }
    }

    [Fact]
    public async Task OtherErrorsPassThroughUntouched()
    {
        var (health, _, _) = NewHealth();
        var manager = new BackplaneLifetimeManager<Hub>(new RedisAway(new InvalidOperationException("a bug")), health);
        await Assert.ThrowsAsync<InvalidOperationException>(() => manager.SendAllAsync("Measure", [1L, "x"]));
        await Assert.ThrowsAsync<InvalidOperationException>(() => manager.OnConnectedAsync(NewConnection()));
        Assert.Null(health.Reason());
    }
}
