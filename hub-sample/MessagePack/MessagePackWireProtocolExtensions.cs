using HubSample.MessagePack;
using Microsoft.AspNetCore.SignalR;
using Microsoft.AspNetCore.SignalR.Protocol;
using Microsoft.Extensions.DependencyInjection.Extensions;

namespace Microsoft.Extensions.DependencyInjection;

public static class MessagePackWireProtocolExtensions
{
    /// <summary>
    /// Lets clients connect with the "messagepack" hub protocol (the JSON one stays available),
    /// using this project's own implementation of it.
    /// </summary>
    public static ISignalRServerBuilder AddMessagePackWireProtocol(this ISignalRServerBuilder builder)
    {
        builder.Services.TryAddEnumerable(ServiceDescriptor.Singleton<IHubProtocol, MessagePackWireProtocol>());
        return builder;
    }
}
