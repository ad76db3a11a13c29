using HubSample;
using Microsoft.AspNetCore.SignalR;
using Microsoft.Azure.SignalR;
using Microsoft.Extensions.Configuration;
using Microsoft.Extensions.DependencyInjection;
using Microsoft.Extensions.Options;

namespace HubSample.Tests;

/// <summary>
/// The hub-sample's wiring to Azure SignalR Service, tested without the service (it cannot be
/// reached from here): the connection string is read and checked, the service's options are
/// bound, and the hubs' messages go through the service's lifetime manager.
/// </summary>
public class AzureSignalRTests
{
    private const string ConnectionString = "Endpoint=https://bench-test.service.signalr.net;AccessKey=ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnop012345=;Version=1.0;";

    private static List<string> Problems(params (string Key, string Value)[] given) =>
        SettingsCheck.Read(new ConfigurationBuilder()
            .AddInMemoryCollection(given.Select(g => new KeyValuePair<string, string?>(g.Key, g.Value)))
            .Build()).Problems;

    [Fact]
    public void TheServicesSettingNameIsAcceptedAndChecked()
    {
        Assert.Empty(Problems((AzureSignalR.ConfigKey, ConnectionString)));
        var bad = Problems((AzureSignalR.ConfigKey, "AccessKey=secret-value;Version=1.0;"));
        Assert.Contains(bad, p => p.StartsWith("--Azure:SignalR:ConnectionString has no Endpoint="));
        // The key is never echoed.
        Assert.DoesNotContain(bad, p => p.Contains("secret-value"));
        Assert.Contains(Problems(("Azure:SignalR:Misspelt", "x")), p => p.StartsWith("Of Azure's settings this hub takes only --Azure:SignalR:ConnectionString"));
    }

    [Fact]
    public void TheCommandLineWinsOverTheUsualVariable()
    {
        var given = new ConfigurationBuilder().AddInMemoryCollection([new(AzureSignalR.ConfigKey, "from-command-line")]).Build();
        var none = new ConfigurationBuilder().Build();
        string? Variable(string name) => name == "Azure__SignalR__ConnectionString" ? "from-variable" : null;
        Assert.Equal("from-command-line", AzureSignalR.ConnectionString(given, Variable));
        Assert.Equal("from-variable", AzureSignalR.ConnectionString(none, Variable));
        Assert.Null(AzureSignalR.ConnectionString(none, _ => null));
    }

    [Fact]
    public void TheServicesOptionsAreBoundAndTheHubsGoThroughIt()
    {
        var services = new ServiceCollection();
        services.AddLogging();
        services.AddSingleton<IConfiguration>(new ConfigurationBuilder().Build());
        services.AddSignalR().AddHubSampleAzureSignalR(ConnectionString, new HubSettings { AllowStatefulReconnects = false });
        using var provider = services.BuildServiceProvider();
        var options = provider.GetRequiredService<IOptions<ServiceOptions>>().Value;
        Assert.Equal(ConnectionString, options.ConnectionString);
        Assert.Equal(AzureSignalR.InitialHubServerConnections, options.InitialHubServerConnectionCount);
        Assert.False(options.AllowStatefulReconnects);
        Assert.Equal(GracefulShutdownMode.MigrateClients, options.GracefulShutdown.Mode);
        // Every send of every hub (Clients.All, groups, a connection) goes to the service.
        var lifetime = services.Last(d => d.ServiceType == typeof(HubLifetimeManager<>));
        Assert.Equal("ServiceLifetimeManager`1", lifetime.ImplementationType!.Name);
    }
}
