using Microsoft.AspNetCore.SignalR;

namespace HubSample;

/// <summary>
/// The control hub at /control: a dashboard and the agents that join its run talk through it.
/// It relays opaque JSON text between the members of one session and knows nothing of
/// benchmarks; messages are bounded by MaxControlMessageBytes (longer ones cross in pieces,
/// which the hub relays like any other text), and connections in no session by
/// <see cref="ControlOutsiders"/>.
/// Dashboard (or headless lead): <c>OpenSession()</c> → code, or <c>OpenSessionWithCode(code)</c>; <c>ToAgent(agentId, message)</c>; receives
/// <c>AgentJoined(agentId, info)</c>, <c>FromAgent(agentId, message)</c>, <c>AgentLeft(agentId)</c>.
/// Agent: <c>JoinSession(code, info)</c>; <c>ToDashboard(message)</c>; receives
/// <c>Control(message)</c> and <c>SessionClosed()</c>.
/// </summary>
public sealed class ControlHub(ControlSessions sessions) : Hub
{
    public string OpenSession() => sessions.Open(Context.ConnectionId);

    /// <summary>Opens a session with a code the lead chose in advance (the headless lead's --session),
    /// so agents can be started before it; the code is checked (ControlSessions.ChosenCodeProblem).</summary>
    public string OpenSessionWithCode(string code) => sessions.Open(Context.ConnectionId, code);

    public Task JoinSession(string code, string info) =>
        Clients.Client(sessions.Join(code, Context.ConnectionId)).SendAsync("AgentJoined", Context.ConnectionId, info);

    public Task ToAgent(string agentId, string message)
    {
        sessions.CheckLeads(Context.ConnectionId, agentId);
        return Clients.Client(agentId).SendAsync("Control", message);
    }

    public Task ToDashboard(string message) =>
        Clients.Client(sessions.DashboardOf(Context.ConnectionId)).SendAsync("FromAgent", Context.ConnectionId, message);

    public override Task OnDisconnectedAsync(Exception? exception)
    {
        var (dashboard, agents) = sessions.Leave(Context.ConnectionId);
        if (dashboard is not null) return Clients.Client(dashboard).SendAsync("AgentLeft", Context.ConnectionId);
        return agents.Count > 0 ? Clients.Clients(agents).SendAsync("SessionClosed") : Task.CompletedTask;
    }
}
