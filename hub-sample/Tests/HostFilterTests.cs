using HubSample;
using Microsoft.Extensions.Configuration;

namespace HubSample.Tests;

public class HostFilterTests
{
    private static List<string> Problems(params string[] args) => SettingsCheck.ArgumentProblems(args);

    private static (HubSettings Settings, List<string> Problems) Read(params (string Key, string Value)[] given) =>
        SettingsCheck.Read(new ConfigurationBuilder()
            .AddInMemoryCollection(given.Select(g => new KeyValuePair<string, string?>(g.Key, g.Value)))
            .Build());

    [Fact]
    public void TheDefaultIsTheListenAddressAndLoopbackNames()
    {
        var hosts = HostFilter.List(new HubSettings());
        Assert.Equal(["localhost", "127.0.0.1", "[::1]"], hosts);
        Assert.DoesNotContain("*", hosts);
    }

    [Fact]
    public void AnotherListenAddressIsAddedAndIPv6GoesInBrackets()
    {
        Assert.Contains("10.1.2.3", HostFilter.List(new HubSettings { Host = "10.1.2.3" }));
        Assert.Contains("[fd00::5]", HostFilter.List(new HubSettings { Host = "fd00::5" }));
    }

    [Fact]
    public void EveryInterfaceAddsThisMachinesNameButNeverTheWildcardAddress()
    {
        var hosts = HostFilter.List(new HubSettings { Host = "0.0.0.0" });
        Assert.Contains(System.Net.Dns.GetHostName(), hosts);
        Assert.DoesNotContain("0.0.0.0", hosts);
        Assert.Contains("127.0.0.1", hosts);
    }

    [Fact]
    public void GivenHostsReplaceTheDefaultCommaOrSemicolonSeparated()
    {
        var (settings, problems) = Read(("AllowedHosts", "bench.example; *.lab.example,localhost"));
        Assert.Empty(problems);
        Assert.Equal(["bench.example", "*.lab.example", "localhost"], HostFilter.List(settings));
    }

    [Theory]
    [InlineData("http://bench.example", "is not a host name. Write names without scheme or path")]
    [InlineData("bench.example:443", "has a port, but hosts are matched without one")]
    [InlineData("::1", "an IPv6 address goes in brackets")]
    [InlineData("bench example", "names have no spaces")]
    public void ABadHostIsOneLineSayingWhatToWrite(string given, string expected)
    {
        var problem = Assert.Single(Read(("AllowedHosts", given)).Problems);
        Assert.StartsWith("--AllowedHosts: '", problem);
        Assert.Contains(expected, problem);
        Assert.DoesNotContain('\n', problem);
    }

    [Theory]
    [InlineData("--port", "0", "--EnableServerDrops", "true")]
    [InlineData("--port=0", "--EnableServerDrops=true")]
    [InlineData("/port", "0")]
    [InlineData]
    public void WellFormedCommandLinesHaveNoShapeProblems(params string[] args) => Assert.Empty(Problems(args));

    [Fact]
    public void AValuelessLastFlagIsRefusedNotDropped()
    {
        var problem = Assert.Single(Problems("--port", "0", "--EnableServerDrops"));
        Assert.Equal("--EnableServerDrops has no value: give one after it, such as --EnableServerDrops true or --EnableServerDrops 6000 (or --EnableServerDrops=value).", problem);
    }

    [Fact]
    public void AFlagFollowedByAnotherFlagHasNoValue() =>
        Assert.StartsWith("--EnableServerDrops has no value", Assert.Single(Problems("--EnableServerDrops", "--port", "0")));

    [Theory]
    [InlineData("oops", "'oops' is not a setting nor the value of one")]
    [InlineData("-port", "'-port' is not a setting: settings start with two dashes")]
    public void StrayWordsAreRefused(string word, string expected) =>
        Assert.StartsWith(expected, Assert.Single(Problems("--port", "0", word)));
}
