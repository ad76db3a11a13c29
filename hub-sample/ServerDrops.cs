using Microsoft.AspNetCore.SignalR;

namespace HubSample;

/// <summary>
/// Server drops for reconnect benchmarks: a connection asks the hub to abort it (<c>DropMe</c>),
/// as a hub that falls over or a load balancer that resets would. Off unless the hub is started
/// with <c>--EnableServerDrops true</c>; when off, both methods refuse with a HubException saying
/// how to turn it on. Bounded by construction: a caller can abort only its own connection, which
/// it could close anyway, and only pages of the allowed origins reach the hub (OriginCheck).
/// </summary>
public sealed class ServerDrops(HubSettings settings)
{
    private long _dropped;

    /// <summary>Connections aborted on request since the hub started.</summary>
    public long Dropped => Interlocked.Read(ref _dropped);

    /// <summary>Throws when server drops are off: the client's probe before a run that plans one.</summary>
    public void CheckAvailable()
    {
        if (!settings.EnableServerDrops)
        {
            throw new HubException("Server drops are off on this hub. Start the hub-sample with --EnableServerDrops true, or choose a network drop.");
        }
    }

    /// <summary>
    /// Resets the HTTP connection under the caller's transport, as a crashed hub or a load balancer
    /// would: no SignalR close message, so the client reconnects by its policy (and stateful
    /// reconnect may resume). <c>Context.Abort()</c> would instead send a close that forbids
    /// reconnecting. Without an HTTP connection to reset, it falls back to that.
    /// </summary>
    public void Drop(HubCallerContext context)
    {
        CheckAvailable();
        Interlocked.Increment(ref _dropped);
        var http = context.GetHttpContext();
        if (http is not null) http.Abort();
        else context.Abort();
    }
}
