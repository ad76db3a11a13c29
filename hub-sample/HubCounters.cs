using System.Collections.Concurrent;
using System.Diagnostics.Metrics;
using Microsoft.AspNetCore.SignalR;

namespace HubSample;

/// <summary>
/// The hub's own figures on the <c>HubSample</c> meter, exported at /metrics (see
/// <see cref="HubMetrics"/>): calls and deliveries per <see cref="BenchHub"/> method, and the
/// connections to /signalrbench alone (ASP.NET Core's <c>signalr.server.active_connections</c>
/// also counts /control, which every dashboard holds). A delivery is one <c>Measure</c> message
/// the hub hands to one connection: an echo makes one, a broadcast one per connection, a group
/// message one per member. Counted when the call returns, from the connections and groups the
/// hub knows at that moment, so they equal what clients receive when nothing is lost on the way.
/// </summary>
public sealed class HubCounters : IHubFilter
{
    public const string MeterName = "HubSample";
    private const string GroupsKey = "live-bench:metrics-groups";

    private readonly Counter<long> _invocations;
    private readonly Counter<long> _deliveries;
    private readonly ConcurrentDictionary<string, byte> _connections = new(StringComparer.Ordinal);
    /// <summary>Kept beside the dictionary: its Count takes every lock, and broadcasts read it.</summary>
    private int _connectionCount;
    /// <summary>Members per group; changed only under the lock (joins and leaves are rare next to sends).</summary>
    private readonly ConcurrentDictionary<string, int> _groupSizes = new(StringComparer.Ordinal);
    private readonly object _groupsLock = new();

    public HubCounters(IMeterFactory meters)
    {
        var meter = meters.Create(MeterName);
        _invocations = meter.CreateCounter<long>("hubsample.hub.invocations", "{invocation}", "Calls of the benchmark hub's methods, refused ones included.");
        _deliveries = meter.CreateCounter<long>("hubsample.hub.deliveries", "{message}", "Measure messages handed to connections, one per receiving connection.");
        meter.CreateObservableUpDownCounter("hubsample.hub.connections", () => Volatile.Read(ref _connectionCount), "{connection}", "Connections to the benchmark hub (/signalrbench) open now.");
        // A counter is exported from its first measurement on: start every method at 0, so a
        // scrape before the first call reads 0 (a baseline), not nothing (unknown).
        string[] sending = [nameof(BenchHub.Echo), nameof(BenchHub.Broadcast), nameof(BenchHub.GroupBroadcast), nameof(BenchHub.SendToConnection)];
        foreach (var name in sending.Concat([nameof(BenchHub.JoinGroup), nameof(BenchHub.LeaveGroup)]))
        {
            var method = new KeyValuePair<string, object?>("method", name);
            _invocations.Add(0, method);
            if (sending.Contains(name)) _deliveries.Add(0, method);
        }
    }

    public ValueTask<object?> InvokeMethodAsync(HubInvocationContext invocation, Func<HubInvocationContext, ValueTask<object?>> next)
    {
        if (invocation.Hub is not BenchHub) return next(invocation);
        var method = new KeyValuePair<string, object?>("method", invocation.HubMethodName);
        _invocations.Add(1, method);
        // Fan-out is read before the call sends: that is whom the message goes to.
        var fanOut = FanOut(invocation);
        var pending = next(invocation);
        // Benchmark calls complete here almost always: no extra state machine on the hot path.
        if (!pending.IsCompletedSuccessfully) return Awaited(invocation, pending, fanOut, method);
        Completed(invocation, fanOut, method);
        return pending;
    }

    private async ValueTask<object?> Awaited(HubInvocationContext invocation, ValueTask<object?> pending, long fanOut, KeyValuePair<string, object?> method)
    {
        var result = await pending;
        Completed(invocation, fanOut, method);
        return result;
    }

    /// <summary>After a call went through (a refused one throws before this): its deliveries, and
    /// a join or leave changes its group's size.</summary>
    private void Completed(HubInvocationContext invocation, long fanOut, KeyValuePair<string, object?> method)
    {
        if (fanOut > 0) _deliveries.Add(fanOut, method);
        Membership(invocation);
    }

    public Task OnConnectedAsync(HubLifetimeContext context, Func<HubLifetimeContext, Task> next)
    {
        if (context.Hub is BenchHub && _connections.TryAdd(context.Context.ConnectionId, 0)) Interlocked.Increment(ref _connectionCount);
        return next(context);
    }

    public async Task OnDisconnectedAsync(HubLifetimeContext context, Exception? exception, Func<HubLifetimeContext, Exception?, Task> next)
    {
        await next(context, exception);
        if (context.Hub is not BenchHub) return;
        if (_connections.TryRemove(context.Context.ConnectionId, out _)) Interlocked.Decrement(ref _connectionCount);
        foreach (var group in Joined(context.Context)) Resize(group, -1);
    }

    private long FanOut(HubInvocationContext invocation) => invocation.HubMethodName switch
    {
        nameof(BenchHub.Echo) => 1,
        nameof(BenchHub.Broadcast) => Volatile.Read(ref _connectionCount),
        nameof(BenchHub.GroupBroadcast) when invocation.HubMethodArguments[0] is string group =>
            _groupSizes.TryGetValue(group, out var size) ? size : 0,
        nameof(BenchHub.SendToConnection) when invocation.HubMethodArguments[0] is string id =>
            _connections.ContainsKey(id) ? 1 : 0,
        _ => 0,
    };

    private void Membership(HubInvocationContext invocation)
    {
        if (invocation.HubMethodArguments.Count == 0 || invocation.HubMethodArguments[0] is not string group) return;
        var joined = Joined(invocation.Context);
        if (invocation.HubMethodName == nameof(BenchHub.JoinGroup) && joined.Add(group)) Resize(group, +1);
        else if (invocation.HubMethodName == nameof(BenchHub.LeaveGroup) && joined.Remove(group)) Resize(group, -1);
    }

    private void Resize(string group, int change)
    {
        lock (_groupsLock)
        {
            var size = (_groupSizes.TryGetValue(group, out var now) ? now : 0) + change;
            if (size > 0) _groupSizes[group] = size;
            else _groupSizes.TryRemove(group, out _);
        }
    }

    private static HashSet<string> Joined(HubCallerContext context)
    {
        // One connection's calls run one at a time (MaximumParallelInvocationsPerClient is 1), and
        // its disconnect comes after them, so this per-connection set needs no lock.
        if (context.Items.TryGetValue(GroupsKey, out var existing) && existing is HashSet<string> set) return set;
        var created = new HashSet<string>(StringComparer.Ordinal);
        context.Items[GroupsKey] = created;
        return created;
    }
}
