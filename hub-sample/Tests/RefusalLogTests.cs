using HubSample;
using Microsoft.Extensions.Logging;

namespace HubSample.Tests;

public class RefusalLogTests
{
    private sealed class Lines : ILogger<RefusalLog>
    {
        public List<string> Written { get; } = new();
        public IDisposable? BeginScope<TState>(TState state) where TState : notnull => null;
        public bool IsEnabled(LogLevel logLevel) => true;
        public void Log<TState>(LogLevel logLevel, EventId eventId, TState state, Exception? exception, Func<TState, Exception?, string> formatter) =>
            Written.Add(formatter(state, exception) + (exception is null ? "" : exception.StackTrace));
    }

    [Fact]
    public void TenThousandRefusalsMakeOneLineWithCountsAndAShortPrintableSample()
    {
        var lines = new Lines();
        using var log = new RefusalLog(lines);
        for (var i = 0; i < 10_000; i++)
        {
            log.Count(i % 2 == 0 ? "ControlHub.JoinSession: ControlException" : "BenchHub.JoinGroup: HubException", "\u001b[31m\r\n" + new string('x', 5_000));
        }
        log.Flush();
        var line = Assert.Single(lines.Written);
        Assert.Contains("Refused 10000 ", line);
        Assert.Contains("ControlHub.JoinSession: ControlException x5000", line);
        Assert.Contains("BenchHub.JoinGroup: HubException x5000", line);
        Assert.DoesNotContain('\u001b', line);
        Assert.DoesNotContain('\n', line);
        Assert.True(line.Length < 2 * (RefusalLog.SampleChars + 100), line);
    }

    [Fact]
    public void NothingRefusedWritesNothingAndCountsStartAgainAfterEachLine()
    {
        var lines = new Lines();
        using var log = new RefusalLog(lines);
        log.Flush();
        Assert.Empty(lines.Written);
        Assert.True(log.Count("kind", "first"));
        Assert.False(log.Count("kind", "second"));
        log.Flush();
        log.Count("kind", "third");
        log.Flush();
        Assert.Equal(2, lines.Written.Count);
        Assert.Contains("kind x2 (first: first)", lines.Written[0]);
        Assert.Contains("kind x1 (first: third)", lines.Written[1]);
    }

    [Theory]
    [InlineData("ABC", 10, "ABC")]
    [InlineData("ABCDEFGHIJKL", 5, "ABCDE...")]
    [InlineData("a\u001b[0m\r\nb\u00e9", 10, "a?[0m??b?")]
    [InlineData(null, 5, "")]
    public void PrintableKeepsAShortAsciiPrefix(string? text, int maxChars, string expected) =>
        Assert.Equal(expected, RefusalLog.Printable(text, maxChars));
}
