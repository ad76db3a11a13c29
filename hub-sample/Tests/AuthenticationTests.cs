using System.Net;
using System.Net.Http.Headers;
using HubSample;
using Microsoft.AspNetCore.Builder;
using Microsoft.AspNetCore.Hosting;
using Microsoft.AspNetCore.Hosting.Server;
using Microsoft.AspNetCore.Hosting.Server.Features;
using Microsoft.Extensions.Configuration;
using Microsoft.Extensions.DependencyInjection;
using Microsoft.Extensions.Logging;

namespace HubSample.Tests;

/// <summary>--RequireAuth: the signing key's settings, and a real Kestrel endpoint behind the
/// hub's JWT bearer answering missing, wrong, expired and foreign tokens with a one-line 401.</summary>
public class AuthenticationTests
{
    private const string Key = "0123456789abcdef0123456789abcdef-test-key";

    private static List<string> Problems(params (string Key, string Value)[] given) =>
        SettingsCheck.Read(new ConfigurationBuilder()
            .AddInMemoryCollection(given.Select(g => new KeyValuePair<string, string?>(g.Key, g.Value)))
            .Build()).Problems;

    [Fact]
    public void RequireAuthNeedsAKeyOutsideTests() =>
        Assert.Contains(Problems(("RequireAuth", "true")), p => p.StartsWith("--RequireAuth true needs the key that signs the tokens: pass --JwtSigningKeyFile"));

    [Fact]
    public void WithTestHubsAKeyIsMadeAtRandom()
    {
        Assert.Empty(Problems(("RequireAuth", "true"), ("EnableTestHubs", "true")));
        var (key, problem) = HubAuthentication.SigningKey(new HubSettings { RequireAuth = true, EnableTestHubs = true });
        Assert.Null(problem);
        Assert.Equal(HubAuthentication.MinKeyBytes, key!.Length);
    }

    [Fact]
    public void AShortKeyTwoKeysAndAKeyWithoutRequireAuthAreRefused()
    {
        Assert.Contains(Problems(("RequireAuth", "true"), ("JwtSigningKey", "short")), p => p.StartsWith("The JWT signing key has 5 bytes, but HMAC-SHA256 needs at least 32"));
        Assert.Contains(Problems(("RequireAuth", "true"), ("JwtSigningKey", Key), ("JwtSigningKeyFile", "/k")), p => p.StartsWith("--JwtSigningKey and --JwtSigningKeyFile are both given"));
        Assert.Contains(Problems(("JwtSigningKey", Key)), p => p.Contains("which is not given: add --RequireAuth true"));
        // The key itself is never echoed.
        Assert.DoesNotContain(Problems(("JwtSigningKey", Key)), p => p.Contains(Key));
    }

    [Fact]
    public void TheKeyFilesFirstLineIsTheKey()
    {
        var file = Path.GetTempFileName();
        File.WriteAllText(file, Key + "\nsecond line ignored\n");
        var (key, problem) = HubAuthentication.SigningKey(new HubSettings { RequireAuth = true, JwtSigningKeyFile = file });
        Assert.Null(problem);
        Assert.Equal(System.Text.Encoding.UTF8.GetBytes(Key), key);
        Assert.Contains(Problems(("RequireAuth", "true"), ("JwtSigningKeyFile", file + ".absent")), p => p.Contains("cannot be read (FileNotFoundException)"));
    }

    [Fact]
    public async Task BadTokensGetAOneLine401AndAGoodOneGetsThrough()
    {
        var key = System.Text.Encoding.UTF8.GetBytes(Key);
        var builder = WebApplication.CreateBuilder();
        builder.Logging.ClearProviders();
        builder.WebHost.UseUrls("http://127.0.0.1:0");
        builder.Services.AddHubAuthentication(key, "/hub");
        await using var app = builder.Build();
        app.UseAuthentication();
        app.UseAuthorization();
        app.MapGet("/hub/negotiate", () => "in").RequireAuthorization();
        await app.StartAsync();
        var address = app.Services.GetRequiredService<IServer>().Features.Get<IServerAddressesFeature>()!.Addresses.First();
        using var client = new HttpClient { BaseAddress = new Uri(address) };

        async Task<(HttpStatusCode Status, string Body)> Get(string? bearer, string query = "")
        {
            using var request = new HttpRequestMessage(HttpMethod.Get, "/hub/negotiate" + query);
            if (bearer is not null) request.Headers.Authorization = new AuthenticationHeaderValue("Bearer", bearer);
            using var response = await client.SendAsync(request);
            return (response.StatusCode, await response.Content.ReadAsStringAsync());
        }

        var otherKey = System.Text.Encoding.UTF8.GetBytes("another key that is 32 bytes long, or more");
        var cases = new (string? Bearer, string Expected)[]
        {
            (null, "401: this hub needs an access token"),
            ("not-a-jwt", "401: the access token is not a valid JWT for this hub."),
            (HubAuthentication.IssueToken(key, "late", TimeSpan.FromMinutes(-5)), "401: the access token has expired."),
            (HubAuthentication.IssueToken(otherKey, "stranger", TimeSpan.FromMinutes(5)), "401: the access token is not signed with this hub's key."),
        };
        foreach (var (bearer, expected) in cases)
        {
            var (status, body) = await Get(bearer);
            Assert.Equal(HttpStatusCode.Unauthorized, status);
            Assert.StartsWith(expected, body);
            // One line, no exception's name or stack.
            Assert.Single(body.TrimEnd('\n').Split('\n'));
            Assert.DoesNotContain(" at ", body);
            Assert.DoesNotContain("Exception", body);
        }
        var good = HubAuthentication.IssueToken(key, "user-1", TimeSpan.FromMinutes(5));
        Assert.Equal((HttpStatusCode.OK, "in"), await Get(good));
        // WebSockets and SSE carry the token in the query, as the SignalR client sends it there.
        Assert.Equal((HttpStatusCode.OK, "in"), await Get(null, "?access_token=" + Uri.EscapeDataString(good)));
        await app.StopAsync();
    }
}
