using Microsoft.AspNetCore.Authentication.JwtBearer;
using Microsoft.AspNetCore.Authorization;
using Microsoft.AspNetCore.Http.Connections;
using Microsoft.AspNetCore.Rewrite;
using Microsoft.IdentityModel.JsonWebTokens;
using Microsoft.IdentityModel.Tokens;

namespace HubSample;

/// <summary>
/// <c>--EnableRestApi true</c>, the clients' side: clients connect to the REST API's hubs the way
/// Azure SignalR Service takes them in serverless mode, so a serverless app's clients can be run
/// here as against the service. The client URL is <c>{origin}/client/?hub={hub}</c> (the SignalR
/// client then negotiates at <c>/client/negotiate?hub={hub}</c> and connects to
/// <c>/client/?hub={hub}&amp;id=...</c>); its access token is a JWT signed HS256 with the REST
/// API's key whose <c>aud</c> is that client URL and which has an <c>exp</c>
/// (learn.microsoft.com/azure/azure-signalr/signalr-reference-data-plane-rest-api, "Client
/// token"); the connection's user is the token's <c>nameid</c>, else its <c>sub</c>
/// (<see cref="SubjectUserIdProvider"/>), so the REST API's sends to a user reach it.
/// The hub is chosen by ASP.NET Core's URL rewriting (the query names it, routes match paths
/// only): the client URL becomes the hub's own path <c>/client/{hub}</c>, mapped once per hub with
/// JWT bearer in front. The token is a secret: no line or answer holds it.
/// </summary>
public static class ServerlessClients
{
    public const string Scheme = "ServerlessClient";
    public const string PathPrefix = "/client";

    /// <summary>Where a hub's clients land once the rewrite has read the hub from the query.</summary>
    public static string HubPath(string hub) => $"{PathPrefix}/{hub}";

    /// <summary>The client URL of <paramref name="hub"/>, which is also its tokens' audience.</summary>
    public static string ClientUrl(string origin, string hub) => $"{origin.TrimEnd('/')}{PathPrefix}/?hub={hub}";

    /// <summary>An audience names this hub's client URL when it has the same scheme, host, port
    /// and path (a trailing slash aside; hosts and Azure's hub names are case-insensitive) and
    /// its query is the hub alone.</summary>
    public static bool SameAudience(string audience, string origin, string hub)
    {
        if (!Uri.TryCreate(audience, UriKind.Absolute, out var given) || given.Fragment.Length > 0) return false;
        var expected = new Uri(ClientUrl(origin, hub));
        var query = Microsoft.AspNetCore.WebUtilities.QueryHelpers.ParseQuery(given.Query);
        return string.Equals(given.GetLeftPart(UriPartial.Path).TrimEnd('/'), expected.GetLeftPart(UriPartial.Path).TrimEnd('/'), StringComparison.OrdinalIgnoreCase)
            && query.Count == 1 && query.TryGetValue("hub", out var named) && named.Count == 1
            && string.Equals(named[0], hub, StringComparison.OrdinalIgnoreCase);
    }

    /// <summary>One line for a refused client: the rule its token broke, never the token.</summary>
    public static string ChallengeText(Exception? failure, bool tokenGiven, string clientUrl) => failure switch
    {
        SecurityTokenExpiredException => "401: the client token has expired. Mint a new one (its exp a little after the connect) and connect again.",
        SecurityTokenNoExpirationException => "401: the client token has no exp. Azure SignalR Service requires one: give it an expiry.",
        // The library reports another algorithm as a signature it cannot check: one line for both.
        SecurityTokenInvalidSignatureException or SecurityTokenSignatureKeyNotFoundException or SecurityTokenInvalidAlgorithmException
            => "401: the client token is not signed HS256 with this hub's access key (--RestApiKey, the connection string's AccessKey).",
        SecurityTokenInvalidAudienceException => $"401: the client token's aud is not this client URL: it must be {clientUrl}.",
        SecurityTokenNotYetValidException => "401: the client token is not valid yet (nbf): check this machine's clock.",
        not null => "401: the client token is not a valid JWT.",
        null when tokenGiven => "401: the client token was refused: give it as 'Authorization: Bearer <JWT>', or as access_token in the query.",
        null => $"401: a client of a serverless hub needs a client token (Authorization: Bearer, or access_token in the query): a JWT signed HS256 with the access key, its aud {clientUrl} and with an exp.",
    };

    /// <summary>The hub a client endpoint serves, for the token's audience.</summary>
    public sealed record ClientHub(string Name);

    /// <summary>JWT bearer for the client endpoints, under its own scheme: its key is the REST
    /// API's and its audience each request's own client URL, checked once the library has checked
    /// the signature, the algorithm and the expiry.</summary>
    public static void AddServerlessClients(this IServiceCollection services, byte[] key)
    {
        services.AddAuthorization();
        services.AddAuthentication().AddJwtBearer(Scheme, options =>
        {
            // Azure's claim names as they are: nameid is the user (SubjectUserIdProvider).
            options.MapInboundClaims = false;
            options.TokenValidationParameters = new TokenValidationParameters
            {
                // Azure asks for aud and exp only; an iss, if any, is not checked.
                ValidateIssuer = false,
                // Each request's own client URL, so in OnTokenValidated below.
                ValidateAudience = false,
                IssuerSigningKey = new SymmetricSecurityKey(key),
                ValidAlgorithms = [SecurityAlgorithms.HmacSha256],
                RequireExpirationTime = true,
                RequireSignedTokens = true,
                ClockSkew = HubAuthentication.ClockSkew,
                NameClaimType = "nameid",
            };
            options.Events = new JwtBearerEvents
            {
                OnMessageReceived = context =>
                {
                    // Only the client endpoints: with this the only scheme it would be the default,
                    // and every REST call's token would be checked twice.
                    if (context.HttpContext.GetEndpoint()?.Metadata.GetMetadata<ClientHub>() is null)
                    {
                        context.NoResult();
                        return Task.CompletedTask;
                    }
                    // Browsers cannot set headers on WebSockets and EventSource: the SignalR client
                    // sends the token in the query there, as Azure takes it.
                    var token = context.Request.Query["access_token"];
                    if (!string.IsNullOrEmpty(token)) context.Token = token;
                    return Task.CompletedTask;
                },
                OnTokenValidated = context =>
                {
                    var hub = context.HttpContext.GetEndpoint()?.Metadata.GetMetadata<ClientHub>();
                    var audiences = context.SecurityToken is JsonWebToken token ? token.Audiences : [];
                    if (hub is null || !audiences.Any(audience => SameAudience(audience, Origin(context.Request), hub.Name)))
                    {
                        context.Fail(new SecurityTokenInvalidAudienceException("The token's aud is not this client URL."));
                    }
                    return Task.CompletedTask;
                },
                OnChallenge = async context =>
                {
                    context.HandleResponse();
                    var hub = context.HttpContext.GetEndpoint()?.Metadata.GetMetadata<ClientHub>()?.Name ?? "{hub}";
                    context.Response.StatusCode = StatusCodes.Status401Unauthorized;
                    context.Response.Headers.WWWAuthenticate = "Bearer error=\"invalid_token\"";
                    context.Response.ContentType = "text/plain; charset=utf-8";
                    var tokenGiven = context.Request.Headers.Authorization.Count > 0 || context.Request.Query.ContainsKey("access_token");
                    await context.Response.WriteAsync(ChallengeText(context.AuthenticateFailure, tokenGiven, ClientUrl(Origin(context.Request), hub)) + "\n");
                },
            };
        });
    }

    private static string Origin(HttpRequest request) => $"{request.Scheme}://{request.Host}{request.PathBase}";

    /// <summary>Rewrites client URLs to their hub's path; must come before authentication.</summary>
    public static IApplicationBuilder UseServerlessClients(this IApplicationBuilder app, RestApiHubs hubs) =>
        app.UseRewriter(new RewriteOptions().Add(new ClientUrlRule(hubs)));

    /// <summary>Maps each hub at its client path behind the client tokens, and a 404 naming the
    /// hubs for a client URL of a hub this hub-sample does not have.</summary>
    public static void MapServerlessClients(this WebApplication app, RestApiHubs hubs, Action<HttpConnectionDispatcherOptions> connection)
    {
        foreach (var name in hubs.Names)
        {
            hubs.MapHub(name, app, HubPath(name), connection)
                .RequireAuthorization(new AuthorizeAttribute { AuthenticationSchemes = Scheme })
                .WithMetadata(new ClientHub(name));
        }
        // Routes match literal hub paths before this catch-all.
        app.Map(PathPrefix + "/{**rest}", (HttpContext context) => Results.Text(
            UnknownHubText(context.Request.Query["hub"].ToString(), hubs) + "\n", statusCode: StatusCodes.Status404NotFound));
    }

    public static string UnknownHubText(string hub, RestApiHubs hubs) => hub == ""
        ? $"404: a client URL names its hub: {PathPrefix}/?hub=<hub>. This hub-sample's hubs are: {string.Join(", ", hubs.Names)}."
        : $"404: this hub-sample has no hub '{RefusalLog.Printable(hub, 60)}'. Its hubs are: {string.Join(", ", hubs.Names)}.";

    /// <summary><c>/client/?hub=h</c> and <c>/client/negotiate?hub=h</c> to <c>/client/h</c> and
    /// <c>/client/h/negotiate</c>, under the hub's own name; any other hub to a path only the
    /// catch-all matches.</summary>
    private sealed class ClientUrlRule(RestApiHubs hubs) : IRule
    {
        public void ApplyRule(RewriteContext context)
        {
            var request = context.HttpContext.Request;
            string tail;
            if (request.Path == PathPrefix || request.Path == PathPrefix + "/") tail = "";
            else if (request.Path == PathPrefix + "/negotiate") tail = "/negotiate";
            else return;
            var named = request.Query["hub"].ToString();
            var hub = hubs.Names.FirstOrDefault(name => string.Equals(name, named, StringComparison.OrdinalIgnoreCase));
            request.Path = hub is null ? PathPrefix + "/unknown-hub/" : HubPath(hub) + tail;
        }
    }
}
