using Microsoft.AspNetCore.Authorization;
using Microsoft.AspNetCore.SignalR;

namespace HubSample;

/// <summary>
/// Hubs of the shapes real services have, for this tool's tests of hub profiles (the tool drives
/// a hub's own methods through a profile, profiles/ in the repository), mapped only with
/// <c>--EnableTestHubs true</c>. None of them knows the benchmark.
/// </summary>
/// <remarks>
/// The chat hub of the ASP.NET Core SignalR tutorial, with rooms, and a greeting: every new
/// connection gets its own <c>ReceiveMessage("server", "welcome")</c>, a message on the profile's
/// receive method that is not the tool's (counted apart, never as an arrival).
/// </remarks>
public class ChatHub : Hub
{
    public const string ReceiveMethod = "ReceiveMessage";

    public override async Task OnConnectedAsync()
    {
        await Clients.Caller.SendAsync(ReceiveMethod, "server", "welcome");
        await base.OnConnectedAsync();
    }

    public virtual Task SendMessage(string user, string message) =>
        Clients.All.SendAsync(ReceiveMethod, user, message);

    public virtual Task SendMessageToOthers(string user, string message) =>
        Clients.Others.SendAsync(ReceiveMethod, user, message);

    public Task JoinRoom(string room) => Groups.AddToGroupAsync(Context.ConnectionId, room);

    public Task LeaveRoom(string room) => Groups.RemoveFromGroupAsync(Context.ConnectionId, room);

    public virtual Task SendToRoom(string room, string user, string message) =>
        Clients.Group(room).SendAsync(ReceiveMethod, user, message);
}

/// <summary>
/// The chat hub behind <c>[Authorize]</c> (mapped only with <c>--RequireAuth true</c>), as a
/// deployed chat is: a message may only be sent in the caller's own name, the user its token
/// names (its <c>sub</c>), so a profile passes <c>{user}</c>.
/// </summary>
[Authorize]
public sealed class AuthorizedChatHub : ChatHub
{
    public override Task SendMessage(string user, string message)
    {
        var caller = Context.User?.FindFirst("sub")?.Value;
        if (caller != user) throw new HubException($"You may send as yourself ({caller ?? "nobody"}) only, not as {user}.");
        return base.SendMessage(user, message);
    }
}

/// <summary>A request/response hub: the method answers the caller with its return value, and sends nothing.</summary>
public sealed class RequestResponseHub : Hub
{
    public string Echo(string message) => message;
}
