namespace HubSample.Tests;

/// <summary>A clock that moves only when the test says; its timers never fire (a test that needs
/// a timer's work calls it itself).</summary>
internal sealed class StoppedClock : TimeProvider
{
    public long Ticks { get; set; } = 1_000 * TimeSpan.TicksPerSecond;
    public override long TimestampFrequency => TimeSpan.TicksPerSecond;
    public override long GetTimestamp() => Ticks;
    public void Advance(double seconds) => Ticks += (long)(seconds * TimeSpan.TicksPerSecond);
    public override ITimer CreateTimer(TimerCallback callback, object? state, TimeSpan dueTime, TimeSpan period) =>
        TimeProvider.System.CreateTimer(_ => { }, null, Timeout.InfiniteTimeSpan, Timeout.InfiniteTimeSpan);
}
