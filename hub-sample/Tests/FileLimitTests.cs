using HubSample;
using Microsoft.AspNetCore.Http;
using Microsoft.Extensions.Logging;

namespace HubSample.Tests;

/// <summary>The open-files limit as a connection budget: what is kept for the runtime, where the
/// 503s begin, the start-up refusal when nothing fits, which requests open a connection, and the
/// refusals written in one line at most every 10 s with the limit and how to raise it.</summary>
public class FileLimitTests
{
    private sealed class Lines : ILogger<FileLimitGate>
    {
        public List<string> Written { get; } = new();
        public IDisposable? BeginScope<TState>(TState state) where TState : notnull => null;
        public bool IsEnabled(LogLevel logLevel) => true;
        public void Log<TState>(LogLevel logLevel, EventId eventId, TState state, Exception? exception, Func<TState, Exception?, string> formatter) =>
            Written.Add(formatter(state, exception));
    }

    [Fact]
    public void TheBudgetKeepsFilesForTheRuntimeAndRefusesALittleBeforeKestrelDoes()
    {
        // ulimit -n 1024 with 202 open when Kestrel is configured, as measured here.
        Assert.Equal(new FileBudget(1024, 202, 192, 630, 598), FileBudget.From(1024, 202));
        // At large limits a twentieth is kept, and the 503s begin a twentieth below Kestrel's limit.
        Assert.Equal(new FileBudget(20_000, 250, 1_000, 18_750, 17_813), FileBudget.From(20_000, 250));
        // A small budget still has its margin of 32.
        Assert.Equal(new FileBudget(450, 220, 192, 38, 6), FileBudget.From(450, 220));
    }

    [Fact]
    public void WhenNoConnectionFitsTheHubSaysSoAndHowToRaiseTheLimit()
    {
        var budget = FileBudget.From(256, 205);
        Assert.Equal(0, budget.MaxConnections);
        Assert.Equal("This hub may open 256 files (ulimit -n) and uses about 205 of them itself before any client, keeping 192 more for the runtime: no connection would fit, so it would serve nothing. Raise the limit: 'ulimit -n 65536' in the hub's shell before starting it (LimitNOFILE= in a systemd unit, --ulimit nofile=65536:65536 for docker run).", budget.StartProblem());
        Assert.Null(FileBudget.From(1024, 205).StartProblem());
    }

    [Fact]
    public void ThisProcessHasALimitAndOpenFilesOnLinux()
    {
        if (!OperatingSystem.IsLinux()) return;
        var limit = FileBudget.OpenFilesLimit();
        Assert.NotNull(limit);
        Assert.InRange(FileBudget.FilesInUse()!.Value, 3, (int)limit!.Value);
    }

    [Theory]
    [InlineData("POST", "/signalrbench/negotiate", null, null, FileLimitGate.Request.NewConnection)]
    [InlineData("POST", "/client/negotiate", null, null, FileLimitGate.Request.NewConnection)]
    // Without negotiation.
    [InlineData("GET", "/signalrbench", "websocket", null, FileLimitGate.Request.NewConnection)]
    [InlineData("GET", "/signalrbench", null, "text/event-stream", FileLimitGate.Request.NewConnection)]
    [InlineData("CONNECT", "/signalrbench", null, null, FileLimitGate.Request.NewConnection)]
    // Negotiated: let in, the margin holds it; SSE's stream and long polling's poll hold a socket for their sends.
    [InlineData("GET", "/signalrbench?id=abc", "websocket", null, FileLimitGate.Request.Other)]
    [InlineData("GET", "/signalrbench?id=abc", null, "text/event-stream", FileLimitGate.Request.EventStream)]
    [InlineData("GET", "/signalrbench?id=abc", null, null, FileLimitGate.Request.Poll)]
    [InlineData("POST", "/signalrbench?id=abc", null, null, FileLimitGate.Request.Other)]
    [InlineData("GET", "/signalrbench", null, null, FileLimitGate.Request.Other)]
    [InlineData("GET", "/metrics", null, null, FileLimitGate.Request.Other)]
    public void NewConnectionsAreRefusedAndSendSocketsCounted(string method, string path, string? upgrade, string? accept, FileLimitGate.Request expected)
    {
        var context = new DefaultHttpContext();
        context.Request.Method = method;
        context.Request.Path = path.Split('?')[0];
        if (path.Contains('?')) context.Request.QueryString = new QueryString("?" + path.Split('?')[1]);
        if (upgrade is not null)
        {
            context.Request.Headers.Connection = "Upgrade";
            context.Request.Headers.Upgrade = upgrade;
        }
        if (accept is not null) context.Request.Headers.Accept = accept;
        Assert.Equal(expected, FileLimitGate.Classify(context.Request));
    }

    [Fact]
    public async Task AFullHubAnswers503WithTheReasonAndLetsTheOpenConnectionsGoOn()
    {
        var lines = new Lines();
        using var gate = new FileLimitGate(new FileBudget(1024, 202, 192, 2, 0), new StoppedClock(), lines);
        var passed = 0;
        // One connection open: above the 503 line of this budget.
        var open = new TaskCompletionSource();
        var holding = gate.Count(_ => open.Task)(null!);
        Assert.Equal(1, gate.Open);

        var negotiate = new DefaultHttpContext();
        negotiate.Request.Path = "/signalrbench/negotiate";
        negotiate.Response.Body = new MemoryStream();
        await gate.Gate(negotiate, _ => { passed++; return Task.CompletedTask; });
        Assert.Equal(StatusCodes.Status503ServiceUnavailable, negotiate.Response.StatusCode);
        Assert.Equal("close", negotiate.Response.Headers.Connection.ToString());
        var body = System.Text.Encoding.UTF8.GetString(((MemoryStream)negotiate.Response.Body).ToArray());
        Assert.Equal("503: the hub is at its open-files limit (ulimit -n 1,024: 1 sockets taken, at most 2); it keeps its connections and refuses new ones. Raise the limit before starting the hub (ulimit -n 65536), or connect fewer.\n", body);

        var send = new DefaultHttpContext();
        send.Request.Method = "POST";
        send.Request.Path = "/signalrbench";
        send.Request.QueryString = new QueryString("?id=abc");
        await gate.Gate(send, _ => { passed++; return Task.CompletedTask; });
        Assert.Equal(1, passed);

        open.SetResult();
        await holding;
        Assert.Equal(0, gate.Open);
        var again = new DefaultHttpContext();
        again.Request.Path = "/signalrbench/negotiate";
        await gate.Gate(again, _ => { passed++; return Task.CompletedTask; });
        Assert.Equal(2, passed);

        // A long polling poll in flight holds two sockets more for its connection's sends and next poll: full again.
        var polling = new TaskCompletionSource();
        var pollContext = new DefaultHttpContext();
        pollContext.Request.Method = "GET";
        pollContext.Request.Path = "/signalrbench";
        pollContext.Request.QueryString = new QueryString("?id=abc");
        var poll = gate.Gate(pollContext, _ => polling.Task);
        Assert.Equal(2, gate.Sockets);
        Assert.True(gate.Full);
        polling.SetResult();
        await poll;
        Assert.False(gate.Full);
    }

    [Fact]
    public void RefusalsAreOneLineAtMostEvery10sWithTheLimitAndHowToRaiseIt()
    {
        var lines = new Lines();
        var clock = new StoppedClock();
        var gate = new FileLimitGate(FileBudget.From(1024, 202), clock, lines);
        clock.Advance(3);
        // The first is written when it happens.
        gate.Refused(answered: 1);
        Assert.Equal(["Open files at the limit: refused 1 new connection in the last 3 s (1 answered 503, 0 closed at once by Kestrel), with 0 sockets taken. This process may open 1,024 files (ulimit -n), used 202 before any client and keeps 192 for the runtime, so it holds at most 630 sockets (a WebSocket connection takes one, Server-Sent Events two, long polling three). To hold more, raise the limit: 'ulimit -n 65536' in the hub's shell before starting it (LimitNOFILE= in a systemd unit, --ulimit nofile=65536:65536 for docker run)."], lines.Written);
        for (var i = 0; i < 5_000; i++) gate.Refused(answered: 1);
        gate.Refused(closed: 70);
        clock.Advance(9);
        gate.Flush();
        Assert.Single(lines.Written);
        clock.Advance(1);
        gate.Flush();
        Assert.Equal(2, lines.Written.Count);
        Assert.StartsWith("Open files at the limit: refused 5,070 new connections in the last 10 s (5,000 answered 503, 70 closed at once by Kestrel)", lines.Written[1]);
        // Nothing refused since: no line; what is refused before the hub stops is written as it stops.
        clock.Advance(20);
        gate.Flush();
        gate.Refused(answered: 2);
        gate.Refused(answered: 2);
        Assert.Equal(3, lines.Written.Count);
        gate.Refused(answered: 4);
        gate.Dispose();
        Assert.Equal(4, lines.Written.Count);
        Assert.Contains("refused 6 new connections in the last 0 s", lines.Written[3]);
    }
}
