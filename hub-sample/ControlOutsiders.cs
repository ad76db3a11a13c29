using Microsoft.AspNetCore.Connections;

namespace HubSample;

/// <summary>
/// Bounds the control hub's connections that are in no session: anyone who can reach /control
/// can open one, and each may hold up to MaxControlMessageBytes of an unfinished message (plus
/// the transport's buffer) while it waits. At most <c>MaxControlOutsiders</c> of them at once
/// (more are closed as they open), and each must open or join a session within
/// <c>ControlJoinSeconds</c> or is closed. A connection middleware, so it covers connections
/// still in the SignalR handshake too. Connections left without a session when their
/// dashboard closes it are counted among outsiders but not timed out: they had joined.
/// </summary>
public sealed class ControlOutsiders(HubSettings settings, ControlSessions sessions, RefusalLog refusals)
{
    private int _open;

    public async Task Gate(ConnectionContext connection, Func<Task> next)
    {
        try
        {
            if (Interlocked.Increment(ref _open) - sessions.Members > settings.MaxControlOutsiders)
            {
                refusals.Count("a control connection over MaxControlOutsiders (closed)", connection.ConnectionId);
                connection.Abort(new ConnectionAbortedException("Too many control connections outside a session."));
                return;
            }
            await using var deadline = new Timer(_ =>
            {
                if (sessions.IsMember(connection.ConnectionId)) return;
                refusals.Count("a control connection that joined no session in time (closed)", connection.ConnectionId);
                connection.Abort(new ConnectionAbortedException("No session opened or joined in time."));
            }, null, TimeSpan.FromSeconds(settings.ControlJoinSeconds), Timeout.InfiniteTimeSpan);
            await next();
        }
        finally
        {
            Interlocked.Decrement(ref _open);
        }
    }
}
