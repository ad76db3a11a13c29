namespace HubSample;

/// <summary>
/// Refuses requests to the hubs from pages of other sites. CORS does not cover this: browsers
/// apply it to fetch and XHR only, so a page from any origin can open a WebSocket to a hub (and
/// with <c>skipNegotiation</c> never makes the one CORS-checked request). Browsers always send
/// <c>Origin</c> on WebSocket upgrades and cross-origin requests, and pages cannot forge it, so
/// checking it on every hub request (negotiate, WebSocket upgrade, SSE, long polling) closes
/// that door. Allowed: no Origin (non-browser clients such as the headless runner, which could
/// send any header anyway), the request's own origin (the dashboard this hub serves) when its
/// host is one of <c>--AllowedHosts</c>, and the origins in <c>--CorsOrigins</c>. The own origin
/// is never taken on <c>Host</c>'s word alone: a page on an attacker's name that resolves to this
/// machine (DNS rebinding) sends a matching <c>Host</c> and <c>Origin</c>.
/// </summary>
public sealed class OriginCheck(IEnumerable<string> allowedOrigins, IEnumerable<string> allowedHosts)
{
    /// <summary>Most characters of a refused Origin echoed in the 403's text.</summary>
    private const int EchoedOriginLength = 80;

    private readonly HashSet<string> _allowed = allowedOrigins
        .Select(Normalize).OfType<string>().ToHashSet(StringComparer.Ordinal);

    private readonly string[] _hosts = allowedHosts.ToArray();

    /// <summary>Why <paramref name="request"/> is refused, or null when it may go on.</summary>
    public string? Refusal(HttpRequest request)
    {
        if (!request.Headers.TryGetValue("Origin", out var values)) return null;
        var origin = values.ToString();
        var normalized = Normalize(origin);
        if (normalized is not null && (_allowed.Contains(normalized) || IsOwn(normalized, request))) return null;
        return $"Origin '{RefusalLog.Printable(origin, EchoedOriginLength)}' may not use this hub: it is not the hub's own origin and not in its --CorsOrigins.";
    }

    /// <summary><c>scheme://host:port</c> in lower case with the port always written, so
    /// <c>http://A:80</c> and <c>http://a</c> compare equal; null for anything else ("null",
    /// paths, garbage).</summary>
    public static string? Normalize(string origin)
    {
        if (!Uri.TryCreate(origin, UriKind.Absolute, out var uri)) return null;
        if (uri.Scheme is not ("http" or "https") || uri.AbsolutePath != "/" || uri.Query != "" || uri.UserInfo != "") return null;
        return $"{uri.Scheme}://{uri.Host.ToLowerInvariant()}:{uri.Port}";
    }

    /// <summary>The page's origin is the request's own, and its host one the hub answers to.</summary>
    private bool IsOwn(string normalizedOrigin, HttpRequest request) =>
        request.Host.HasValue
        && normalizedOrigin == Normalize($"{request.Scheme}://{request.Host.Value}")
        && HostFilter.Allows(_hosts, new Uri(normalizedOrigin).Host);
}

public static class OriginCheckExtensions
{
    /// <summary>Checks <c>Origin</c> on every request under <paramref name="hubPaths"/>; a refusal is
    /// a 403 with a one-line plain-text reason, counted in the <see cref="RefusalLog"/>.</summary>
    public static WebApplication UseOriginCheck(this WebApplication app, OriginCheck check, params string[] hubPaths)
    {
        var refusals = app.Services.GetRequiredService<RefusalLog>();
        app.Use(async (context, next) =>
        {
            if (hubPaths.Any(path => context.Request.Path.StartsWithSegments(path))
                && check.Refusal(context.Request) is { } refusal)
            {
                refusals.Count("a request from a foreign Origin (403)", context.Request.Headers.Origin.ToString());
                context.Response.StatusCode = StatusCodes.Status403Forbidden;
                context.Response.ContentType = "text/plain; charset=utf-8";
                await context.Response.WriteAsync(refusal + "\n");
                return;
            }
            await next();
        });
        return app;
    }
}
