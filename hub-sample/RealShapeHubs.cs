using System.Runtime.CompilerServices;
using System.Security.Claims;
using System.Threading.Channels;
using Microsoft.AspNetCore.Authorization;
using Microsoft.AspNetCore.SignalR;

namespace HubSample;

// Hubs of the shapes public SignalR samples have, for this tool's tests of hub profiles
// (profiles/ in the repository), mapped only with --EnableTestHubs true. Each copies the shape of
// one sample nobody here wrote: the hub wraps the text, sends an object, streams, asks a client
// for a result, or delivers to users and lists of groups. None of them knows the benchmark.

/// <summary>
/// dotnet/aspnetcore's SignalRSamples <c>Chat</c> hub (and <c>UploadHub.Echo</c>): the hub wraps
/// the caller's text, so the receiver finds it inside a longer string, with a prefix
/// (<c>Send</c>, <c>Echo</c>), a suffix (<c>EchoBack</c>, as the Microsoft Learn tutorial's echo
/// does) or cut (<c>SendTruncated</c>: the text arrives altered).
/// </summary>
public sealed class WrapChatHub : Hub
{
    public Task Send(string name, string message) =>
        Clients.All.SendAsync("Send", $"{name}: {message}");

    public string Echo(string message) => "Echo: " + message;

    public Task EchoBack(string message) =>
        Clients.Caller.SendAsync("Echo", $"{message} (echo from server)");

    /// <summary>Less the message's last 10 characters (all of it when shorter).</summary>
    public Task SendTruncated(string message) =>
        Clients.Caller.SendAsync("Truncated", message[..Math.Max(0, message.Length - 10)]);
}

/// <summary>An object message: its member names are the protocol's (JSON camel-cases them:
/// <c>user</c>, <c>message</c>; MessagePack keeps <c>User</c>, <c>Message</c>).</summary>
public sealed record ChatMessage(string User, string Message);

/// <summary>
/// The Microsoft Learn chat tutorial's hub with an object instead of two strings, as many real
/// chats send: <c>ReceiveMessage</c> gets one <see cref="ChatMessage"/>, so a profile reads
/// <c>"0.message"</c> and must find it under either protocol's member name.
/// </summary>
public sealed class ObjectChatHub : Hub
{
    public Task SendMessage(string user, string message) =>
        Clients.All.SendAsync("ReceiveMessage", new ChatMessage(user, message));

    public Task SendObject(ChatMessage message) =>
        Clients.All.SendAsync("ReceiveMessage", message);
}

/// <summary>
/// dotnet/aspnetcore's SignalRSamples <c>StreamingHub</c> and <c>UploadHub</c>: streams both
/// ways. <c>StreamEcho</c> returns each item of the client's stream (bidirectional),
/// <c>Repeat</c> is a server-to-client stream of one item, <c>UploadWords</c> reads a
/// client-to-server stream and sends each item to the caller, and <c>Counter</c> (StreamingHub's)
/// yields ints, which cannot carry the tool's text.
/// </summary>
public sealed class StreamHub : Hub
{
    public ChannelReader<string> StreamEcho(ChannelReader<string> source)
    {
        var output = Channel.CreateUnbounded<string>();
        _ = Task.Run(async () =>
        {
            try
            {
                await foreach (var item in source.ReadAllAsync()) await output.Writer.WriteAsync(item);
                output.Writer.Complete();
            }
            catch (Exception error)
            {
                // The client's stream ended in an error or the connection went: the echo ends with it.
                output.Writer.TryComplete(error);
            }
        });
        return output.Reader;
    }

    public async IAsyncEnumerable<string> Repeat(string message, [EnumeratorCancellation] CancellationToken cancellationToken)
    {
        await Task.Yield();
        cancellationToken.ThrowIfCancellationRequested();
        yield return message;
    }

    public async Task UploadWords(IAsyncEnumerable<string> source)
    {
        await foreach (var item in source) await Clients.Caller.SendAsync("Word", item);
    }

    /// <summary>StreamingHub's counter: <paramref name="count"/> ints, 0 first, one every
    /// <paramref name="delayMs"/> ms (the token is the client's cancel, not an argument).</summary>
    public ChannelReader<int> Counter(int count, int delayMs, CancellationToken cancellationToken)
    {
        var output = Channel.CreateUnbounded<int>();
        _ = Task.Run(async () =>
        {
            try
            {
                for (var i = 0; i < count; i++)
                {
                    await output.Writer.WriteAsync(i, cancellationToken);
                    await Task.Delay(delayMs, cancellationToken);
                }
                output.Writer.Complete();
            }
            catch (Exception error)
            {
                output.Writer.TryComplete(error);
            }
        });
        return output.Reader;
    }
}

/// <summary>
/// Azure/azure-signalr's <c>ClientResultSample</c> hub: the hub invokes a client method and awaits
/// its answer (<c>Clients.Client(id).InvokeAsync&lt;T&gt;</c>), and returns it wrapped to the
/// caller. Awaiting a client from a hub method needs
/// <c>HubOptions.MaximumParallelInvocationsPerClient</c> above 1 (set for this hub in Program.cs).
/// </summary>
public sealed class ClientResultHub : Hub
{
    /// <summary>Calls a connection may have in flight on this hub: each waits for another
    /// connection's answer, and a run sends faster than one round trip.</summary>
    public const int MaxParallelInvocations = 32;

    public async Task<string> GetMessage(string ID)
    {
        var res = await Clients.Client(ID).InvokeAsync<string>("GetMessage", default);
        return $"From {ID}: {res}";
    }

    public async Task<string> GetMessageFromCaller()
    {
        var res = await Clients.Caller.InvokeAsync<string>("GetMessage", default);
        return $"From {Context.ConnectionId}: {res}";
    }
}

/// <summary>
/// Deliveries to lists, as a chat with rooms uses them: <c>Clients.Groups(list)</c> and
/// <c>Clients.GroupExcept(group, connection ids)</c> (the Microsoft Learn groups page's shapes).
/// </summary>
public sealed class ListHub : Hub
{
    public Task JoinGroup(string group) => Groups.AddToGroupAsync(Context.ConnectionId, group);

    public Task SendToGroups(IReadOnlyList<string> groups, string message) =>
        Clients.Groups(groups).SendAsync("ReceiveMessage", message);

    public Task SendToGroupExcept(string group, IReadOnlyList<string> excluded, string message) =>
        Clients.GroupExcept(group, excluded).SendAsync("ReceiveMessage", message);
}

/// <summary>
/// Deliveries to users behind <c>[Authorize]</c> (mapped only with <c>--RequireAuth true</c>), as
/// the Microsoft Learn page on users and groups shows: <c>Clients.User(id)</c> reaches every
/// connection whose token names that user (its <c>sub</c>, <see cref="SubjectUserIdProvider"/>).
/// </summary>
[Authorize]
public sealed class UserHub : Hub
{
    public Task SendToUser(string user, string message) =>
        Clients.User(user).SendAsync("ReceiveMessage", message);

    public Task SendToUsers(IReadOnlyList<string> users, string message) =>
        Clients.Users(users).SendAsync("ReceiveMessage", message);
}

/// <summary>
/// The user of a connection for <c>Clients.User</c>: the token's <c>nameid</c> (the claim Azure
/// SignalR Service takes the user from, for its REST API's sends to a user), else its <c>sub</c>. SignalR's default
/// reads <see cref="ClaimTypes.NameIdentifier"/>, which these tokens do not have, since
/// <see cref="HubAuthentication"/> keeps the JWT's claim names (<c>MapInboundClaims = false</c>);
/// without this every connection's user would be null and <c>Clients.User</c> would reach nobody.
/// </summary>
public sealed class SubjectUserIdProvider : IUserIdProvider
{
    public string? GetUserId(HubConnectionContext connection) =>
        connection.User?.FindFirst("nameid")?.Value ?? connection.User?.FindFirst("sub")?.Value ?? connection.User?.FindFirst(ClaimTypes.NameIdentifier)?.Value;
}
