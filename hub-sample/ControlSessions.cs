using System.Security.Cryptography;

namespace HubSample;

/// <summary>
/// Who is in which run session on the control hub. A dashboard opens a session and gets a code;
/// agents join with that code. The code is the only key to a session, so it is random (50 bits)
/// and a party can only ever address the members of its own session. Plain data behind one lock:
/// the control hub carries a few messages a second per agent, nothing that needs more.
/// </summary>
public sealed class ControlSessions(HubSettings settings)
{
    private const string CodeAlphabet = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789";
    private readonly object _lock = new();
    private readonly Dictionary<string, Session> _sessions = new();
    private readonly Dictionary<string, string> _sessionOf = new();

    private sealed class Session(string dashboardId)
    {
        public string DashboardId { get; } = dashboardId;
        public HashSet<string> Agents { get; } = new();
    }

    /// <summary>Shortest and longest code a lead may choose (<see cref="Open"/> with a code): at least
    /// as many characters of <see cref="CodeAlphabet"/> as the hub's own codes, so one chosen at
    /// random is as hard to guess (50 bits), and bounded.</summary>
    public const int MinChosenCodeLength = 10;
    public const int MaxChosenCodeLength = 32;

    /// <summary>Why <paramref name="code"/> cannot be a chosen session code; null when it can.</summary>
    public static string? ChosenCodeProblem(string? code)
    {
        if (string.IsNullOrEmpty(code) || code.Length < MinChosenCodeLength || code.Length > MaxChosenCodeLength || !code.All(c => CodeAlphabet.Contains(c)))
        {
            return $"A chosen session code must be {MinChosenCodeLength} to {MaxChosenCodeLength} characters of {CodeAlphabet} (no I, O, 0 or 1), chosen at random, e.g. `tr -dc {CodeAlphabet} </dev/urandom | head -c 16`.";
        }
        // A code of a few repeated characters (AAAAAAAAAA, ABABABABAB) comes from no random draw.
        if (code.Distinct().Count() < MinChosenCodeLength / 2)
        {
            return $"The chosen session code repeats too few characters ({code.Distinct().Count()} distinct) to be unguessable: choose it at random, e.g. `tr -dc {CodeAlphabet} </dev/urandom | head -c 16`.";
        }
        return null;
    }

    /// <summary>Opens a session led by <paramref name="dashboardId"/>; returns its code: a new random
    /// one, or <paramref name="chosenCode"/> (checked by <see cref="ChosenCodeProblem"/>) when a lead
    /// chose it in advance so its agents could be started first.</summary>
    public string Open(string dashboardId, string? chosenCode = null)
    {
        lock (_lock)
        {
            if (_sessionOf.ContainsKey(dashboardId))
            {
                throw new ControlException("This connection is already in a session; open a new connection for another one.");
            }
            if (_sessions.Count >= settings.MaxControlSessions)
            {
                throw new ControlException($"The control hub already holds {settings.MaxControlSessions} sessions (MaxControlSessions); close one or raise the setting.");
            }
            string code;
            if (chosenCode is not null)
            {
                if (ChosenCodeProblem(chosenCode) is { } problem) throw new ControlException(problem);
                // Whoever holds the code leads: a second lead with the same code is refused, never joined.
                if (_sessions.ContainsKey(chosenCode)) throw new ControlException("A session with this code is already open on this control hub: choose another code, or end the lead that holds it.");
                code = chosenCode;
            }
            else
            {
                do { code = RandomNumberGenerator.GetString(CodeAlphabet, 10); } while (_sessions.ContainsKey(code));
            }
            _sessions[code] = new Session(dashboardId);
            _sessionOf[dashboardId] = code;
            return code;
        }
    }

    /// <summary>Adds an agent to a session; returns the session's dashboard.</summary>
    public string Join(string code, string agentId)
    {
        lock (_lock)
        {
            if (string.IsNullOrEmpty(code) || !_sessions.TryGetValue(code.Trim().ToUpperInvariant(), out var session))
            {
                throw new ControlException($"No session '{RefusalLog.Printable(code, 20)}' is open on this control hub: check the code the dashboard shows, and that the dashboard is still open.");
            }
            if (_sessionOf.ContainsKey(agentId))
            {
                throw new ControlException("This connection is already in a session.");
            }
            if (session.Agents.Count >= settings.MaxAgentsPerSession)
            {
                throw new ControlException($"Session '{RefusalLog.Printable(code, 20)}' already has {settings.MaxAgentsPerSession} agents (MaxAgentsPerSession).");
            }
            session.Agents.Add(agentId);
            _sessionOf[agentId] = code.Trim().ToUpperInvariant();
            return session.DashboardId;
        }
    }

    /// <summary>The dashboard that may talk to <paramref name="agentId"/>'s session, checked: only
    /// an agent of a session gets its dashboard.</summary>
    public string DashboardOf(string agentId)
    {
        lock (_lock)
        {
            if (_sessionOf.TryGetValue(agentId, out var code) && _sessions.TryGetValue(code, out var session) && session.Agents.Contains(agentId))
            {
                return session.DashboardId;
            }
            throw new ControlException("This connection has not joined a session (JoinSession).");
        }
    }

    /// <summary>Checks that <paramref name="dashboardId"/> leads the session <paramref name="agentId"/> is in.</summary>
    public void CheckLeads(string dashboardId, string agentId)
    {
        lock (_lock)
        {
            if (!_sessionOf.TryGetValue(dashboardId, out var code) || !_sessions.TryGetValue(code, out var session) || session.DashboardId != dashboardId)
            {
                throw new ControlException("This connection leads no session (OpenSession).");
            }
            if (!session.Agents.Contains(agentId))
            {
                throw new ControlException($"Agent '{agentId}' is not in this session (it may have left).");
            }
        }
    }

    /// <summary>Connections in a session: dashboards and agents.</summary>
    public int Members
    {
        get { lock (_lock) return _sessionOf.Count; }
    }

    public bool IsMember(string connectionId)
    {
        lock (_lock) return _sessionOf.ContainsKey(connectionId);
    }

    /// <summary>Removes a connection. For a dashboard, the session closes and its agents are
    /// returned (to be told); for an agent, its dashboard is returned (to be told).</summary>
    public (string? Dashboard, IReadOnlyList<string> Agents) Leave(string connectionId)
    {
        lock (_lock)
        {
            if (!_sessionOf.Remove(connectionId, out var code) || !_sessions.TryGetValue(code, out var session))
            {
                return (null, []);
            }
            if (session.DashboardId == connectionId)
            {
                _sessions.Remove(code);
                foreach (var agent in session.Agents) _sessionOf.Remove(agent);
                return (null, session.Agents.ToList());
            }
            session.Agents.Remove(connectionId);
            return (session.DashboardId, []);
        }
    }
}

/// <summary>A refused control request: its message is meant for the person at the other end.</summary>
public sealed class ControlException(string message) : Microsoft.AspNetCore.SignalR.HubException(message);
