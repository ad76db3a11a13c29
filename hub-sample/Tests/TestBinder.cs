using Microsoft.AspNetCore.SignalR;

namespace HubSample.Tests;

/// <summary>An invocation binder that knows a fixed set of methods, like the hub's own binder does.</summary>
internal sealed class TestBinder : IInvocationBinder
{
    private readonly Dictionary<string, Type[]> _methods = new(StringComparer.OrdinalIgnoreCase)
    {
        ["Echo"] = [typeof(long), typeof(string)],
        ["Measure"] = [typeof(long), typeof(string)],
        ["Counter"] = [typeof(int)],
        ["NoArgs"] = [],
    };

    public Dictionary<string, Type> StreamItemTypes { get; } = new();

    public Dictionary<string, Type> ReturnTypes { get; } = new();

    public TestBinder With(string method, params Type[] parameterTypes)
    {
        _methods[method] = parameterTypes;
        return this;
    }

    public IReadOnlyList<Type> GetParameterTypes(string methodName) =>
        _methods.TryGetValue(methodName, out var types) ? types : throw new HubException("Method does not exist.");

    public Type GetReturnType(string invocationId) =>
        ReturnTypes.TryGetValue(invocationId, out var type) ? type : throw new InvalidOperationException("No pending result.");

    public Type GetStreamItemType(string streamId) =>
        StreamItemTypes.TryGetValue(streamId, out var type) ? type : throw new KeyNotFoundException($"No stream {streamId}.");
}
