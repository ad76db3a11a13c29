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

    [Theory]
    [InlineData("127.0.0.1:6379,bogus=1", "--Redis is not a StackExchange.Redis configuration (Keyword 'bogus' is not supported")]
    [InlineData(",", "--Redis names no Redis server")]
    public void ABadRedisConfigurationIsRefusedWithAnExample(string configuration, string expected)
    {
        var problem = Assert.Single(Read(("Redis", configuration)).Problems);
        Assert.StartsWith(expected, problem);
        Assert.Contains("--Redis 127.0.0.1:6379", problem);
    }

    [Fact]
    public void ARedisPasswordIsNeverQuotedInTheProblemNorTheDescription()
    {
        var problem = Assert.Single(Read(("Redis", "127.0.0.1:6379,password=s3cret-value,bogus=1")).Problems);
        Assert.DoesNotContain("s3cret-value", problem);
        var (options, none) = RedisBackplane.Parse("127.0.0.1:6390,password=s3cret-value");
        Assert.Null(none);
        Assert.Equal("127.0.0.1:6390", RedisBackplane.Describe(options!));
    }

    [Fact]
    public void TheInstanceNameDefaultsToTheMachineAndPort()
    {
        var (settings, problems) = Read(("Port", "6123"));
        Assert.Empty(problems);
        Assert.EndsWith(":6123", settings.InstanceNameOrDefault());
        Assert.Equal("hub-1", Read(("InstanceName", "hub-1")).Settings.InstanceNameOrDefault());
        Assert.Contains("--InstanceName", Assert.Single(Read(("InstanceName", new string('x', 101))).Problems));
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
