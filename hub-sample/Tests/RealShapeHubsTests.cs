using System.Buffers;
using System.Security.Claims;
using System.Text;
using System.Threading.Channels;
using Microsoft.AspNetCore.Connections;
using Microsoft.AspNetCore.SignalR;
using Microsoft.AspNetCore.SignalR.Protocol;
using Microsoft.Extensions.Logging.Abstractions;
using Microsoft.Extensions.Options;

namespace HubSample.Tests;

/// <summary>
/// The test hubs of public samples' shapes (RealShapeHubs.cs) keep the contracts the tool's hub
/// profiles are tested against: where each puts the caller's text, and to whom.
/// </summary>
public class RealShapeHubsTests
{
    /// <summary>One hub send: to whom ("all", "caller", "user:ann", ...), the client method, its arguments.</summary>
    private sealed record Sent(string To, string Method, object?[] Args);

    /// <summary>Every Clients.* proxy records what is sent through it; a client asked for a result answers <paramref name="answer"/>.</summary>
    private sealed class Recorder(string answer = "") : IHubCallerClients
    {
        public List<Sent> Sends { get; } = [];

        private sealed class Proxy(Recorder recorder, string to) : ISingleClientProxy
        {
            public Task SendCoreAsync(string method, object?[] args, CancellationToken cancellationToken = default)
            {
                lock (recorder.Sends) recorder.Sends.Add(new Sent(to, method, args));
                return Task.CompletedTask;
            }

            public Task<T> InvokeCoreAsync<T>(string method, object?[] args, CancellationToken cancellationToken = default)
            {
                lock (recorder.Sends) recorder.Sends.Add(new Sent($"invoke {to}", method, args));
                return Task.FromResult((T)(object)recorder._answer);
            }
        }

        private readonly string _answer = answer;
        private Proxy To(string to) => new(this, to);

        public ISingleClientProxy Caller => To("caller");
        public IClientProxy Others => To("others");
        public IClientProxy All => To("all");
        public IClientProxy AllExcept(IReadOnlyList<string> excludedConnectionIds) => To($"all except {string.Join(",", excludedConnectionIds)}");
        public ISingleClientProxy Client(string connectionId) => To($"client:{connectionId}");
        public IClientProxy Clients(IReadOnlyList<string> connectionIds) => To($"clients:{string.Join(",", connectionIds)}");
        public IClientProxy Group(string groupName) => To($"group:{groupName}");
        public IClientProxy Groups(IReadOnlyList<string> groupNames) => To($"groups:{string.Join(",", groupNames)}");
        public IClientProxy GroupExcept(string groupName, IReadOnlyList<string> excludedConnectionIds) => To($"group:{groupName} except {string.Join(",", excludedConnectionIds)}");
        public IClientProxy OthersInGroup(string groupName) => To($"others in group:{groupName}");
        public IClientProxy User(string userId) => To($"user:{userId}");
        public IClientProxy Users(IReadOnlyList<string> userIds) => To($"users:{string.Join(",", userIds)}");
        IClientProxy IHubCallerClients<IClientProxy>.Caller => Caller;
        IClientProxy IHubClients<IClientProxy>.Client(string connectionId) => Client(connectionId);
    }

    private sealed class Caller(string id) : HubCallerContext
    {
        public override string ConnectionId => id;
        public override string? UserIdentifier => null;
        public override ClaimsPrincipal? User => null;
        public override IDictionary<object, object?> Items { get; } = new Dictionary<object, object?>();
        public override Microsoft.AspNetCore.Http.Features.IFeatureCollection Features { get; } = new Microsoft.AspNetCore.Http.Features.FeatureCollection();
        public override CancellationToken ConnectionAborted => CancellationToken.None;
        public override void Abort() { }
    }

    private static (T Hub, Recorder Sent) Make<T>(string answer = "") where T : Hub, new()
    {
        var recorder = new Recorder(answer);
        return (new T { Clients = recorder, Context = new Caller("caller-1") }, recorder);
    }

    private static string Only(Recorder recorder)
    {
        var sent = Assert.Single(recorder.Sends);
        return $"{sent.To} {sent.Method} {string.Join("|", sent.Args)}";
    }

    [Fact]
    public async Task TheWrappingChatPutsTheTextAfterTheNameBeforeTheEchoNoteOrCutsItsLast10Characters()
    {
        var (hub, sent) = Make<WrapChatHub>();
        await hub.Send("ann", "text-1");
        Assert.Equal("all Send ann: text-1", Only(sent));
        Assert.Equal("Echo: text-2", hub.Echo("text-2"));
        sent.Sends.Clear();
        await hub.EchoBack("text-3");
        Assert.Equal("caller Echo text-3 (echo from server)", Only(sent));
        sent.Sends.Clear();
        await hub.SendTruncated("0123456789abcdefghij");
        await hub.SendTruncated("short");
        Assert.Equal(["0123456789", ""], sent.Sends.Select(s => (string)s.Args[0]!));
        Assert.All(sent.Sends, s => Assert.Equal(("caller", "Truncated"), (s.To, s.Method)));
    }

    [Fact]
    public void TheObjectMessageIsCamelCasedByJsonAndKeepsItsNamesInMessagePack()
    {
        // A target without "message" in it, so only the object's member names can hold it.
        var invocation = new InvocationMessage("Receive", [new ChatMessage("ann", "text-1")]);
        var json = Encoding.UTF8.GetString(Write(new JsonHubProtocol(), invocation));
        Assert.Contains("\"arguments\":[{\"user\":\"ann\",\"message\":\"text-1\"}]", json);
        // MessagePack writes a map of the member names as declared.
        var messagePack = Write(new MessagePackHubProtocol(), invocation);
        var text = Encoding.UTF8.GetString(messagePack);
        Assert.Contains("User", text);
        Assert.Contains("Message", text);
        Assert.DoesNotContain("message", text);
    }

    private static byte[] Write(IHubProtocol protocol, HubMessage message)
    {
        var buffer = new ArrayBufferWriter<byte>();
        protocol.WriteMessage(message, buffer);
        return buffer.WrittenSpan.ToArray();
    }

    [Fact]
    public async Task TheObjectChatSendsOneObjectToAllFromTwoStringsOrAsGiven()
    {
        var (hub, sent) = Make<ObjectChatHub>();
        await hub.SendMessage("ann", "text-1");
        await hub.SendObject(new ChatMessage("bob", "text-2"));
        Assert.Equal([new Sent("all", "ReceiveMessage", [new ChatMessage("ann", "text-1")]), new Sent("all", "ReceiveMessage", [new ChatMessage("bob", "text-2")])],
            sent.Sends, (a, b) => a.To == b.To && a.Method == b.Method && a.Args.SequenceEqual(b.Args));
    }

    [Fact]
    public async Task TheStreamsEchoEachItemRepeatOnceSendEachUploadedWordAndCountInInts()
    {
        var (hub, sent) = Make<StreamHub>();
        var source = Channel.CreateUnbounded<string>();
        var echo = hub.StreamEcho(source.Reader);
        await source.Writer.WriteAsync("one");
        await source.Writer.WriteAsync("two");
        source.Writer.Complete();
        Assert.Equal(["one", "two"], await echo.ReadAllAsync().ToListAsync());

        Assert.Equal(["text-1"], await hub.Repeat("text-1", CancellationToken.None).ToListAsync());

        await hub.UploadWords(new[] { "w1", "w2" }.ToAsyncEnumerable());
        Assert.Equal(["caller Word w1", "caller Word w2"], sent.Sends.Select(s => $"{s.To} {s.Method} {s.Args[0]}"));

        Assert.Equal([0, 1, 2], await hub.Counter(3, 0, CancellationToken.None).ReadAllAsync().ToListAsync());
    }

    [Fact]
    public async Task TheClientResultHubAsksTheNamedConnectionOrTheCallerAndWrapsTheAnswer()
    {
        var (hub, sent) = Make<ClientResultHub>("answer-1");
        Assert.Equal("From conn-b: answer-1", await hub.GetMessage("conn-b"));
        Assert.Equal("From caller-1: answer-1", await hub.GetMessageFromCaller());
        Assert.Equal(["invoke client:conn-b GetMessage 0", "invoke caller GetMessage 0"], sent.Sends.Select(s => $"{s.To} {s.Method} {s.Args.Length}"));
        // Awaiting a client inside a hub method needs more than SignalR's default of 1 in flight.
        Assert.True(ClientResultHub.MaxParallelInvocations > 1);
    }

    [Fact]
    public async Task ListsAndUsersAreSentToAsGiven()
    {
        var (lists, sentToLists) = Make<ListHub>();
        await lists.SendToGroups(["g0", "g1"], "text-1");
        await lists.SendToGroupExcept("g0", ["conn-a"], "text-2");
        Assert.Equal(["groups:g0,g1 ReceiveMessage text-1", "group:g0 except conn-a ReceiveMessage text-2"], sentToLists.Sends.Select(s => $"{s.To} {s.Method} {s.Args[0]}"));

        var (users, sentToUsers) = Make<UserHub>();
        await users.SendToUser("ann", "text-3");
        await users.SendToUsers(["ann", "bob"], "text-4");
        Assert.Equal(["user:ann ReceiveMessage text-3", "users:ann,bob ReceiveMessage text-4"], sentToUsers.Sends.Select(s => $"{s.To} {s.Method} {s.Args[0]}"));
    }

    [Fact]
    public void TheUserOfAConnectionIsItsTokensSubWhichSignalRsDefaultDoesNotRead()
    {
        static HubConnectionContext Connection(params Claim[] claims) => new(
            new DefaultConnectionContext("c") { User = new ClaimsPrincipal(new ClaimsIdentity(claims, "Bearer")) },
            new HubConnectionContextOptions { KeepAliveInterval = TimeSpan.FromSeconds(15), ClientTimeoutInterval = TimeSpan.FromSeconds(30) },
            NullLoggerFactory.Instance);
        var provider = new SubjectUserIdProvider();
        Assert.Equal("ann", provider.GetUserId(Connection(new Claim("sub", "ann"))));
        Assert.Null(new DefaultUserIdProvider().GetUserId(Connection(new Claim("sub", "ann"))));
        Assert.Equal("bob", provider.GetUserId(Connection(new Claim(ClaimTypes.NameIdentifier, "bob"))));
        Assert.Null(provider.GetUserId(Connection()));
    }
}
