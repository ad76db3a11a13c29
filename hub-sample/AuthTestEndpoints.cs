using System.Collections.Concurrent;

namespace HubSample;

/// <summary>
/// For this tool's own tests of pointing it at a deployment, mapped only with
/// <c>--EnableTestHubs true</c>: what the bench hub's requests carried (the probe header and query
/// parameter and the endpoint's <c>code</c>, per kind of request), a token endpoint, and a negotiate that redirects the client
/// to the JWT-protected bench hub with a token, as Azure SignalR Service's negotiate does, a
/// hub that refuses its WebSocket upgrades, and one that refuses those that did not negotiate.
/// </summary>
public sealed class SeenRequests
{
    public const string ProbeHeader = "X-Bench-Probe";
    public const string ProbeQuery = "probe";
    public const string EndpointSecretQuery = "code";

    /// <summary>Most requests remembered: a test needs a handful, a load test must not grow this.</summary>
    private const int MaxKept = 1_000;

    private readonly ConcurrentQueue<object> _seen = new();

    public void Record(HttpRequest request)
    {
        if (_seen.Count >= MaxKept) return;
        var kind = request.Path.Value?.EndsWith("/negotiate", StringComparison.Ordinal) == true ? "negotiate"
            : request.Headers.Upgrade.ToString().Equals("websocket", StringComparison.OrdinalIgnoreCase) ? "websocket"
            : "other";
        _seen.Enqueue(new
        {
            kind,
            header = request.Headers[ProbeHeader].ToString(),
            query = request.Query[ProbeQuery].ToString(),
            // Azure Functions' key in the endpoint's own query, which the tool sends and never keeps.
            code = request.Query[EndpointSecretQuery].ToString(),
            // The token's user when it was valid, and whether a token came; never the token.
            user = request.HttpContext.User.Identity?.IsAuthenticated == true ? request.HttpContext.User.Identity.Name : null,
            bearer = request.Headers.Authorization.ToString().StartsWith("Bearer ", StringComparison.Ordinal) || request.Query.ContainsKey("access_token"),
        });
    }

    public object[] All() => _seen.ToArray();
}

public static class AuthTestEndpoints
{
    /// <summary>Maps the test endpoints; the token endpoint and the redirect only when the hub
    /// requires tokens (<paramref name="key"/> set).</summary>
    public static void MapAuthTestEndpoints(this WebApplication app, string benchPath, byte[]? key)
    {
        var seen = app.Services.GetRequiredService<SeenRequests>();
        app.MapGet("/testhubs/seen", () => Results.Json(seen.All()));
        if (key is null) return;
        // POST /testhubs/token?user=u1&seconds=60 (negative seconds: an expired token).
        app.MapPost("/testhubs/token", (string? user, int? seconds) =>
            Results.Text(HubAuthentication.IssueToken(key, user ?? "bench-user", TimeSpan.FromSeconds(Math.Clamp(seconds ?? 600, -3_600, 86_400)))));
        // The client POSTs {hub}/negotiate; an answer of { url, accessToken } sends it to that hub
        // with that token, as Azure SignalR Service (and Azure Functions' negotiate) answer.
        app.MapPost("/redirecthub/negotiate", (HttpRequest request) => Results.Json(new
        {
            url = $"{request.Scheme}://{request.Host}{request.PathBase}{benchPath}",
            accessToken = HubAuthentication.IssueToken(key, "redirected-user", TimeSpan.FromMinutes(10)),
        }));
    }

    /// <summary>A bench hub at <paramref name="path"/> whose negotiate is open but whose WebSocket
    /// upgrades get 401, as a hub that checks the token on the upgrade and refuses it there.</summary>
    public static void MapUpgradeRefusingHub(this WebApplication app, string path)
    {
        app.Use(async (context, next) =>
        {
            if (context.Request.Path.StartsWithSegments(path) && context.Request.Headers.Upgrade.ToString().Equals("websocket", StringComparison.OrdinalIgnoreCase))
            {
                context.Response.StatusCode = StatusCodes.Status401Unauthorized;
                await context.Response.WriteAsync("401: the access token was refused on the WebSocket upgrade.\n");
                return;
            }
            await next();
        });
        app.MapHub<BenchHub>(path);
    }

    /// <summary>A bench hub at <paramref name="path"/> that serves only connections that negotiated:
    /// a WebSocket upgrade without the negotiate's connection token (<c>id</c>) gets 404, as an app
    /// server whose hubs run through Azure SignalR Service (it only answers negotiate) or a proxy
    /// that routes by that token would answer a client that skips negotiation.</summary>
    public static void MapNegotiateOnlyHub(this WebApplication app, string path)
    {
        app.Use(async (context, next) =>
        {
            if (context.Request.Path.StartsWithSegments(path) && context.Request.Headers.Upgrade.ToString().Equals("websocket", StringComparison.OrdinalIgnoreCase) && !context.Request.Query.ContainsKey("id"))
            {
                context.Response.StatusCode = StatusCodes.Status404NotFound;
                await context.Response.WriteAsync("404: this hub serves only connections that negotiated.\n");
                return;
            }
            await next();
        });
        app.MapHub<BenchHub>(path);
    }

    /// <summary>Records what each request to <paramref name="benchPath"/> carried, for /testhubs/seen.</summary>
    public static void UseSeenRequests(this WebApplication app, string benchPath)
    {
        var seen = app.Services.GetRequiredService<SeenRequests>();
        app.Use(async (context, next) =>
        {
            if (context.Request.Path.StartsWithSegments(benchPath)) seen.Record(context.Request);
            await next();
        });
    }
}
