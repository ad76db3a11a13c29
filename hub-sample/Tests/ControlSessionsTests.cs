using HubSample;

namespace HubSample.Tests;

public class ControlSessionsTests
{
    private static ControlSessions Sessions(int maxSessions = 100, int maxAgents = 256) =>
        new(new HubSettings { MaxControlSessions = maxSessions, MaxAgentsPerSession = maxAgents });

    [Fact]
    public void AnAgentJoinsWithTheCodeAndReachesOnlyItsDashboard()
    {
        var sessions = Sessions();
        var code = sessions.Open("dash-1");
        var other = sessions.Open("dash-2");
        Assert.Matches("^[A-Z2-9]{10}$", code);
        Assert.NotEqual(code, other);
        Assert.Equal("dash-1", sessions.Join(code.ToLowerInvariant(), "agent-1"));
        Assert.Equal("dash-1", sessions.DashboardOf("agent-1"));
        sessions.CheckLeads("dash-1", "agent-1");
        var refused = Assert.Throws<ControlException>(() => sessions.CheckLeads("dash-2", "agent-1"));
        Assert.Contains("not in this session", refused.Message);
    }

    [Fact]
    public void AWrongCodeSaysWhatToCheck()
    {
        var refused = Assert.Throws<ControlException>(() => Sessions().Join("NOPE", "agent-1"));
        Assert.Contains("No session 'NOPE'", refused.Message);
        Assert.Contains("check the code", refused.Message);
    }

    [Fact]
    public void AConnectionThatJoinedNothingCannotSendToADashboard()
    {
        var sessions = Sessions();
        sessions.Open("dash-1");
        Assert.Throws<ControlException>(() => sessions.DashboardOf("stranger"));
        Assert.Throws<ControlException>(() => sessions.CheckLeads("stranger", "dash-1"));
    }

    [Fact]
    public void AnAgentLeavingTellsItsDashboard()
    {
        var sessions = Sessions();
        var code = sessions.Open("dash-1");
        sessions.Join(code, "agent-1");
        var (dashboard, agents) = sessions.Leave("agent-1");
        Assert.Equal("dash-1", dashboard);
        Assert.Empty(agents);
        Assert.Throws<ControlException>(() => sessions.CheckLeads("dash-1", "agent-1"));
    }

    [Fact]
    public void TheDashboardLeavingClosesTheSessionForEveryAgent()
    {
        var sessions = Sessions();
        var code = sessions.Open("dash-1");
        sessions.Join(code, "agent-1");
        sessions.Join(code, "agent-2");
        var (dashboard, agents) = sessions.Leave("dash-1");
        Assert.Null(dashboard);
        Assert.Equal(["agent-1", "agent-2"], agents.Order());
        Assert.Throws<ControlException>(() => sessions.DashboardOf("agent-1"));
        Assert.Throws<ControlException>(() => sessions.Join(code, "agent-3"));
    }

    [Fact]
    public void SessionsAndAgentsAreBounded()
    {
        var sessions = Sessions(maxSessions: 1, maxAgents: 1);
        var code = sessions.Open("dash-1");
        Assert.Contains("MaxControlSessions", Assert.Throws<ControlException>(() => sessions.Open("dash-2")).Message);
        sessions.Join(code, "agent-1");
        Assert.Contains("MaxAgentsPerSession", Assert.Throws<ControlException>(() => sessions.Join(code, "agent-2")).Message);
        Assert.Throws<ControlException>(() => sessions.Open("dash-1"));
    }

    [Fact]
    public void ALeadCanChooseItsCodeInAdvanceAndAgentsJoinWithIt()
    {
        var sessions = Sessions();
        Assert.Equal("K7QW2MZP9RTX", sessions.Open("lead-1", "K7QW2MZP9RTX"));
        Assert.Equal("lead-1", sessions.Join("k7qw2mzp9rtx", "agent-1"));
        // Whoever holds the code leads: a second lead with it is refused, not made a member.
        var taken = Assert.Throws<ControlException>(() => sessions.Open("lead-2", "K7QW2MZP9RTX"));
        Assert.Contains("already open", taken.Message);
        Assert.False(sessions.IsMember("lead-2"));
    }

    [Theory]
    [InlineData("SHORT2345")]
    [InlineData("ABCDEFGHJKLMNPQRSTUVWXYZ23456789A")]
    [InlineData("abcdefghjk")]
    [InlineData("ABCDEFGHI0")]
    [InlineData("AAAAAAAAAAAA")]
    [InlineData("ABABABABABAB")]
    [InlineData("")]
    public void AChosenCodeThatIsShortLongOutsideTheAlphabetOrRepetitiveIsRefused(string code)
    {
        var sessions = Sessions();
        var refused = Assert.Throws<ControlException>(() => sessions.Open("lead-1", code));
        Assert.Contains("random", refused.Message);
        Assert.Equal(0, sessions.Members);
    }

    [Fact]
    public void AChosenCodeCountsAgainstMaxControlSessions()
    {
        var sessions = Sessions(maxSessions: 1);
        sessions.Open("dash-1");
        var full = Assert.Throws<ControlException>(() => sessions.Open("lead-1", "K7QW2MZP9RTX"));
        Assert.Contains("MaxControlSessions", full.Message);
    }
}
