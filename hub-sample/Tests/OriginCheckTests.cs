using HubSample;
using Microsoft.AspNetCore.Http;

namespace HubSample.Tests;

public class OriginCheckTests
{
    private static readonly OriginCheck Check = new(["http://localhost:5173", "https://Dash.Example"], ["127.0.0.1", "localhost", "[::1]", "hub.example"]);

    private static string? Refusal(string? origin, string scheme = "http", string host = "127.0.0.1:5180")
    {
        var context = new DefaultHttpContext();
        context.Request.Scheme = scheme;
        context.Request.Host = new HostString(host);
        if (origin is not null) context.Request.Headers.Origin = origin;
        return Check.Refusal(context.Request);
    }

    [Theory]
    [InlineData(null)]
    [InlineData("http://127.0.0.1:5180")]
    [InlineData("http://localhost:5173")]
    [InlineData("HTTPS://dash.example:443")]
    public void AllowsNoOriginTheHubsOwnAndTheListedOnes(string? origin) => Assert.Null(Refusal(origin));

    [Theory]
    [InlineData("http://evil.example")]
    [InlineData("https://127.0.0.1:5180")]
    [InlineData("http://127.0.0.1:5181")]
    [InlineData("http://localhost:5174")]
    [InlineData("null")]
    [InlineData("")]
    [InlineData("http://localhost:5173/path")]
    [InlineData("ws://127.0.0.1:5180")]
    public void RefusesOtherOrigins(string origin) => Assert.NotNull(Refusal(origin));

    [Fact]
    public void TheDefaultPortOfTheSchemeMatchesAHostWithoutOne() =>
        Assert.Null(Refusal("https://hub.example", scheme: "https", host: "hub.example"));

    [Theory]
    [InlineData("http://evil.example:7301", "evil.example:7301")]
    [InlineData("http://evil.example", "evil.example")]
    [InlineData("http://127.0.0.1.evil.example:5180", "127.0.0.1.evil.example:5180")]
    public void AHostTheHubDoesNotAnswerToIsNotItsOwnOriginWhateverHostSays(string origin, string host) =>
        // DNS rebinding: the attacker's name resolves to this machine, so Host and Origin agree.
        Assert.NotNull(Refusal(origin, host: host));

    [Theory]
    [InlineData("http://localhost:5180", "localhost:5180")]
    [InlineData("http://[::1]:5180", "[::1]:5180")]
    [InlineData("http://HUB.example:8080", "hub.example:8080")]
    public void TheOwnOriginOnAnAllowedHostPasses(string origin, string host) => Assert.Null(Refusal(origin, host: host));

    [Fact]
    public void SubdomainWildcardsAndStarMatchAsAspNetCoresHostFilteringDoes()
    {
        static string? With(string[] hosts, string origin, string host)
        {
            var context = new DefaultHttpContext();
            context.Request.Scheme = "https";
            context.Request.Host = new HostString(host);
            context.Request.Headers.Origin = origin;
            return new OriginCheck([], hosts).Refusal(context.Request);
        }
        Assert.Null(With(["*.bench.example"], "https://a.bench.example", "a.bench.example"));
        Assert.NotNull(With(["*.bench.example"], "https://bench.example", "bench.example"));
        Assert.NotNull(With(["*.bench.example"], "https://evilbench.example", "evilbench.example"));
        Assert.Null(With(["*"], "https://any.example", "any.example"));
    }

    [Fact]
    public void TheReasonIsOneShortPrintableLine()
    {
        var refusal = Refusal("http://evil.example/" + new string('a', 500) + "\r\nX: y")!;
        Assert.StartsWith("Origin 'http://evil.example/aaa", refusal);
        Assert.Contains("--CorsOrigins", refusal);
        Assert.DoesNotContain('\n', refusal);
        Assert.True(refusal.Length < 200, refusal);
    }
}
