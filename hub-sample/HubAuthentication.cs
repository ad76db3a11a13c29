using System.Security.Claims;
using System.Security.Cryptography;
using System.Text;
using Microsoft.AspNetCore.Authentication.JwtBearer;
using Microsoft.IdentityModel.JsonWebTokens;
using Microsoft.IdentityModel.Tokens;

namespace HubSample;

/// <summary>
/// <c>--RequireAuth true</c>: the bench hubs behind JWT bearer, as most deployed SignalR hubs are
/// (<c>[Authorize]</c> with <c>accessTokenFactory</c> on the client). The token comes in the
/// <c>Authorization</c> header, or, for WebSockets and Server-Sent Events, which browsers cannot
/// give headers, in the <c>access_token</c> query parameter (Microsoft's documented
/// <c>OnMessageReceived</c>). A missing, wrong or expired token gets a 401 with one line saying
/// which, never a stack trace; a connection whose token expires is closed
/// (<c>CloseOnAuthenticationExpiration</c>), as a deployed hub would.
/// </summary>
public static class HubAuthentication
{
    public const string Issuer = "signalr-live-bench-hub-sample";
    public const string Audience = "signalr-live-bench";

    /// <summary>Fewest bytes of an HMAC-SHA256 signing key (the JWT library refuses shorter).</summary>
    public const int MinKeyBytes = 32;

    /// <summary>Tolerated clock difference: short, so a test's expired token is refused soon.</summary>
    public static readonly TimeSpan ClockSkew = TimeSpan.FromSeconds(2);

    /// <summary>The signing key: --JwtSigningKey, the first line of --JwtSigningKeyFile, or (only
    /// with test hubs, whose token endpoint hands out tokens) a random one; null with a problem.</summary>
    public static (byte[]? Key, string? Problem) SigningKey(HubSettings settings) =>
        SigningKeys.Read(KeyFlags, settings.RequireAuth, settings.JwtSigningKey, settings.JwtSigningKeyFile,
            settings.EnableTestHubs ? () => RandomNumberGenerator.GetBytes(MinKeyBytes) : null);

    static readonly KeyFlags KeyFlags = new("--JwtSigningKey", "--JwtSigningKeyFile", "--RequireAuth", "the tokens",
        "the hub has one signing key", "the key that signs the tokens", "The JWT signing key");

    /// <summary>JWT bearer for the hubs, with the query-string token for WebSockets and SSE.</summary>
    public static void AddHubAuthentication(this IServiceCollection services, byte[] key, params string[] hubPaths)
    {
        services.AddAuthorization();
        services.AddAuthentication(JwtBearerDefaults.AuthenticationScheme).AddJwtBearer(options =>
        {
            options.MapInboundClaims = false;
            options.TokenValidationParameters = ValidationParameters(key);
            options.Events = new JwtBearerEvents
            {
                OnMessageReceived = context =>
                {
                    // Browsers cannot set headers on WebSockets and EventSource; the SignalR client
                    // sends the token in the query there. Only on the hubs' paths.
                    var token = context.Request.Query["access_token"];
                    if (!string.IsNullOrEmpty(token) && hubPaths.Any(path => context.Request.Path.StartsWithSegments(path))) context.Token = token;
                    return Task.CompletedTask;
                },
                OnChallenge = async context =>
                {
                    context.HandleResponse();
                    context.Response.StatusCode = StatusCodes.Status401Unauthorized;
                    context.Response.Headers.WWWAuthenticate = "Bearer";
                    context.Response.ContentType = "text/plain; charset=utf-8";
                    await context.Response.WriteAsync(ChallengeText(context.AuthenticateFailure, context.Request.Headers.Authorization.Count > 0 || context.Request.Query.ContainsKey("access_token")) + "\n");
                },
            };
        });
    }

    /// <summary>One line for a refused token: what was wrong, never the exception's stack.</summary>
    public static string ChallengeText(Exception? failure, bool tokenGiven) => failure switch
    {
        SecurityTokenExpiredException => "401: the access token has expired. Get a new token and start again.",
        SecurityTokenInvalidSignatureException or SecurityTokenSignatureKeyNotFoundException => "401: the access token is not signed with this hub's key.",
        SecurityTokenInvalidAudienceException or SecurityTokenInvalidIssuerException => "401: the access token is for another issuer or audience.",
        not null => "401: the access token is not a valid JWT for this hub.",
        null when tokenGiven => "401: the access token was refused.",
        null => "401: this hub needs an access token (Authorization: Bearer, or access_token in the query for WebSockets and SSE).",
    };

    public static TokenValidationParameters ValidationParameters(byte[] key) => new()
    {
        ValidIssuer = Issuer,
        ValidAudience = Audience,
        IssuerSigningKey = new SymmetricSecurityKey(key),
        ClockSkew = ClockSkew,
        NameClaimType = JwtRegisteredClaimNames.Sub,
    };

    /// <summary>A token for <paramref name="user"/> valid for <paramref name="lifetime"/> (negative: already expired).</summary>
    public static string IssueToken(byte[] key, string user, TimeSpan lifetime)
    {
        var now = DateTime.UtcNow;
        var notBefore = lifetime < TimeSpan.Zero ? now + lifetime - TimeSpan.FromMinutes(1) : now;
        var descriptor = new SecurityTokenDescriptor
        {
            Issuer = Issuer,
            Audience = Audience,
            Subject = new ClaimsIdentity([new Claim(JwtRegisteredClaimNames.Sub, user)]),
            NotBefore = notBefore,
            IssuedAt = notBefore,
            Expires = now + lifetime,
            SigningCredentials = new SigningCredentials(new SymmetricSecurityKey(key), SecurityAlgorithms.HmacSha256),
        };
        return new JsonWebTokenHandler().CreateToken(descriptor);
    }
}
