using HubSample;
using Microsoft.Extensions.Configuration;

namespace HubSample.Tests;

public class DeliveryLimitTests
{
    private static (DeliveryLimit Limit, StoppedClock Clock) Limited(int perSecond)
    {
        var clock = new StoppedClock();
        return (new DeliveryLimit(new HubSettings { EnableTestHubs = true, TestMessageRateLimit = perSecond }, clock), clock);
    }

    private static int DeliverMany(DeliveryLimit limit, int count)
    {
        var sentNow = 0;
        for (var i = 0; i < count; i++) limit.Deliver(() => { sentNow++; return Task.CompletedTask; });
        return sentNow;
    }

    [Fact]
    public void OffByDefaultEveryDeliveryGoesStraightThrough()
    {
        Assert.Equal(10_000, DeliverMany(new DeliveryLimit(new HubSettings(), new StoppedClock()), 10_000));
    }

    [Fact]
    public void DeliversTheFirstNOfEachSecondAtOnceAndHoldsTheRest()
    {
        var (limit, clock) = Limited(5);
        Assert.Equal(5, DeliverMany(limit, 8));
        clock.Ticks += TimeSpan.TicksPerSecond;
        Assert.Equal(5, DeliverMany(limit, 8));
    }

    [Fact]
    public void TheLimitIsRefusedOutsideTestHubs()
    {
        var read = (params (string Key, string Value)[] given) => SettingsCheck.Read(new ConfigurationBuilder()
            .AddInMemoryCollection(given.Select(g => new KeyValuePair<string, string?>(g.Key, g.Value))).Build());
        var problem = Assert.Single(read(("TestMessageRateLimit", "500")).Problems);
        Assert.StartsWith("--TestMessageRateLimit makes the hub deliver late on purpose, for this tool's tests only, and is refused unless --EnableTestHubs true", problem);
        Assert.Empty(read(("TestMessageRateLimit", "500"), ("EnableTestHubs", "true")).Problems);
        Assert.StartsWith("--TestMessageRateLimit is '-1', but must be a whole number from 0 to 10000000", Assert.Single(read(("TestMessageRateLimit", "-1"), ("EnableTestHubs", "true")).Problems));
    }
}
