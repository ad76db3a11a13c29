using Microsoft.AspNetCore.SignalR;

namespace HubSample;

/// <summary>
/// The hub contract of the Azure SignalR benchmark's app server (BenchHub at /signalrbench):
/// every delivery is the client method <c>Measure(long ts, string payload)</c>, where <c>ts</c> is
/// the sender's timestamp (microseconds since the Unix epoch) passed through untouched.
/// Each method returns its Task and does as little as possible, so the hub adds little to latency;
/// group methods first check the bounds of <see cref="GroupLimits"/>. Every delivery passes
/// <see cref="DeliveryLimit"/>, which lets it straight through unless a test set a limit. The
/// client proxy is taken during the call: a delayed send runs after the hub instance is gone.
/// </summary>
public sealed class BenchHub(GroupLimits limits, DeliveryLimit delivery, ServerDrops drops) : Hub
{
    public const string DeliveryMethod = "Measure";

    public Task Echo(long ts, string payload)
    {
        var caller = Clients.Caller;
        return delivery.Deliver(() => caller.SendAsync(DeliveryMethod, ts, payload));
    }

    public Task Broadcast(long ts, string payload)
    {
        var all = Clients.All;
        return delivery.Deliver(() => all.SendAsync(DeliveryMethod, ts, payload));
    }

    public Task GroupBroadcast(string group, long ts, string payload)
    {
        limits.CheckName(group);
        var members = Clients.Group(group);
        return delivery.Deliver(() => members.SendAsync(DeliveryMethod, ts, payload));
    }

    public Task SendToConnection(string connectionId, long ts, string payload)
    {
        var target = Clients.Client(connectionId);
        return delivery.Deliver(() => target.SendAsync(DeliveryMethod, ts, payload));
    }

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
