using Microsoft.AspNetCore.Http.Connections;

namespace HubSample;

/// <summary>
/// Every setting of the sample hub, with its default, in one place. Each can be given on the
/// command line (<c>--port 6000</c>, <c>--CorsOrigins "https://a,https://b"</c>) or as an
/// environment variable prefixed <c>HUBSAMPLE_</c> (<c>HUBSAMPLE_PORT=6000</c>).
/// <see cref="SettingsCheck"/> reads them and checks every one before the hub starts.
/// </summary>
public sealed class HubSettings
{
    /// <summary>IP address to listen on. Default 127.0.0.1: the hub is not reachable from other
    /// hosts unless you ask for it (for example <c>--host 0.0.0.0</c>).</summary>
    public string Host { get; set; } = "127.0.0.1";

    /// <summary>TCP port. Default 5180; 0 lets the system pick a free port (the chosen URL is printed).</summary>
    public int Port { get; set; } = 5180;

    /// <summary>Optional HTTPS port (HTTP/1.1 and HTTP/2, self-signed certificate made at start).
    /// Off by default. Use it for Server-Sent Events and long polling from a browser: over HTTP/1.1
    /// the browser allows 6 connections per origin; HTTP/2 lifts that. 0 picks a free port.</summary>
    public int? HttpsPort { get; set; }

    /// <summary>Origins allowed to call the hub from another origin, comma separated. Default: the Vite
    /// dev server (<c>npm run dev</c>). The dashboard served by this hub is same-origin and needs none.
    /// Used for CORS and for <see cref="OriginCheck"/>, which also covers WebSockets.</summary>
    public string CorsOrigins { get; set; } = "http://localhost:5173,http://127.0.0.1:5173";

    /// <summary>Names the hub answers to (the request's <c>Host</c>, without port), comma
    /// separated; <c>*.example.com</c> allows its subdomains, <c>*</c> any name. Default: the
    /// address it listens on plus localhost, 127.0.0.1 and [::1] (with <c>--host 0.0.0.0</c>, every
    /// address of this machine and its name). A hub reached by a name (behind a proxy that keeps
    /// <c>Host</c>, or through DNS) needs that name here. See <see cref="HostFilter"/>.</summary>
    public string AllowedHosts { get; set; } = "";

    /// <summary>Largest hub message accepted, in bytes (SignalR's <c>MaximumReceiveMessageSize</c>,
    /// whose default is 32 KB). Default 260 KiB: the guide's worked example sends 256 KiB messages,
    /// plus 4 KiB for the protocol envelope (method name, timestamp, framing). A larger message
    /// closes the sender's connection, as SignalR does.</summary>
    public long MaxMessageBytes { get; set; } = 260 * 1024;

    /// <summary>Longest group name accepted, in characters. Default 128.</summary>
    public int MaxGroupNameLength { get; set; } = 128;

    /// <summary>Most groups one connection may be in at once. Default 100.</summary>
    public int MaxGroupsPerConnection { get; set; } = 100;

    /// <summary>Transports the hub accepts, comma separated: WebSockets, ServerSentEvents,
    /// LongPolling. Default all three.</summary>
    public string Transports { get; set; } = "WebSockets,ServerSentEvents,LongPolling";

    /// <summary>Maps a hub with none of the benchmark's methods at /emptyhub, for the tool's own
    /// tests. Default false.</summary>
    public bool EnableTestHubs { get; set; }

    /// <summary>For the capacity search's tests only, and refused unless <see cref="EnableTestHubs"/>:
    /// benchmark messages per second the hub delivers promptly; each further one that second is
    /// delivered 1.5 s late (<see cref="DeliveryLimit"/>). Default 0: off.</summary>
    public int TestMessageRateLimit { get; set; }

    /// <summary>Maps the control hub at /control, through which agents (headless runners and other
    /// browsers) join a dashboard's run. A party reaches only the members of its own session, and
    /// a session's code is random. Default true; turn it off where only /signalrbench is wanted.</summary>
    public bool EnableControlHub { get; set; } = true;

    /// <summary>Serves the hub's metrics at /metrics in the Prometheus text format (HubMetrics.cs):
    /// connections, CPU, GC, thread pool, and calls and deliveries per hub method. Same origin
    /// rules as the hubs. Default true; false removes the endpoint and the counting.</summary>
    public bool EnableMetrics { get; set; } = true;

    /// <summary>Largest message on the control hub, in bytes. Default 64 KiB: anyone who reaches
    /// /control may make the hub buffer this much per connection. Longer texts (a
    /// send-to-connection run's target ids for a big agent thread, about 25 bytes each) cross in
    /// pieces (core/fleet/pieces.ts), each at most 48,000 bytes plus the envelope.</summary>
    public long MaxControlMessageBytes { get; set; } = 64 * 1024;

    /// <summary>Most control-hub connections outside a session at once (connected, not yet or no
    /// longer a session's dashboard or agent); more are closed as they open. Default 100.</summary>
    public int MaxControlOutsiders { get; set; } = 100;

    /// <summary>Seconds a new control-hub connection has to open or join a session before it is
    /// closed. Default 10.</summary>
    public int ControlJoinSeconds { get; set; } = 10;

    /// <summary>Most control sessions (open dashboards) at once. Default 100.</summary>
    public int MaxControlSessions { get; set; } = 100;

    /// <summary>Most agents in one control session. Default 256.</summary>
    public int MaxAgentsPerSession { get; set; } = 256;

    /// <summary>Lets a connection ask the hub to abort it (BenchHub.DropMe), for the dashboard's and
    /// runner's server drops. Default false: other sites' pages are refused by the Origin check
    /// anyway, and a caller can only abort itself.</summary>
    public bool EnableServerDrops { get; set; }

    /// <summary>Accepts clients that ask for stateful reconnect (SignalR 8+): a connection whose
    /// transport drops resumes on the same connection and nothing is lost. Default true; it costs
    /// nothing for clients that do not ask.</summary>
    public bool AllowStatefulReconnects { get; set; } = true;

    /// <summary>Bytes of unacknowledged messages the hub keeps per stateful connection (SignalR's
    /// <c>StatefulReconnectBufferSize</c>, default 100,000): the most a stateful connection can make
    /// the hub hold, and how long a drop it can bridge before the sends wait.</summary>
    public long StatefulReconnectBufferBytes { get; set; } = 100_000;

    /// <summary>Puts the bench hubs behind JWT bearer (<see cref="HubAuthentication"/>): requests
    /// without a valid token signed with <see cref="JwtSigningKey"/> get 401. Default false. The
    /// control hub and the dashboard stay open.</summary>
    public bool RequireAuth { get; set; }

    /// <summary>With <see cref="RequireAuth"/>: closes a connection when its token expires
    /// (ASP.NET Core's <c>CloseOnAuthenticationExpiration</c>). Default true. False, as
    /// ASP.NET Core's own default and Azure SignalR Service do: the token is checked on each HTTP
    /// request (negotiate, reconnect, long polling's every poll and send), so a client that
    /// refreshes its token keeps its connections past the first token's life.</summary>
    public bool CloseOnTokenExpiry { get; set; } = true;

    /// <summary>The HMAC-SHA256 key (at least 32 characters) that signs the tokens of
    /// <see cref="RequireAuth"/>. Prefer <see cref="JwtSigningKeyFile"/>: a command line is visible
    /// to other users of the machine and kept in the shell's history.</summary>
    public string JwtSigningKey { get; set; } = "";

    /// <summary>A file whose first line is the signing key of <see cref="RequireAuth"/>.</summary>
    public string JwtSigningKeyFile { get; set; } = "";

    /// <summary>Answers Azure SignalR Service's data-plane REST API v1 for this hub's own hubs
    /// (<see cref="RestApi"/>): <c>POST /api/v1/hubs/{hub}</c>, <c>.../users/{user}</c> and
    /// <c>.../groups/{group}</c>, each with a JWT signed with <see cref="RestApiKey"/>. Default false.</summary>
    public bool EnableRestApi { get; set; }

    /// <summary>The access key (at least 32 characters) that signs the REST API's tokens, as an
    /// Azure SignalR connection string's AccessKey does. Prefer <see cref="RestApiKeyFile"/>: a
    /// command line is visible to other users of the machine and kept in the shell's history.</summary>
    public string RestApiKey { get; set; } = "";

    /// <summary>A file whose first line is the REST API's access key.</summary>
    public string RestApiKeyFile { get; set; } = "";

    /// <summary>A StackExchange.Redis configuration (<c>127.0.0.1:6379</c>, or
    /// <c>host:port,password=...,ssl=true</c>) of a Redis that several hub-sample processes share
    /// as their backplane (<see cref="RedisBackplane"/>): broadcasts, groups and send-to-connection
    /// then reach the connections of every instance. Checked at start: a Redis that does not
    /// answer within 5 s ends the hub with exit code 2. Default empty: one process, no backplane.
    /// Prefer <c>HUBSAMPLE_REDIS</c> when it holds a password (a command line is visible to other users).</summary>
    public string Redis { get; set; } = "";

    /// <summary>This process's name among several (with <see cref="Redis"/>): in the start-up lines
    /// and, as OpenTelemetry's <c>service.instance.id</c>, in /metrics (<c>target_info</c>). Default
    /// empty: the machine's name and the port (the process id when the port is 0).</summary>
    public string InstanceName { get; set; } = "";

    /// <summary>Folder of the built dashboard (<c>npm run build</c> writes <c>dist/</c>). Relative
    /// paths are taken from the current directory.</summary>
    public string DashboardDir { get; set; } = "dist";

    public HttpTransportType TransportTypes()
    {
        var types = HttpTransportType.None;
        foreach (var name in Transports.Split(',', StringSplitOptions.RemoveEmptyEntries | StringSplitOptions.TrimEntries))
        {
            if (!Enum.TryParse<HttpTransportType>(name, ignoreCase: true, out var type) || type == HttpTransportType.None)
            {
                throw new ArgumentException($"--Transports: '{name}' is not a transport; use WebSockets, ServerSentEvents and/or LongPolling, comma separated.");
            }
            types |= type;
        }
        return types;
    }

    /// <summary>The name of <see cref="InstanceName"/>, or its default.</summary>
    public string InstanceNameOrDefault() =>
        InstanceName.Length > 0 ? InstanceName
        : Port != 0 ? $"{Environment.MachineName}:{Port}"
        : $"{Environment.MachineName}:pid{Environment.ProcessId}";

    public string[] CorsOriginList() =>
        CorsOrigins.Split(',', StringSplitOptions.RemoveEmptyEntries | StringSplitOptions.TrimEntries);
}
