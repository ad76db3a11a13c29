using HubSample;
using Microsoft.Extensions.Configuration;

namespace HubSample.Tests;

public class SettingsCheckTests
{
    private static (HubSettings Settings, List<string> Problems) Read(params (string Key, string Value)[] given) =>
        SettingsCheck.Read(new ConfigurationBuilder()
            .AddInMemoryCollection(given.Select(g => new KeyValuePair<string, string?>(g.Key, g.Value)))
            .Build());

    [Fact]
    public void TheDefaultsAreValid()
    {
        var (settings, problems) = Read();
        Assert.Empty(problems);
        Assert.Equal(5180, settings.Port);
        Assert.Equal(64 * 1024, settings.MaxControlMessageBytes);
    }

    [Fact]
    public void NamesAreCaseInsensitiveAsOnTheCommandLineAndInVariables()
    {
        var (settings, problems) = Read(("port", "6000"), ("httpsport", "6001"), ("CORSORIGINS", "https://a.example,http://b.example:8080"), ("enabletesthubs", "True"));
        Assert.Empty(problems);
        Assert.Equal(6000, settings.Port);
        Assert.Equal(6001, settings.HttpsPort);
        Assert.True(settings.EnableTestHubs);
    }

    [Fact]
    public void AnEmptyCorsListIsAllowed() => Assert.Empty(Read(("CorsOrigins", "")).Problems);

    [Theory]
    [InlineData("MaxGroupsPerConnection", "0", "--MaxGroupsPerConnection is '0', but must be a whole number from 1 to 100000")]
    [InlineData("ControlJoinSeconds", "99999", "--ControlJoinSeconds is '99999', but must be a whole number from 1 to 3600 seconds")]
    [InlineData("HttpsPort", "", "--HttpsPort is '', but must be a whole number from 0 to 65535")]
    [InlineData("Port", "80.5", "--port is '80.5', but must be a whole number")]
    [InlineData("a:b", "1", "--a is not a setting of this hub")]
    public void EachProblemIsOneLineThatNamesTheSetting(string key, string value, string expected)
    {
        var problem = Assert.Single(Read((key, value)).Problems);
        Assert.StartsWith(expected, problem);
        Assert.DoesNotContain('\n', problem);
    }
}
