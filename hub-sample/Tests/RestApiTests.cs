using System.Security.Claims;
using System.Text;
using HubSample;
using Microsoft.Extensions.Configuration;
using Microsoft.IdentityModel.JsonWebTokens;
using Microsoft.IdentityModel.Tokens;

namespace HubSample.Tests;

/// <summary>--EnableRestApi: the key's start-up refusals (never holding the key), and the token
/// rules of Azure SignalR Service's REST API: HS256 with the key, aud the request URL without
/// query or trailing slash, exp required.</summary>
public class RestApiTests
{
    private const string Key = "rest-api-test-key-0123456789abcdef-0123";
    private static readonly byte[] KeyBytes = Encoding.UTF8.GetBytes(Key);
    private static readonly Uri Url = new("http://127.0.0.1:5600/api/v1/hubs/benchhub");

    private static List<string> Problems(params (string Key, string Value)[] given) =>
        SettingsCheck.Read(new ConfigurationBuilder()
            .AddInMemoryCollection(given.Select(g => new KeyValuePair<string, string?>(g.Key, g.Value)))
            .Build()).Problems;

    private static string Token(string? audience, DateTime? expires, byte[]? key = null, string algorithm = SecurityAlgorithms.HmacSha256)
    {
        var now = DateTime.UtcNow;
        var descriptor = new SecurityTokenDescriptor
        {
            Audience = audience,
            Expires = expires,
            NotBefore = expires is { } e && e < now ? e - TimeSpan.FromMinutes(1) : null,
            IssuedAt = expires is { } x && x < now ? x - TimeSpan.FromMinutes(1) : null,
            Subject = new ClaimsIdentity([new Claim("role", "sender")]),
            SigningCredentials = new SigningCredentials(new SymmetricSecurityKey(key ?? KeyBytes), algorithm),
        };
        return new JsonWebTokenHandler { SetDefaultTimesOnTokenCreation = expires is not null }.CreateToken(descriptor);
    }

    [Fact]
    public void EnabledWithoutAKeyIsRefusedSayingWhatToPass() =>
        Assert.Contains(Problems(("EnableRestApi", "true")), p => p.StartsWith("--EnableRestApi true needs the access key that signs the REST API's tokens: pass --RestApiKeyFile <file>"));

    [Fact]
    public void AShortKeyBothKeysAndAKeyWithoutTheApiAreRefusedWithoutTheKey()
    {
        var shortProblem = Assert.Single(Problems(("EnableRestApi", "true"), ("RestApiKey", "short-secret-31-bytes-long-0123")));
        Assert.Equal("The REST API key has 31 bytes, but HMAC-SHA256 needs at least 32: give a longer key (for example the output of 'openssl rand -base64 48').", shortProblem);
        var both = Assert.Single(Problems(("EnableRestApi", "true"), ("RestApiKey", Key), ("RestApiKeyFile", "/tmp/key")));
        Assert.StartsWith("--RestApiKey and --RestApiKeyFile are both given", both);
        var unused = Assert.Single(Problems(("RestApiKey", Key)));
        Assert.StartsWith("--RestApiKey and --RestApiKeyFile sign the REST API's tokens of --EnableRestApi true, which is not given", unused);
        Assert.DoesNotContain("short-secret", shortProblem);
        Assert.All(new[] { both, unused }, p => Assert.DoesNotContain(Key, p));
    }

    [Theory]
    [InlineData("--RestApiKey")]
    [InlineData("--JwtSigningKey")]
    public void AKeyThatStartsWithDashesIsNeverQuoted(string flag)
    {
        var problems = SettingsCheck.ArgumentProblems(["--EnableRestApi", "true", flag, "--dashed-secret-key-0123456789abcdef"]);
        var problem = Assert.Single(problems);
        Assert.StartsWith($"{flag} is followed by a word starting with '--'", problem);
        Assert.DoesNotContain("dashed-secret", problem);
    }

    [Fact]
    public void TheKeyFilesFirstLineIsTheKey()
    {
        var file = Path.GetTempFileName();
        try
        {
            File.WriteAllText(file, Key + "\nsecond line\n");
            Assert.Empty(Problems(("EnableRestApi", "true"), ("RestApiKeyFile", file)));
            Assert.Equal(KeyBytes, RestApi.Key(new HubSettings { EnableRestApi = true, RestApiKeyFile = file }).Key);
        }
        finally
        {
            File.Delete(file);
        }
    }

    [Fact]
    public async Task ATokenForThisUrlSignedWithTheKeyIsTaken()
    {
        Assert.Null(await RestApi.TokenProblem("Bearer " + Token(Url.ToString(), DateTime.UtcNow.AddMinutes(1)), KeyBytes, Url));
        // Hosts and Azure's hub names are case-insensitive; a trailing slash is not part of it.
        Assert.Null(await RestApi.TokenProblem("Bearer " + Token("HTTP://127.0.0.1:5600/api/v1/hubs/BenchHub/", DateTime.UtcNow.AddMinutes(1)), KeyBytes, Url));
    }

    [Theory]
    [InlineData(null, "401: the REST API needs 'Authorization: Bearer <JWT>'")]
    [InlineData("Basic abc", "401: the Authorization header is not 'Bearer <JWT>'.")]
    [InlineData("Bearer not-a-jwt", "401: the token is not a valid JWT for this hub's REST API.")]
    public async Task AMissingOrMalformedHeaderIsNamed(string? header, string expected) =>
        Assert.StartsWith(expected, await RestApi.TokenProblem(header, KeyBytes, Url));

    [Fact]
    public async Task EachBrokenRuleIsNamedWithoutTheToken()
    {
        var cases = new (string Token, string Expected)[]
        {
            (Token(Url.ToString(), DateTime.UtcNow.AddMinutes(-5)), "401: the token has expired."),
            (Token(Url.ToString(), null), "401: the token has no exp."),
            (Token(Url.ToString(), DateTime.UtcNow.AddMinutes(1), Encoding.UTF8.GetBytes("another-key-of-thirty-two-bytes-or-more")), "401: the token is not signed HS256 with this hub's REST API key."),
            (Token("http://127.0.0.1:5600/api/v1/hubs/chathub", DateTime.UtcNow.AddMinutes(1)), "401: the token's aud is not this request's URL: it must be http://127.0.0.1:5600/api/v1/hubs/benchhub (no query"),
            (Token(Url + "?excluded=a", DateTime.UtcNow.AddMinutes(1)), "401: the token's aud is not this request's URL"),
            (Token("http://127.0.0.1:5601/api/v1/hubs/benchhub", DateTime.UtcNow.AddMinutes(1)), "401: the token's aud is not this request's URL"),
            (Token(null, DateTime.UtcNow.AddMinutes(1)), "401: the token's aud is not this request's URL"),
        };
        foreach (var (token, expected) in cases)
        {
            var problem = await RestApi.TokenProblem("Bearer " + token, KeyBytes, Url);
            Assert.NotNull(problem);
            Assert.StartsWith(expected, problem);
            Assert.DoesNotContain(token, problem);
            Assert.DoesNotContain(token.Split('.')[1], problem);
        }
    }

    [Fact]
    public async Task AnotherAlgorithmIsNamed()
    {
        var longKey = Encoding.UTF8.GetBytes(Key + Key);
        var problem = await RestApi.TokenProblem("Bearer " + Token(Url.ToString(), DateTime.UtcNow.AddMinutes(1), longKey, SecurityAlgorithms.HmacSha512), longKey, Url);
        Assert.Equal("401: the token is not signed HS256 with this hub's REST API key.", problem);
    }

    [Fact]
    public void TheBodyIsATargetAndItsArguments()
    {
        var (target, arguments, problem) = RestApi.ReadBody(Encoding.UTF8.GetBytes("""{ "target": "broadcastMessage", "arguments": ["a", 42, 1.5, true, null, { "k": [1] }] }"""));
        Assert.Null(problem);
        Assert.Equal("broadcastMessage", target);
        Assert.Equal(new object?[] { "a", 42L, 1.5, true, null }, arguments.Take(5));
        Assert.Equal([1L], Assert.IsType<object?[]>(Assert.IsType<Dictionary<string, object?>>(arguments[5])["k"]));
        Assert.Empty(RestApi.ReadBody(Encoding.UTF8.GetBytes("""{ "target": "t" }""")).Arguments);
    }

    [Theory]
    [InlineData("not json", "400: the body is not JSON.")]
    [InlineData("[1]", "400: the body is not a JSON object.")]
    [InlineData("""{ "arguments": [] }""", "400: the body has no target")]
    [InlineData("""{ "target": "", "arguments": [] }""", "400: the body has no target")]
    [InlineData("""{ "target": "t", "arguments": 5 }""", "400: the body's arguments is not an array.")]
    public void ABadBodyIsNamed(string body, string expected) =>
        Assert.StartsWith(expected, RestApi.ReadBody(Encoding.UTF8.GetBytes(body)).Problem);

    [Fact]
    public void HubsGoByTheirLowerCasedClassName() =>
        Assert.Equal(["benchhub", "chathub"], new RestApiHubs().Add<ChatHub>().Add<BenchHub>().Names);
}
