using System.Diagnostics.Metrics;
using System.Reflection;
using Microsoft.AspNetCore.SignalR;
using Microsoft.Extensions.DependencyInjection;

namespace HubSample.Tests;

/// <summary>
/// The hub's own counters: one delivery per receiving connection, from the connections and groups
/// the hub knows, and refused calls counted as calls but not deliveries.
/// </summary>
public class HubCountersTests
{
    private sealed class Caller(string id) : HubCallerContext
    {
        public override string ConnectionId => id;
        public override string? UserIdentifier => null;
        public override System.Security.Claims.ClaimsPrincipal? User => null;
        public override IDictionary<object, object?> Items { get; } = new Dictionary<object, object?>();
        public override Microsoft.AspNetCore.Http.Features.IFeatureCollection Features { get; } = new Microsoft.AspNetCore.Http.Features.FeatureCollection();
        public override CancellationToken ConnectionAborted => CancellationToken.None;
        public override void Abort() { }
    }

    /// <summary>The counters' totals per instrument and method, as a MeterListener sees them.</summary>
    private sealed class Totals : IDisposable
    {
        private readonly MeterListener _listener = new();
        private readonly Dictionary<string, long> _sums = new();

        public Totals()
        {
            _listener.InstrumentPublished = (instrument, listener) =>
            {
                if (instrument.Meter.Name == HubCounters.MeterName) listener.EnableMeasurementEvents(instrument);
            };
            _listener.SetMeasurementEventCallback<long>((instrument, value, tags, _) =>
            {
                var method = tags.ToArray().FirstOrDefault(t => t.Key == "method").Value;
                var key = $"{instrument.Name}/{method}";
                lock (_sums) _sums[key] = _sums.GetValueOrDefault(key) + value;
            });
            _listener.SetMeasurementEventCallback<int>((instrument, value, _, _) =>
            {
                lock (_sums) _sums[instrument.Name] = value;
            });
            _listener.Start();
        }

        public long Deliveries(string method) => Get($"hubsample.hub.deliveries/{method}");
        public long Invocations(string method) => Get($"hubsample.hub.invocations/{method}");

        public long Connections()
        {
            _listener.RecordObservableInstruments();
            return Get("hubsample.hub.connections");
        }

        private long Get(string key)
        {
            lock (_sums) return _sums.GetValueOrDefault(key);
        }

        public void Dispose() => _listener.Dispose();
    }

    private readonly ServiceProvider _services = new ServiceCollection().AddMetrics().BuildServiceProvider();
    private readonly GroupLimits _limits = new(new HubSettings { MaxGroupsPerConnection = 2 });

    private static readonly ValueTask<object?> Done = ValueTask.FromResult<object?>(null);

    private async Task Call(HubCounters counters, Caller caller, string method, params object?[] args)
    {
        var hub = NewHub();
        var invocation = new HubInvocationContext(caller, _services, hub, typeof(BenchHub).GetMethod(method, BindingFlags.Public | BindingFlags.Instance)!, args);
        // The hub's own checks run, the sends do not (no clients here): the count is what the hub knows.
        await counters.InvokeMethodAsync(invocation, context => method switch
        {
            nameof(BenchHub.JoinGroup) => Run(() => _limits.Joining(context.Context, (string)args[0]!)),
            nameof(BenchHub.GroupBroadcast) => Run(() => _limits.CheckName((string)args[0]!)),
            _ => Done,
        });
    }

    /// <summary>A hub as the app makes it, with the test-only limit and server drops off.</summary>
    private BenchHub NewHub() => new(_limits, new DeliveryLimit(new HubSettings(), TimeProvider.System), new ServerDrops(new HubSettings()));

    private static ValueTask<object?> Run(Action check)
    {
        check();
        return Done;
    }

    private async Task<Caller> Connect(HubCounters counters, string id)
    {
        var caller = new Caller(id);
        await counters.OnConnectedAsync(new HubLifetimeContext(caller, _services, NewHub()), _ => Task.CompletedTask);
        return caller;
    }

    private Task Disconnect(HubCounters counters, Caller caller) =>
        counters.OnDisconnectedAsync(new HubLifetimeContext(caller, _services, NewHub()), null, (_, _) => Task.CompletedTask);

    [Fact]
    public async Task EchoDeliversOneAndBroadcastOnePerConnection()
    {
        using var totals = new Totals();
        var counters = new HubCounters(_services.GetRequiredService<IMeterFactory>());
        var a = await Connect(counters, "a");
        await Connect(counters, "b");
        await Connect(counters, "c");
        Assert.Equal(3, totals.Connections());

        await Call(counters, a, nameof(BenchHub.Echo), 1L, "x");
        await Call(counters, a, nameof(BenchHub.Broadcast), 1L, "x");
        await Call(counters, a, nameof(BenchHub.Broadcast), 1L, "x");

        Assert.Equal(1, totals.Deliveries(nameof(BenchHub.Echo)));
        Assert.Equal(6, totals.Deliveries(nameof(BenchHub.Broadcast)));
        Assert.Equal(2, totals.Invocations(nameof(BenchHub.Broadcast)));
        await Disconnect(counters, a);
        Assert.Equal(2, totals.Connections());
    }

    [Fact]
    public async Task GroupMessagesReachTheMembersJoinedOnceEachUntilTheyLeaveOrGo()
    {
        using var totals = new Totals();
        var counters = new HubCounters(_services.GetRequiredService<IMeterFactory>());
        var a = await Connect(counters, "a");
        var b = await Connect(counters, "b");
        await Call(counters, a, nameof(BenchHub.JoinGroup), "g");
        await Call(counters, a, nameof(BenchHub.JoinGroup), "g");
        await Call(counters, b, nameof(BenchHub.JoinGroup), "g");
        await Call(counters, a, nameof(BenchHub.GroupBroadcast), "g", 1L, "x");
        Assert.Equal(2, totals.Deliveries(nameof(BenchHub.GroupBroadcast)));

        await Call(counters, b, nameof(BenchHub.LeaveGroup), "g");
        await Call(counters, a, nameof(BenchHub.GroupBroadcast), "g", 1L, "x");
        Assert.Equal(3, totals.Deliveries(nameof(BenchHub.GroupBroadcast)));

        await Disconnect(counters, a);
        await Call(counters, b, nameof(BenchHub.GroupBroadcast), "g", 1L, "x");
        Assert.Equal(3, totals.Deliveries(nameof(BenchHub.GroupBroadcast)));
    }

    [Fact]
    public async Task RefusedCallsCountAsCallsButDeliverNothing()
    {
        using var totals = new Totals();
        var counters = new HubCounters(_services.GetRequiredService<IMeterFactory>());
        var a = await Connect(counters, "a");
        await Call(counters, a, nameof(BenchHub.JoinGroup), "g1");
        await Call(counters, a, nameof(BenchHub.JoinGroup), "g2");
        // Over MaxGroupsPerConnection (2): refused, and not a member.
        await Assert.ThrowsAsync<HubException>(() => Call(counters, a, nameof(BenchHub.JoinGroup), "g3"));
        await Call(counters, a, nameof(BenchHub.GroupBroadcast), "g3", 1L, "x");
        await Assert.ThrowsAsync<HubException>(() => Call(counters, a, nameof(BenchHub.GroupBroadcast), new string('n', 500), 1L, "x"));
        await Call(counters, a, nameof(BenchHub.SendToConnection), "nobody", 1L, "x");

        Assert.Equal(3, totals.Invocations(nameof(BenchHub.JoinGroup)));
        Assert.Equal(2, totals.Invocations(nameof(BenchHub.GroupBroadcast)));
        Assert.Equal(0, totals.Deliveries(nameof(BenchHub.GroupBroadcast)));
        Assert.Equal(0, totals.Deliveries(nameof(BenchHub.SendToConnection)));
    }
}
