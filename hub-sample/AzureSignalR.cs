using Microsoft.AspNetCore.SignalR;
using Microsoft.Azure.SignalR;

namespace HubSample;

/// <summary>
/// <c>--Azure:SignalR:ConnectionString</c> (or the usual <c>Azure__SignalR__ConnectionString</c>
/// variable): the hubs run through Azure SignalR Service, the service whose tiers the guide's
/// tables describe. Clients then negotiate with this app, which answers with a redirect
/// (<c>{ url, accessToken }</c>) to the service; the service holds the client connections and
/// this app keeps a few server connections to it, over which every hub call and delivery goes.
/// Settings of the transport (TransportMaxBufferSize, the transports list) are the service's then.
/// </summary>
public static class AzureSignalR
{
    public const string ConfigKey = "Azure:SignalR:ConnectionString";
    public const string EnvironmentVariable = "Azure__SignalR__ConnectionString";

    /// <summary>Server connections opened to the service per hub at start (the service's
    /// default, 5, written out: the benchmark's figures depend on it).</summary>
    public const int InitialHubServerConnections = 5;

    /// <summary>The connection string given on the command line (or HUBSAMPLE_ variables), else
    /// the usual environment variable; null when neither is set.</summary>
    public static string? ConnectionString(IConfiguration given, Func<string, string?> environment) =>
        given[ConfigKey] is { Length: > 0 } text ? text
        : environment(EnvironmentVariable) is { Length: > 0 } variable ? variable
        : null;

    /// <summary>What is wrong with a connection string, said without quoting it (it holds a key).</summary>
    public static string? Problem(string connectionString)
    {
        var parts = connectionString.Split(';', StringSplitOptions.RemoveEmptyEntries | StringSplitOptions.TrimEntries)
            .Select(part => part.Split('=', 2)).Where(pair => pair.Length == 2)
            .ToDictionary(pair => pair[0], pair => pair[1], StringComparer.OrdinalIgnoreCase);
        if (!parts.TryGetValue("Endpoint", out var endpoint) || !Uri.TryCreate(endpoint, UriKind.Absolute, out var uri) || uri.Scheme is not ("http" or "https"))
        {
            return "--Azure:SignalR:ConnectionString has no Endpoint=https://<name>.service.signalr.net: copy the whole connection string from the portal's Keys page or 'az signalr key list --query primaryConnectionString'.";
        }
        if (!parts.ContainsKey("AccessKey") && !parts.ContainsKey("AuthType"))
        {
            return "--Azure:SignalR:ConnectionString has neither AccessKey= nor AuthType= (for Microsoft Entra ID): copy the whole connection string from the portal's Keys page.";
        }
        return null;
    }

    /// <summary>The hubs through the service, with the server-side settings the service documents.</summary>
    public static ISignalRServerBuilder AddHubSampleAzureSignalR(this ISignalRServerBuilder signalR, string connectionString, HubSettings settings) =>
        signalR.AddAzureSignalR(options =>
        {
            options.ConnectionString = connectionString;
            options.InitialHubServerConnectionCount = InitialHubServerConnections;
            options.AllowStatefulReconnects = settings.AllowStatefulReconnects;
            // Clients keep their connections while this app restarts: they move to another server.
            options.GracefulShutdown.Mode = GracefulShutdownMode.MigrateClients;
        });
}
