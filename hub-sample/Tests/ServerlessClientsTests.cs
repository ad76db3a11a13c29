using System.Net;
using System.Net.Http.Headers;
using System.Security.Claims;
using System.Text;
using HubSample;
using Microsoft.AspNetCore.Builder;
using Microsoft.AspNetCore.Hosting;
using Microsoft.AspNetCore.Hosting.Server;
using Microsoft.AspNetCore.Hosting.Server.Features;
using Microsoft.AspNetCore.SignalR;
using Microsoft.Extensions.DependencyInjection;
using Microsoft.Extensions.Logging;
using Microsoft.IdentityModel.JsonWebTokens;
using Microsoft.IdentityModel.Tokens;

namespace HubSample.Tests;

/// <summary>--EnableRestApi's clients, as Azure SignalR Service takes them in serverless mode:
/// <c>/client/?hub=</c> reaches the named hub through a real Kestrel, with a client token signed
/// HS256 by the REST API's key whose aud is the client URL and which has an exp; every broken
/// rule is a one-line 401 naming it without the token, an unknown hub a 404 naming the hubs.</summary>
public class ServerlessClientsTests
{
    private const string Key = "serverless-client-test-key-0123456789abcdef";
    private static readonly byte[] KeyBytes = Encoding.UTF8.GetBytes(Key);
    private const string Origin = "http://127.0.0.1:5600";

    /// <summary>The claims signalr/rest-tokens.ts signs (core/serverless clientTokenClaims): aud, exp, iat and nameid.</summary>
    private static string Token(string? audience, TimeSpan? lifetime, string? user = "alice", byte[]? key = null)
    {
        var now = DateTime.UtcNow;
        var issued = lifetime is { } l && l < TimeSpan.Zero ? now + l - TimeSpan.FromMinutes(1) : now;
        var descriptor = new SecurityTokenDescriptor
        {
            Audience = audience,
            Expires = lifetime is { } life ? now + life : null,
            IssuedAt = issued,
            NotBefore = lifetime is null ? null : issued,
            Subject = new ClaimsIdentity(user is null ? [] : [new Claim("nameid", user)]),
            SigningCredentials = new SigningCredentials(new SymmetricSecurityKey(key ?? KeyBytes), SecurityAlgorithms.HmacSha256),
        };
        return new JsonWebTokenHandler { SetDefaultTimesOnTokenCreation = false }.CreateToken(descriptor);
    }

    [Theory]
    [InlineData("http://127.0.0.1:5600/client/?hub=benchhub", true)]
    [InlineData("HTTP://127.0.0.1:5600/client?hub=BenchHub", true)]
    [InlineData("http://127.0.0.1:5600/client/?hub=chathub", false)]
    [InlineData("http://127.0.0.1:5601/client/?hub=benchhub", false)]
    [InlineData("https://127.0.0.1:5600/client/?hub=benchhub", false)]
    [InlineData("http://127.0.0.1:5600/api/v1/hubs/benchhub", false)]
    [InlineData("http://127.0.0.1:5600/client/", false)]
    [InlineData("http://127.0.0.1:5600/client/?hub=benchhub&id=abc", false)]
    [InlineData("benchhub", false)]
    public void TheAudienceIsTheHubsClientUrl(string audience, bool taken) =>
        Assert.Equal(taken, ServerlessClients.SameAudience(audience, Origin, "benchhub"));

    [Fact]
    public void TheClientUrlIsAzures() =>
        Assert.Equal("http://127.0.0.1:5600/client/?hub=benchhub", ServerlessClients.ClientUrl(Origin + "/", "benchhub"));

    [Fact]
    public async Task ClientUrlsReachTheNamedHubWithItsClientTokenAndEachBrokenRuleIsNamed()
    {
        var builder = WebApplication.CreateBuilder();
        builder.Logging.ClearProviders();
        builder.WebHost.UseUrls("http://127.0.0.1:0");
        builder.Services.AddSignalR();
        builder.Services.AddSingleton<IUserIdProvider, SubjectUserIdProvider>();
        builder.Services.AddServerlessClients(KeyBytes);
        await using var app = builder.Build();
        var hubs = new RestApiHubs().Add<EmptyHub>().Add<ChatHub>();
        app.UseServerlessClients(hubs);
        app.UseAuthentication();
        app.UseAuthorization();
        app.MapServerlessClients(hubs, _ => { });
        await app.StartAsync();
        var address = app.Services.GetRequiredService<IServer>().Features.Get<IServerAddressesFeature>()!.Addresses.First();
        using var client = new HttpClient { BaseAddress = new Uri(address) };
        var clientUrl = ServerlessClients.ClientUrl(address, "emptyhub");

        async Task<(HttpStatusCode Status, string Body)> Negotiate(string hubQuery, string? bearer, string extraQuery = "")
        {
            using var request = new HttpRequestMessage(HttpMethod.Post, $"/client/negotiate?{hubQuery}&negotiateVersion=1{extraQuery}");
            if (bearer is not null) request.Headers.Authorization = new AuthenticationHeaderValue("Bearer", bearer);
            using var response = await client.SendAsync(request);
            return (response.StatusCode, await response.Content.ReadAsStringAsync());
        }

        var good = Token(clientUrl, TimeSpan.FromMinutes(5));
        var (status, body) = await Negotiate("hub=emptyhub", good);
        Assert.Equal(HttpStatusCode.OK, status);
        Assert.Contains("\"connectionToken\"", body);
        // Azure's hub names are case-insensitive; browsers' WebSockets carry the token in the query.
        Assert.Equal(HttpStatusCode.OK, (await Negotiate("hub=EmptyHub", good)).Status);
        Assert.Equal(HttpStatusCode.OK, (await Negotiate("hub=emptyhub", null, "&access_token=" + Uri.EscapeDataString(good))).Status);

        var refused = new (string? Bearer, string Expected)[]
        {
            (null, $"401: a client of a serverless hub needs a client token (Authorization: Bearer, or access_token in the query): a JWT signed HS256 with the access key, its aud {clientUrl} and with an exp."),
            ("not-a-jwt", "401: the client token is not a valid JWT."),
            (Token(clientUrl, TimeSpan.FromMinutes(-5)), "401: the client token has expired."),
            (Token(clientUrl, null), "401: the client token has no exp."),
            (Token(clientUrl, TimeSpan.FromMinutes(5), key: Encoding.UTF8.GetBytes("another key that is 32 bytes long, or more")), "401: the client token is not signed HS256 with this hub's access key"),
            (Token(ServerlessClients.ClientUrl(address, "chathub"), TimeSpan.FromMinutes(5)), $"401: the client token's aud is not this client URL: it must be {clientUrl}."),
            (Token(address.TrimEnd('/') + "/api/v1/hubs/emptyhub", TimeSpan.FromMinutes(5)), "401: the client token's aud is not this client URL"),
            (Token(null, TimeSpan.FromMinutes(5)), "401: the client token's aud is not this client URL"),
        };
        foreach (var (bearer, expected) in refused)
        {
            (status, body) = await Negotiate("hub=emptyhub", bearer);
            Assert.Equal(HttpStatusCode.Unauthorized, status);
            Assert.StartsWith(expected, body);
            Assert.Single(body.TrimEnd('\n').Split('\n'));
            Assert.DoesNotContain("Exception", body);
            if (bearer is not null) Assert.DoesNotContain(bearer.Split('.')[0], body);
        }

        (status, body) = await Negotiate("hub=nohub", good);
        Assert.Equal((HttpStatusCode.NotFound, "404: this hub-sample has no hub 'nohub'. Its hubs are: chathub, emptyhub.\n"), (status, body));
        (status, body) = await Negotiate("other=1", good);
        Assert.Equal((HttpStatusCode.NotFound, "404: a client URL names its hub: /client/?hub=<hub>. This hub-sample's hubs are: chathub, emptyhub.\n"), (status, body));
        await app.StopAsync();
    }
}
