using Microsoft.AspNetCore.SignalR;

namespace HubSample;

/// <summary>
/// The hub contract of the Azure SignalR benchmark's app server (BenchHub at /signalrbench):
/// every delivery is the client method <c>Measure(long ts, string payload)</c>, where <c>ts</c> is
/// the sender's timestamp (microseconds since the Unix epoch) passed through untouched.
/// Each method is one line that returns its Task, so the hub adds as little as possible to latency.
/// </summary>
public sealed class BenchHub : Hub
{
    public const string DeliveryMethod = "Measure";

    public Task Echo(long ts, string payload) =>
        Clients.Caller.SendAsync(DeliveryMethod, ts, payload);

    public Task Broadcast(long ts, string payload) =>
        Clients.All.SendAsync(DeliveryMethod, ts, payload);

    public Task GroupBroadcast(string group, long ts, string payload) =>
        Clients.Group(group).SendAsync(DeliveryMethod, ts, payload);

    public Task SendToConnection(string connectionId, long ts, string payload) =>
        Clients.Client(connectionId).SendAsync(DeliveryMethod, ts, payload);

    public Task JoinGroup(string group) =>
        Groups.AddToGroupAsync(Context.ConnectionId, group);

    public Task LeaveGroup(string group) =>
        Groups.RemoveFromGroupAsync(Context.ConnectionId, group);
}
