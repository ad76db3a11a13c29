using HubSample;
using Microsoft.AspNetCore.SignalR;
using Microsoft.Extensions.Configuration;

namespace HubSample.Tests;

public class ServerDropsTests
{
    private static HubSettings Settings(params (string Key, string Value)[] given)
    {
        var (settings, problems) = SettingsCheck.Read(new ConfigurationBuilder()
            .AddInMemoryCollection(given.Select(g => new KeyValuePair<string, string?>(g.Key, g.Value)))
            .Build());
        Assert.Empty(problems);
        return settings;
    }

    [Fact]
    public void ServerDropsAreOffAndStatefulReconnectIsAllowedByDefault()
    {
        var settings = Settings();
        Assert.False(settings.EnableServerDrops);
        Assert.True(settings.AllowStatefulReconnects);
        Assert.Equal(100_000, settings.StatefulReconnectBufferBytes);
    }

    [Fact]
    public void WhenOffTheProbeRefusesAndSaysHowToTurnThemOn()
    {
        var drops = new ServerDrops(Settings());
        var refusal = Assert.Throws<HubException>(drops.CheckAvailable);
        Assert.Contains("--EnableServerDrops true", refusal.Message);
        Assert.Equal(0, drops.Dropped);
    }

    [Fact]
    public void WhenOnTheProbeAnswers() => new ServerDrops(Settings(("EnableServerDrops", "true"))).CheckAvailable();

    [Theory]
    [InlineData("1023")]
    [InlineData("16777217")]
    public void TheStatefulBufferIsBounded(string bytes)
    {
        var (_, problems) = SettingsCheck.Read(new ConfigurationBuilder()
            .AddInMemoryCollection([new KeyValuePair<string, string?>("StatefulReconnectBufferBytes", bytes)])
            .Build());
        Assert.Contains(problems, p => p.StartsWith($"--StatefulReconnectBufferBytes is '{bytes}', but must be a whole number from 1024 to 16777216 bytes per stateful connection"));
    }
}
