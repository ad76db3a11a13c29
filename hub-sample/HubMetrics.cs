using OpenTelemetry.Metrics;
using OpenTelemetry.Resources;

namespace HubSample;

/// <summary>
/// The hub's own view at <c>/metrics</c>, in the Prometheus text format, so a benchmark can tell a
/// saturated server from a saturated client. OpenTelemetry exports:
/// <list type="bullet">
/// <item>ASP.NET Core's <c>Microsoft.AspNetCore.Http.Connections</c> meter: active SignalR
/// connections, connection duration by transport and status;</item>
/// <item><c>Microsoft.AspNetCore.Server.Kestrel</c>: active and queued connections, TLS handshakes;</item>
/// <item>.NET's built-in <c>System.Runtime</c> meter (what <c>AddRuntimeInstrumentation</c> turns
/// on from .NET 9): process CPU time and memory, GC heap and pause time, thread-pool queue;</item>
/// <item>the hub's calls, deliveries and connections (<see cref="HubCounters"/>).</item>
/// </list>
/// </summary>
public static class HubMetrics
{
    public const string Path = "/metrics";

    public static IServiceCollection AddHubMetrics(this IServiceCollection services, string instanceName)
    {
        services.AddSingleton<HubCounters>();
        services.AddOpenTelemetry()
            // Several instances behind one backplane are told apart in target_info's service_instance_id.
            .ConfigureResource(resource => resource.AddService("HubSample", serviceInstanceId: instanceName))
            .WithMetrics(metrics => metrics
            .AddMeter("Microsoft.AspNetCore.Http.Connections", "Microsoft.AspNetCore.Server.Kestrel", HubCounters.MeterName)
            .AddRuntimeInstrumentation()
            // Every scrape a fresh reading: a cached answer (300 ms by default) would pair old
            // counters with the scraper's new time and skew the rates it takes from them.
            .AddPrometheusExporter(exporter => exporter.ScrapeResponseCacheDurationMilliseconds = 0));
        return services;
    }

    public static WebApplication MapHubMetrics(this WebApplication app)
    {
        // Made now, not at the first hub call, so /metrics reports 0 hub connections and calls from
        // the start rather than nothing (unknown); the meter provider first, or it would miss
        // the counters' first (zero) measurements.
        app.Services.GetRequiredService<MeterProvider>();
        app.Services.GetRequiredService<HubCounters>();
        app.MapPrometheusScrapingEndpoint(Path);
        return app;
    }
}
