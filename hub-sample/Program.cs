using System.Net;
using HubSample;
using Microsoft.AspNetCore.Connections;
using Microsoft.AspNetCore.Server.Kestrel.Core;
using Microsoft.AspNetCore.Hosting.Server;
using Microsoft.AspNetCore.Hosting.Server.Features;
using Microsoft.AspNetCore.Http.Connections;
using Microsoft.AspNetCore.SignalR;

// Settings come from HUBSAMPLE_ variables and the command line (which wins), and only from there:
// every one is checked before anything starts, and a bad one ends the hub with exit code 2 and
// one line saying what to do, never a stack trace.
// --help and --version answer and end: the settings' check below would refuse them as settings.
if (HubHelp.Asked(args) is { } answer)
{
    Console.WriteLine(answer);
    return 0;
}
var given = new ConfigurationBuilder().AddEnvironmentVariables("HUBSAMPLE_").AddCommandLine(args).Build();
// The command line's shape first: .NET drops a last flag without a value and stray words silently.
var problems = SettingsCheck.ArgumentProblems(args);
var (settings, valueProblems) = SettingsCheck.Read(given);
if (problems.Count == 0) problems.AddRange(valueProblems);
if (problems.Count == 0) problems.AddRange(SettingsCheck.ListenProblems(settings));
var azureConnectionString = AzureSignalR.ConnectionString(given, Environment.GetEnvironmentVariable);
if (problems.Count == 0 && azureConnectionString is not null && AzureSignalR.Problem(azureConnectionString) is { } azureProblem) problems.Add(azureProblem);
// A backplane Redis that does not answer would leave every instance on its own without a word.
var redisOptions = problems.Count == 0 && settings.Redis.Length > 0 ? RedisBackplane.Parse(settings.Redis).Options : null;
if (redisOptions is not null && azureConnectionString is not null) problems.Add("--Redis and --Azure:SignalR:ConnectionString do not go together: Azure SignalR Service already connects every app server to every client. Pass one of them.");
else if (redisOptions is not null && RedisBackplane.ReachProblem(redisOptions) is { } redisProblem) problems.Add(redisProblem);
// A limit on open files that leaves no room for a single connection: say so rather than serve
// nothing without a word. Counted again once the hub is built (FileLimit.cs), with what it loaded.
if (problems.Count == 0 && FileBudget.OfThisProcess() is { } earlyBudget && FileBudget.From(earlyBudget.Limit, earlyBudget.InUse + FileBudget.StartUpFiles).StartProblem() is { } filesProblem) problems.Add(filesProblem);
if (problems.Count > 0)
{
    foreach (var problem in problems) Console.Error.WriteLine(problem);
    return 2;
}
var transports = settings.TransportTypes();
var listenAddress = IPAddress.Parse(settings.Host);
var allowedHosts = HostFilter.List(settings);
var signingKey = HubAuthentication.SigningKey(settings).Key;
var restApiKey = RestApi.Key(settings).Key;
// Every path a bench client reaches (the redirect's negotiate is a test hub's).
string[] benchPaths = ["/signalrbench", "/emptyhub", "/redirecthub", "/upgraderefusedhub", "/negotiateonlyhub"];

var builder = WebApplication.CreateBuilder(new WebApplicationOptions
{
    // The dashboard folder and relative paths are resolved from where the hub is started.
    ContentRootPath = Directory.GetCurrentDirectory(),
});
// Per-request logs would cost more than the hub's own work under load (long polling makes a
// request per message) and could carry payloads: warnings only, plus the startup lines.
builder.Logging.SetMinimumLevel(LogLevel.Warning);
builder.Logging.AddFilter("Microsoft.Hosting.Lifetime", LogLevel.Information);
// The dispatcher logs every hub call that throws, with its stack trace, and clients can make it
// do so thousands of times a second; RefusalFilter counts them into one line per interval instead.
builder.Logging.AddFilter("Microsoft.AspNetCore.SignalR.Internal.DefaultHubDispatcher", LogLevel.None);
// The same for a hub's OnConnectedAsync that throws (every connection refused while the backplane
// is away): logged by the connection handler with its stack trace, counted by RefusalFilter.
builder.Logging.AddFilter("Microsoft.AspNetCore.SignalR.HubConnectionHandler", LogLevel.None);
// Microsoft's Redis backplane logs each lost connection of each hub with the library's whole
// exception; BackplaneHealth writes one line per 10 s instead, never with the password.
builder.Logging.AddFilter("Microsoft.AspNetCore.SignalR.StackExchangeRedis", LogLevel.None);
// Kestrel warns once per connection it closes beyond MaxConcurrentConnections (FileLimit.cs), thousands
// a second at the file limit; FileLimitGate counts them into one line per 10 s instead.
builder.Logging.AddFilter("Microsoft.AspNetCore.Server.Kestrel.Connections", LogLevel.Error);
builder.Logging.AddSimpleConsole(console => console.SingleLine = true);
// Set when Kestrel is configured, from the files open by then (FileLimit.cs); null without a limit.
FileLimitGate? fileLimit = null;
builder.WebHost.ConfigureKestrel(kestrel =>
{
    if (FileBudget.OfThisProcess() is { } budget)
    {
        // Never none: the check above refused to start when nothing fitted.
        budget = budget with { MaxConnections = Math.Max(1, budget.MaxConnections) };
        fileLimit = new FileLimitGate(budget, TimeProvider.System, kestrel.ApplicationServices.GetRequiredService<ILogger<FileLimitGate>>());
        kestrel.Limits.MaxConcurrentConnections = budget.MaxConnections;
        kestrel.ConfigureEndpointDefaults(listen => listen.Use(fileLimit.Count));
    }
    kestrel.Listen(listenAddress, settings.Port);
    if (settings.HttpsPort is int httpsPort)
    {
        var certificate = SelfSignedCertificate.Create(listenAddress);
        kestrel.Listen(listenAddress, httpsPort, listen =>
        {
            listen.Protocols = HttpProtocols.Http1AndHttp2;
            listen.UseHttps(certificate);
        });
    }
});
builder.Services.AddSingleton(settings);
builder.Services.AddHostFilter(allowedHosts);
builder.Services.AddSingleton<GroupLimits>();
builder.Services.AddSingleton(TimeProvider.System);
builder.Services.AddSingleton<DeliveryLimit>();
builder.Services.AddSingleton<ControlSessions>();
builder.Services.AddSingleton<ControlOutsiders>();
builder.Services.AddSingleton<RefusalLog>();
builder.Services.AddSingleton<SeenRequests>();
// The test hubs behind [Authorize] take the query's token too, for browsers' WebSockets and SSE.
if (signingKey is not null) builder.Services.AddHubAuthentication(signingKey, settings.EnableTestHubs ? [.. benchPaths, "/authchathub", "/userhub"] : benchPaths);
// Clients.User on the test hubs and the REST API's sends to a user reach the connections of the
// token's nameid or sub (RealShapeHubs.cs). Only a token names a user: a query's name would let
// any client take anyone's messages, and Azure too takes the user from the client's token alone.
if ((signingKey is not null && settings.EnableTestHubs) || restApiKey is not null) builder.Services.AddSingleton<IUserIdProvider, SubjectUserIdProvider>();
// Clients straight to a hub as to Azure SignalR Service in serverless mode, their tokens signed by the REST API's key.
if (restApiKey is not null) builder.Services.AddServerlessClients(restApiKey);
if (settings.EnableMetrics) builder.Services.AddHubMetrics(settings.InstanceNameOrDefault());
builder.Services.AddSingleton<ServerDrops>();
builder.Services.AddCors(cors => cors.AddDefaultPolicy(policy => policy
    .WithOrigins(settings.CorsOriginList())
    .AllowAnyHeader()
    .AllowAnyMethod()
    // The SignalR JS client sends credentials by default, so origins must be listed, not '*'.
    .AllowCredentials()));

var signalR = builder.Services
    .AddSignalR(hub =>
    {
        hub.MaximumReceiveMessageSize = settings.MaxMessageBytes;
        // Benchmark setting: clients see the hub's error messages, never stack traces.
        hub.EnableDetailedErrors = false;
        hub.StatefulReconnectBufferSize = settings.StatefulReconnectBufferBytes;
        hub.AddFilter<RefusalFilter>();
        // Before the counters: a connection refused for want of Redis was never open.
        if (redisOptions is not null) hub.AddFilter<BackplaneGate>();
        if (settings.EnableMetrics) hub.AddFilter<HubCounters>();
    })
    .AddMessagePackProtocol()
    .AddHubOptions<ControlHub>(hub => hub.MaximumReceiveMessageSize = settings.MaxControlMessageBytes)
    // A hub method that awaits a client's result holds its invocation until the answer comes.
    .AddHubOptions<ClientResultHub>(hub => hub.MaximumParallelInvocationsPerClient = ClientResultHub.MaxParallelInvocations);
if (azureConnectionString is not null) signalR.AddHubSampleAzureSignalR(azureConnectionString, settings);
if (redisOptions is not null) signalR.AddHubSampleRedis(redisOptions);

var app = builder.Build();
app.UseHostFilter(allowedHosts);
// First of the hub's own: a new connection over the file budget costs nothing more.
app.Use((context, next) => fileLimit is null ? next(context) : fileLimit.Gate(context, next));
// Before CORS, which browsers apply to fetch and XHR but not to WebSockets.
app.UseOriginCheck(new OriginCheck(settings.CorsOriginList(), allowedHosts), [.. benchPaths, "/control", "/testhubs", HubMetrics.Path]);
app.UseCors();
// The REST API's hubs by Azure's names, as they are mapped below.
var restHubs = new RestApiHubs().Add<BenchHub>();
// Before authentication: a client URL names its hub in the query, and routes match paths only.
if (restApiKey is not null) app.UseServerlessClients(restHubs);
if (signingKey is not null || restApiKey is not null)
{
    app.UseAuthentication();
    app.UseAuthorization();
}
// After authentication: it records the token's user, never the token.
if (settings.EnableTestHubs) app.UseSeenRequests("/signalrbench");
app.UseDashboard(settings.DashboardDir);
// With --Redis, 503 and the reason while the backplane does not answer: this instance would lose
// every message between instances, so a load balancer should send no one here.
var backplaneHealth = app.Services.GetService<BackplaneHealth>();
app.MapGet("/healthz", () => backplaneHealth?.Check() is { } lost
    ? Results.Text(lost, statusCode: StatusCodes.Status503ServiceUnavailable)
    : Results.Text("ok"));
if (settings.EnableMetrics) app.MapHubMetrics();
// The bench hub's connections, here and for its serverless clients.
void BenchConnection(HttpConnectionDispatcherOptions connection)
{
    connection.Transports = transports;
    // Benchmark setting: let one whole message (see MaxMessageBytes) sit in the pipes before
    // back-pressure starts; the 64 KB defaults would stall 256 KiB messages.
    connection.TransportMaxBufferSize = settings.MaxMessageBytes;
    connection.ApplicationMaxBufferSize = settings.MaxMessageBytes;
    connection.AllowStatefulReconnects = settings.AllowStatefulReconnects;
}
var benchHub = app.MapHub<BenchHub>("/signalrbench", connection =>
{
    BenchConnection(connection);
    // A connection whose token expires is closed, as a deployed hub would; the client's reconnect
    // then meets the 401. (A serverless client's token is checked when it connects, as Azure does.)
    connection.CloseOnAuthenticationExpiration = signingKey is not null && settings.CloseOnTokenExpiry;
});
if (signingKey is not null) benchHub.RequireAuthorization();

if (settings.EnableControlHub)
{
    // MapHub, with a connection middleware in front of the hub that bounds connections outside a session.
    var outsiders = app.Services.GetRequiredService<ControlOutsiders>();
    app.MapConnections("/control", new HttpConnectionDispatcherOptions(), control => control
        .Use(outsiders.Gate)
        .UseHub<ControlHub>());
}

if (settings.EnableTestHubs)
{
    var emptyHub = app.MapHub<EmptyHub>("/emptyhub");
    if (signingKey is not null) emptyHub.RequireAuthorization();
    restHubs.Add<EmptyHub>().Add<ChatHub>().Add<RequestResponseHub>().Add<WrapChatHub>().Add<ObjectChatHub>()
        .Add<StreamHub>().Add<ClientResultHub>().Add<ListHub>();
    if (signingKey is not null) restHubs.Add<AuthorizedChatHub>().Add<UserHub>();
    // Hubs of real services' shapes, for hub profiles (ProfileTestHubs.cs).
    app.MapHub<ChatHub>("/chathub");
    app.MapHub<RequestResponseHub>("/requesthub");
    if (signingKey is not null) app.MapHub<AuthorizedChatHub>("/authchathub");
    // Hubs of public samples' shapes: wrapped text, objects, streams, client results, lists and users (RealShapeHubs.cs).
    app.MapHub<WrapChatHub>("/wrapchathub");
    app.MapHub<ObjectChatHub>("/objectchathub");
    app.MapHub<StreamHub>("/streamhub");
    app.MapHub<ClientResultHub>("/clientresulthub");
    app.MapHub<ListHub>("/listhub");
    if (signingKey is not null) app.MapHub<UserHub>("/userhub");
    app.MapAuthTestEndpoints("/signalrbench", signingKey);
    app.MapUpgradeRefusingHub("/upgraderefusedhub");
    app.MapNegotiateOnlyHub("/negotiateonlyhub");
}

if (restApiKey is not null)
{
    app.MapRestApi(restApiKey, restHubs);
    app.MapServerlessClients(restHubs, BenchConnection);
}

app.Lifetime.ApplicationStarted.Register(() =>
{
    var addresses = app.Services.GetRequiredService<IServer>().Features.Get<IServerAddressesFeature>()?.Addresses;
    Console.WriteLine(HubHelp.StartLine());
    foreach (var address in addresses ?? [])
    {
        // Tests and scripts read this line to find the port; keep its shape.
        Console.WriteLine($"SignalR Live Bench hub listening on {address}");
        Console.WriteLine($"  dashboard: {address}/");
        Console.WriteLine($"  hub:       {address}/signalrbench");
    }
    Console.WriteLine($"  answers to: {string.Join(", ", allowedHosts)} (--AllowedHosts; other names get 400)");
    if (fileLimit is not null) Console.WriteLine(fileLimit.Budget.StartLine());
    if (signingKey is not null) Console.WriteLine("  bench hubs need a JWT bearer token (--RequireAuth)");
    if (restApiKey is not null) Console.WriteLine($"  REST API (Azure SignalR's v1, --EnableRestApi): POST {RestApi.PathPrefix}/{{hub}}[/users/{{user}}|/groups/{{group}}] for hubs {string.Join(", ", restHubs.Names)}");
    if (restApiKey is not null) Console.WriteLine($"  serverless clients (as Azure SignalR Service's): {ServerlessClients.PathPrefix}/?hub={{hub}}, with a client token signed by the REST API key (aud the client URL, exp; nameid the user)");
    if (azureConnectionString is not null) Console.WriteLine("  hubs run through Azure SignalR Service (--Azure:SignalR:ConnectionString)");
    Console.WriteLine(redisOptions is not null
        ? $"  backplane: Redis at {RedisBackplane.Describe(redisOptions)} (--Redis), shared with every hub-sample on it; this instance: {settings.InstanceNameOrDefault()}"
        : $"  backplane: none, one process (--Redis shares groups and broadcasts between instances); instance: {settings.InstanceNameOrDefault()}");
});

app.Lifetime.ApplicationStopped.Register(() => fileLimit?.Dispose());
try
{
    app.Run();
}
catch (IOException error) when (error.InnerException is AddressInUseException)
{
    // Taken between the check above and the start: the same one line as the check gives.
    Console.Error.WriteLine($"{error.Message} Stop the program using it, or pass another --port or --HttpsPort (0 picks a free one).");
    return 2;
}
return 0;
