namespace HubSample.Tests;

public class HubHelpTests
{
    [Fact]
    public void HelpListsEverySettingWithItsDefault()
    {
        var help = HubHelp.Text();
        foreach (var property in typeof(HubSettings).GetProperties().Where(p => p.CanWrite))
        {
            var flag = property.Name is "Host" or "Port" ? $"--{property.Name.ToLowerInvariant()} " : $"--{property.Name} ";
            Assert.Contains(flag, help);
        }
        Assert.Contains("--port <0-65535>", help);
        Assert.Matches(@"--port <0-65535>\s+5180", help);
        Assert.Matches(@"--EnableServerDrops true\|false\s+false", help);
    }

    [Fact]
    public void HelpAndVersionAreAskedForAnywhereOnTheLine()
    {
        Assert.Equal(HubHelp.Text(), HubHelp.Asked(["--port", "6000", "--help"]));
        Assert.Equal($"signalr-bench-hub {HubHelp.Version}", HubHelp.Asked(["--version"]));
        Assert.Null(HubHelp.Asked(["--port", "6000"]));
    }

    [Fact]
    public void VersionIsTheProjectsWithoutACommit()
    {
        Assert.Matches(@"^\d+\.\d+\.\d+$", HubHelp.Version);
        Assert.StartsWith($"SignalR Live Bench hub-sample {HubHelp.Version} (.NET ", HubHelp.StartLine());
    }
}
