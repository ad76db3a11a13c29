using Microsoft.AspNetCore.SignalR;

namespace HubSample;

/// <summary>
/// The hub contract of the Azure SignalR benchmark's app server (BenchHub at /signalrbench):
/// every delivery is the client method <c>Measure(long ts, string payload)</c>, where <c>ts</c> is
/// the sender's timestamp (microseconds since the Unix epoch) passed through untouched.
/// Each method returns its Task and does as little as possible, so the hub adds little to latency;
/// group methods first check the bounds of <see cref="GroupLimits"/>.
/// </summary>
public sealed class BenchHub(GroupLimits limits, ServerDrops drops) : Hub
{
    public const string DeliveryMethod = "Measure";

    public Task Echo(long ts, string payload) =>
        Clients.Caller.SendAsync(DeliveryMethod, ts, payload);

    public Task Broadcast(long ts, string payload) =>
        Clients.All.SendAsync(DeliveryMethod, ts, payload);

    public Task GroupBroadcast(string group, long ts, string payload)
    {
        limits.CheckName(group);
        return Clients.Group(group).SendAsync(DeliveryMethod, ts, payload);
    }

    public Task SendToConnection(string connectionId, long ts, string payload) =>
        Clients.Client(connectionId).SendAsync(DeliveryMethod, ts, payload);

    public Task JoinGroup(string group)
    {
        limits.Joining(Context, group);
        return Groups.AddToGroupAsync(Context.ConnectionId, group);
    }

    public Task LeaveGroup(string group)
    {
        limits.Leaving(Context, group);
        return Groups.RemoveFromGroupAsync(Context.ConnectionId, group);
    }

    /// <summary>Answers when server drops are on (see <see cref="ServerDrops"/>); refuses otherwise.</summary>
    public void DropAvailable() => drops.CheckAvailable();

    /// <summary>Aborts the caller's own connection, for reconnect benchmarks (off by default).</summary>
    public void DropMe() => drops.Drop(Context);
}
