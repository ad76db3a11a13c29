using Microsoft.AspNetCore.SignalR;

namespace HubSample;

/// <summary>
/// A SignalR hub with none of the benchmark's methods, mapped at /emptyhub only with
/// <c>--EnableTestHubs true</c>: the tool's tests use it to check that pointing a run at the
/// wrong hub is named at once.
/// </summary>
public sealed class EmptyHub : Hub;
