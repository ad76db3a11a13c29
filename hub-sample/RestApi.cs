using System.Text;
using System.Text.Json;
using Microsoft.AspNetCore.Http.Connections;
using Microsoft.AspNetCore.SignalR;
using Microsoft.IdentityModel.JsonWebTokens;
using Microsoft.IdentityModel.Tokens;

namespace HubSample;

/// <summary>
/// <c>--EnableRestApi true</c>: Azure SignalR Service's data-plane REST API v1 for this hub's own
/// hubs, so a serverless app's sends (an HTTP POST per message, no hub connection) can be run
/// against the hub-sample as against the service. The rules are Azure's
/// (learn.microsoft.com/azure/azure-signalr/signalr-reference-data-plane-rest-api and its v1
/// swagger page): <c>POST /api/v1/hubs/{hub}</c> broadcasts, <c>.../users/{user}</c> sends to a
/// user's connections, <c>.../groups/{group}</c> to a group's, with the body
/// <c>{ "target": ..., "arguments": [...] }</c> and an <c>excluded</c> query of connection ids
/// for broadcasts and groups; <c>Authorization: Bearer</c> a JWT signed HS256 with the access key
/// whose <c>aud</c> is the request URL without its query and trailing slash and whose
/// <c>exp</c> is required; 202 when the send is accepted. The user of a connection is its own
/// token's <c>nameid</c> (Azure's claim), else its <c>sub</c> (<see cref="SubjectUserIdProvider"/>).
/// The key is a secret: no line, answer or error ever holds it or a token.
/// </summary>
public static class RestApi
{
    public const string PathPrefix = "/api/v1/hubs";

    /// <summary>Azure's limit on a REST request's body.</summary>
    public const int MaxBodyBytes = 1024 * 1024;

    /// <summary>The key: --RestApiKey or the first line of --RestApiKeyFile; null with a problem,
    /// or null and no problem when the REST API is off.</summary>
    public static (byte[]? Key, string? Problem) Key(HubSettings settings) =>
        SigningKeys.Read(KeyFlags, settings.EnableRestApi, settings.RestApiKey, settings.RestApiKeyFile);

    static readonly KeyFlags KeyFlags = new("--RestApiKey", "--RestApiKeyFile", "--EnableRestApi", "the REST API's tokens",
        "the REST API has one key", "the access key that signs the REST API's tokens", "The REST API key");

    /// <summary>Why a request's <c>Authorization</c> header does not let it send to
    /// <paramref name="requestUrl"/>, in one line that holds neither the token nor the key; null
    /// when it does.</summary>
    public static async Task<string?> TokenProblem(string? authorization, byte[] key, Uri requestUrl)
    {
        if (string.IsNullOrEmpty(authorization))
        {
            return "401: the REST API needs 'Authorization: Bearer <JWT>', signed HS256 with the access key, its aud the request's URL and with an exp.";
        }
        if (!authorization.StartsWith("Bearer ", StringComparison.OrdinalIgnoreCase) || authorization.Length <= "Bearer ".Length)
        {
            return "401: the Authorization header is not 'Bearer <JWT>'.";
        }
        var expected = Audience(requestUrl);
        var result = await new JsonWebTokenHandler().ValidateTokenAsync(authorization["Bearer ".Length..].Trim(), new TokenValidationParameters
        {
            // Azure asks for aud and exp only; an iss, if any, is not checked.
            ValidateIssuer = false,
            IssuerSigningKey = new SymmetricSecurityKey(key),
            ValidAlgorithms = [SecurityAlgorithms.HmacSha256],
            RequireExpirationTime = true,
            RequireSignedTokens = true,
            ClockSkew = HubAuthentication.ClockSkew,
            AudienceValidator = (audiences, _, _) => audiences.Any(audience => SameAudience(audience, expected)),
        });
        return result.IsValid ? null : result.Exception switch
        {
            SecurityTokenExpiredException => "401: the token has expired. Sign a new one for each request, with a short exp.",
            SecurityTokenNoExpirationException => "401: the token has no exp. Azure's REST API requires one: give it a short expiry.",
            // The library reports another algorithm as a signature it cannot check: one line for both.
            SecurityTokenInvalidSignatureException or SecurityTokenSignatureKeyNotFoundException or SecurityTokenInvalidAlgorithmException
                => "401: the token is not signed HS256 with this hub's REST API key.",
            SecurityTokenInvalidAudienceException => $"401: the token's aud is not this request's URL: it must be {expected} (no query, no trailing slash).",
            SecurityTokenNotYetValidException => "401: the token is not valid yet (nbf): check this machine's clock.",
            _ => "401: the token is not a valid JWT for this hub's REST API.",
        };
    }

    /// <summary>The audience a token for <paramref name="requestUrl"/> must carry: the URL
    /// without its query and trailing slash.</summary>
    public static string Audience(Uri requestUrl) =>
        requestUrl.GetLeftPart(UriPartial.Path).TrimEnd('/');

    /// <summary>An audience names the request's URL when it is the same scheme, host and port
    /// (hosts are case-insensitive) and path (hub names are too: Azure lower-cases them), and
    /// carries no query.</summary>
    public static bool SameAudience(string audience, string expected) =>
        Uri.TryCreate(audience, UriKind.Absolute, out var given)
        && given.Query.Length == 0 && given.Fragment.Length == 0
        && string.Equals(Audience(given), expected, StringComparison.OrdinalIgnoreCase);

    /// <summary>Why a body is not <c>{ "target": "...", "arguments": [...] }</c>, or its target and arguments.</summary>
    public static (string? Target, object?[] Arguments, string? Problem) ReadBody(ReadOnlySpan<byte> body)
    {
        const string shape = "The body must be JSON: { \"target\": \"<client method>\", \"arguments\": [ ... ] }.";
        JsonDocument document;
        try
        {
            document = JsonDocument.Parse(body.ToArray());
        }
        catch (JsonException)
        {
            return (null, [], $"400: the body is not JSON. {shape}");
        }
        using (document)
        {
            var root = document.RootElement;
            if (root.ValueKind != JsonValueKind.Object) return (null, [], $"400: the body is not a JSON object. {shape}");
            if (!root.TryGetProperty("target", out var target) || target.ValueKind != JsonValueKind.String || target.GetString()!.Length == 0)
            {
                return (null, [], $"400: the body has no target (the client method to call). {shape}");
            }
            if (!root.TryGetProperty("arguments", out var arguments) || arguments.ValueKind == JsonValueKind.Null) return (target.GetString(), [], null);
            if (arguments.ValueKind != JsonValueKind.Array) return (null, [], $"400: the body's arguments is not an array. {shape}");
            return (target.GetString(), [.. arguments.EnumerateArray().Select(Plain)], null);
        }
    }

    /// <summary>A JSON value as plain .NET values, so both hub protocols (JSON and MessagePack) carry it.</summary>
    private static object? Plain(JsonElement value) => value.ValueKind switch
    {
        JsonValueKind.String => value.GetString(),
        // Boxed apart: one conditional would make every whole number a double.
        JsonValueKind.Number => value.TryGetInt64(out var whole) ? (object)whole : value.GetDouble(),
        JsonValueKind.True => true,
        JsonValueKind.False => false,
        JsonValueKind.Array => value.EnumerateArray().Select(Plain).ToArray(),
        JsonValueKind.Object => value.EnumerateObject().ToDictionary(p => p.Name, p => Plain(p.Value)),
        _ => null,
    };

    /// <summary>Maps the three sends for <paramref name="hubs"/>.</summary>
    public static void MapRestApi(this WebApplication app, byte[] key, RestApiHubs hubs)
    {
        app.MapPost(PathPrefix + "/{hub}", (HttpContext context, string hub) =>
            Send(context, key, hubs, hub, clients => clients.AllExcept(Excluded(context))));
        app.MapPost(PathPrefix + "/{hub}/users/{user}", (HttpContext context, string hub, string user) =>
            Send(context, key, hubs, hub, clients => clients.User(user)));
        app.MapPost(PathPrefix + "/{hub}/groups/{group}", (HttpContext context, string hub, string group) =>
            Send(context, key, hubs, hub, clients => clients.GroupExcept(group, Excluded(context))));
    }

    private static string[] Excluded(HttpContext context) => [.. context.Request.Query["excluded"].OfType<string>()];

    private static async Task<IResult> Send(HttpContext context, byte[] key, RestApiHubs hubs, string hub, Func<IHubClients, IClientProxy> to)
    {
        var request = context.Request;
        var url = new Uri($"{request.Scheme}://{request.Host}{request.PathBase}{request.Path}");
        if (await TokenProblem(request.Headers.Authorization.ToString(), key, url) is { } refused)
        {
            context.Response.Headers.WWWAuthenticate = "Bearer error=\"invalid_token\"";
            return Results.Text(refused + "\n", statusCode: StatusCodes.Status401Unauthorized);
        }
        if (hubs.Clients(hub, context.RequestServices) is not { } clients)
        {
            return Results.Text($"404: this hub-sample has no hub '{RefusalLog.Printable(hub, 60)}'. Its hubs are: {string.Join(", ", hubs.Names)}.\n", statusCode: StatusCodes.Status404NotFound);
        }
        using var body = new MemoryStream();
        var buffer = new byte[16 * 1024];
        int read;
        while ((read = await request.Body.ReadAsync(buffer, context.RequestAborted)) > 0)
        {
            body.Write(buffer, 0, read);
            if (body.Length > MaxBodyBytes)
            {
                return Results.Text($"413: the body is over {MaxBodyBytes:N0} bytes, Azure's limit for a REST request.\n", statusCode: StatusCodes.Status413PayloadTooLarge);
            }
        }
        var (target, arguments, problem) = ReadBody(body.GetBuffer().AsSpan(0, (int)body.Length));
        if (problem is not null) return Results.Text(problem + "\n", statusCode: StatusCodes.Status400BadRequest);
        await to(clients).SendCoreAsync(target!, arguments, context.RequestAborted);
        return Results.StatusCode(StatusCodes.Status202Accepted);
    }
}

/// <summary>The hubs the REST API reaches, by Azure's name for a hub: its class name, lower-cased
/// (BenchHub is <c>benchhub</c>), matched without regard to case as the service does.</summary>
public sealed class RestApiHubs
{
    private sealed record Entry(
        Func<IServiceProvider, IHubClients> Clients,
        Func<IEndpointRouteBuilder, string, Action<HttpConnectionDispatcherOptions>, HubEndpointConventionBuilder> Map);

    private readonly SortedDictionary<string, Entry> _hubs = new(StringComparer.OrdinalIgnoreCase);

    public RestApiHubs Add<THub>() where THub : Hub
    {
        _hubs[NameOf<THub>()] = new Entry(
            services => services.GetRequiredService<IHubContext<THub>>().Clients,
            (endpoints, path, connection) => endpoints.MapHub<THub>(path, connection));
        return this;
    }

    public static string NameOf<THub>() where THub : Hub => typeof(THub).Name.ToLowerInvariant();

    public IEnumerable<string> Names => _hubs.Keys;

    public IHubClients? Clients(string name, IServiceProvider services) =>
        _hubs.TryGetValue(name, out var hub) ? hub.Clients(services) : null;

    /// <summary>Maps hub <paramref name="name"/> (one of <see cref="Names"/>) at <paramref name="path"/>
    /// too, for its serverless clients (<see cref="ServerlessClients"/>).</summary>
    public HubEndpointConventionBuilder MapHub(string name, IEndpointRouteBuilder endpoints, string path, Action<HttpConnectionDispatcherOptions> connection) =>
        _hubs[name].Map(endpoints, path, connection);
}
