using Microsoft.AspNetCore.SignalR;
using Microsoft.AspNetCore.SignalR.Protocol;
using Microsoft.AspNetCore.SignalR.StackExchangeRedis;

namespace HubSample;

/// <summary>
/// Microsoft's Redis backplane (<c>RedisHubLifetimeManager</c>) with its Redis failures turned
/// into words a client can read. Left alone, a connection that opens while Redis is away fails in
/// the lifetime manager's OnConnectedAsync, before any hub filter, and the socket closes with 1011
/// and no reason; a hub call that sends through Redis fails as "An unexpected error occurred".
/// Here every such failure becomes a <see cref="HubException"/> whose message starts with
/// "backplane unavailable" (<see cref="BackplaneHealth.Reason"/>): SignalR passes a HubException's
/// message to the client even with detailed errors off.
/// <para>
/// A refused connection is marked and let through to <see cref="BackplaneGate"/>, which throws
/// from the hub's OnConnectedAsync: only there does SignalR send a close message with the error
/// before it closes. Sends that stay on this instance (an echo to the caller) never touch Redis
/// and keep working.
/// </para>
/// </summary>
public sealed class BackplaneLifetimeManager<THub> : HubLifetimeManager<THub>
    where THub : Hub
{
    private readonly HubLifetimeManager<THub> redis;
    private readonly BackplaneHealth health;

    /// <summary>What DI builds: Microsoft's Redis lifetime manager of the same hub behind this one.</summary>
    public BackplaneLifetimeManager(RedisHubLifetimeManager<THub> redis, BackplaneHealth health) : this((HubLifetimeManager<THub>)redis, health)
    {
    }

    /// <summary>For tests, any lifetime manager behind it.</summary>
    internal BackplaneLifetimeManager(HubLifetimeManager<THub> redis, BackplaneHealth health)
    {
        this.redis = redis;
        this.health = health;
    }

    public override async Task OnConnectedAsync(HubConnectionContext connection)
    {
        try
        {
            await redis.OnConnectedAsync(connection);
        }
        catch (Exception error) when (BackplaneHealth.IsRedisFailure(error))
        {
            connection.Items[BackplaneGate.RefusedKey] = health.Failed(error);
        }
    }

    public override async Task OnDisconnectedAsync(HubConnectionContext connection)
    {
        try
        {
            await redis.OnDisconnectedAsync(connection);
        }
        catch (Exception error) when (BackplaneHealth.IsRedisFailure(error) || connection.Items.ContainsKey(BackplaneGate.RefusedKey))
        {
            // Its unsubscribe could not reach Redis (StackExchange.Redis forgets the subscription
            // here all the same), or it never subscribed. Thrown on, it would be logged with a
            // stack trace for every connection that closes while Redis is away.
        }
    }

    public override Task SendAllAsync(string methodName, object?[] args, CancellationToken cancellationToken = default) =>
        Guarded(redis.SendAllAsync(methodName, args, cancellationToken));

    public override Task SendAllExceptAsync(string methodName, object?[] args, IReadOnlyList<string> excludedConnectionIds, CancellationToken cancellationToken = default) =>
        Guarded(redis.SendAllExceptAsync(methodName, args, excludedConnectionIds, cancellationToken));

    public override Task SendConnectionAsync(string connectionId, string methodName, object?[] args, CancellationToken cancellationToken = default) =>
        Guarded(redis.SendConnectionAsync(connectionId, methodName, args, cancellationToken));

    public override Task SendConnectionsAsync(IReadOnlyList<string> connectionIds, string methodName, object?[] args, CancellationToken cancellationToken = default) =>
        Guarded(redis.SendConnectionsAsync(connectionIds, methodName, args, cancellationToken));

    public override Task SendGroupAsync(string groupName, string methodName, object?[] args, CancellationToken cancellationToken = default) =>
        Guarded(redis.SendGroupAsync(groupName, methodName, args, cancellationToken));

    public override Task SendGroupsAsync(IReadOnlyList<string> groupNames, string methodName, object?[] args, CancellationToken cancellationToken = default) =>
        Guarded(redis.SendGroupsAsync(groupNames, methodName, args, cancellationToken));

    public override Task SendGroupExceptAsync(string groupName, string methodName, object?[] args, IReadOnlyList<string> excludedConnectionIds, CancellationToken cancellationToken = default) =>
        Guarded(redis.SendGroupExceptAsync(groupName, methodName, args, excludedConnectionIds, cancellationToken));

    public override Task SendUserAsync(string userId, string methodName, object?[] args, CancellationToken cancellationToken = default) =>
        Guarded(redis.SendUserAsync(userId, methodName, args, cancellationToken));

    public override Task SendUsersAsync(IReadOnlyList<string> userIds, string methodName, object?[] args, CancellationToken cancellationToken = default) =>
        Guarded(redis.SendUsersAsync(userIds, methodName, args, cancellationToken));

    public override Task AddToGroupAsync(string connectionId, string groupName, CancellationToken cancellationToken = default) =>
        Guarded(redis.AddToGroupAsync(connectionId, groupName, cancellationToken));

    public override Task RemoveFromGroupAsync(string connectionId, string groupName, CancellationToken cancellationToken = default) =>
        Guarded(redis.RemoveFromGroupAsync(connectionId, groupName, cancellationToken));

    public override async Task<T> InvokeConnectionAsync<T>(string connectionId, string methodName, object?[] args, CancellationToken cancellationToken)
    {
        try
        {
            return await redis.InvokeConnectionAsync<T>(connectionId, methodName, args, cancellationToken);
        }
        catch (Exception error) when (BackplaneHealth.IsRedisFailure(error))
        {
            throw new HubException(health.Failed(error));
        }
    }

    public override Task SetConnectionResultAsync(string connectionId, CompletionMessage result) =>
        Guarded(redis.SetConnectionResultAsync(connectionId, result));

    public override bool TryGetReturnType(string invocationId, [System.Diagnostics.CodeAnalysis.NotNullWhen(true)] out Type? type) =>
        redis.TryGetReturnType(invocationId, out type);

    /// <summary>A send that completed at once (an echo to a connection of this instance) goes
    /// straight back: no extra state machine on the hot path.</summary>
    private Task Guarded(Task sending) => sending.IsCompletedSuccessfully ? sending : Awaited(sending);

    private async Task Awaited(Task sending)
    {
        try
        {
            await sending;
        }
        catch (Exception error) when (BackplaneHealth.IsRedisFailure(error))
        {
            throw new HubException(health.Failed(error));
        }
        health.Answered();
    }
}

/// <summary>
/// Refuses, with the backplane's reason, a connection that <see cref="BackplaneLifetimeManager{THub}"/>
/// could not subscribe through Redis. Throwing from a hub filter's OnConnectedAsync is what makes
/// SignalR send the client a close message carrying the HubException's message ("Connection closed
/// with an error. HubException: backplane unavailable: ..."), then close the socket normally.
/// Registered before <see cref="HubCounters"/>, so a refused connection is never counted as open.
/// </summary>
public sealed class BackplaneGate : IHubFilter
{
    /// <summary>Key in the connection's Items of the reason it was refused.</summary>
    public static readonly object RefusedKey = new();

    public Task OnConnectedAsync(HubLifetimeContext context, Func<HubLifetimeContext, Task> next) =>
        context.Context.Items.TryGetValue(RefusedKey, out var reason) ? throw new HubException((string)reason!) : next(context);
}
