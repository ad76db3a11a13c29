using System.Globalization;
using System.Net;
using System.Net.Sockets;
using System.Reflection;

namespace HubSample;

/// <summary>
/// Reads <see cref="HubSettings"/> from the command line and <c>HUBSAMPLE_</c> variables and says
/// everything that is wrong with them before the hub starts, one line per problem (what is
/// wrong, what is allowed, what to do), instead of an unhandled exception from deep inside
/// configuration binding or Kestrel. Names that are not settings are refused too: a misspelt
/// setting, or <c>--urls</c>, would otherwise be ignored without a word.
/// </summary>
public static class SettingsCheck
{
    private static readonly Dictionary<string, PropertyInfo> Settings = typeof(HubSettings)
        .GetProperties().Where(p => p.CanWrite).ToDictionary(p => p.Name, StringComparer.OrdinalIgnoreCase);

    /// <summary>Whole-number settings: allowed range and what the range means.</summary>
    internal static readonly Dictionary<string, (long Min, long Max, string Note)> Ranges = new(StringComparer.OrdinalIgnoreCase)
    {
        [nameof(HubSettings.Port)] = (0, 65535, " (0 picks a free port)"),
        [nameof(HubSettings.HttpsPort)] = (0, 65535, " (0 picks a free port)"),
        [nameof(HubSettings.MaxMessageBytes)] = (1024, 1 << 30, " bytes"),
        [nameof(HubSettings.MaxGroupNameLength)] = (1, 10_000, " characters"),
        [nameof(HubSettings.MaxGroupsPerConnection)] = (1, 100_000, ""),
        // Dashboards and agents send long texts in pieces of up to 48,000 bytes plus the envelope.
        [nameof(HubSettings.MaxControlMessageBytes)] = (64 * 1024, 1 << 30, " bytes (agents send pieces of up to 48,000 bytes plus the envelope)"),
        [nameof(HubSettings.MaxControlOutsiders)] = (1, 1_000_000, ""),
        [nameof(HubSettings.ControlJoinSeconds)] = (1, 3_600, " seconds"),
        [nameof(HubSettings.MaxControlSessions)] = (1, 100_000, ""),
        [nameof(HubSettings.MaxAgentsPerSession)] = (1, 100_000, ""),
        [nameof(HubSettings.TestMessageRateLimit)] = (0, 10_000_000, " messages per second (0: off)"),
        // Held per stateful connection: 64 MiB each would let 100 clients take 6 GB.
        [nameof(HubSettings.StatefulReconnectBufferBytes)] = (1024, 16 * 1024 * 1024, " bytes per stateful connection"),
    };

    /// <summary>The settings given in <paramref name="given"/> over the defaults, and every problem found.</summary>
    public static (HubSettings Settings, List<string> Problems) Read(IConfiguration given)
    {
        var settings = new HubSettings();
        var problems = new List<string>();
        foreach (var entry in given.GetChildren())
        {
            if (entry.Key.Equals("Azure", StringComparison.OrdinalIgnoreCase))
            {
                // Azure SignalR Service's own setting name (AzureSignalR.cs), and only that one.
                var connectionString = entry.GetSection("SignalR:ConnectionString");
                var others = entry.AsEnumerable(makePathsRelative: true).Where(pair => pair.Value is not null && !pair.Key.Equals("SignalR:ConnectionString", StringComparison.OrdinalIgnoreCase));
                if (others.Any() || connectionString.Value is null)
                {
                    problems.Add("Of Azure's settings this hub takes only --Azure:SignalR:ConnectionString <connection string>: check the spelling.");
                }
                else if (AzureSignalR.Problem(connectionString.Value) is { } azureProblem)
                {
                    problems.Add(azureProblem);
                }
            }
            else if (entry.Key.Equals("urls", StringComparison.OrdinalIgnoreCase))
            {
                problems.Add("--urls is not used by this hub: it listens on --host and --port (and --HttpsPort for HTTPS). Pass those instead.");
            }
            else if (!Settings.TryGetValue(entry.Key, out var property) || entry.Value is null)
            {
                problems.Add($"--{RefusalLog.Printable(entry.Key, 40)} is not a setting of this hub. The settings are {string.Join(", ", Settings.Keys.Select(Flag))}: check the spelling.");
            }
            else if (Parse(property.PropertyType, entry.Value) is { } value)
            {
                property.SetValue(settings, value);
            }
            else
            {
                problems.Add(Expected(property, entry.Value));
            }
        }
        foreach (var (name, (min, max, _)) in Ranges)
        {
            if (Settings[name].GetValue(settings) is not { } number) continue;
            var n = Convert.ToInt64(number, CultureInfo.InvariantCulture);
            if (n < min || n > max) problems.Add(Expected(Settings[name], n.ToString(CultureInfo.InvariantCulture)));
        }
        if (!IPAddress.TryParse(settings.Host, out _))
        {
            problems.Add($"--host is '{RefusalLog.Printable(settings.Host, 60)}', but must be an IP address of this machine: pass --host 127.0.0.1 (this machine only) or 0.0.0.0 (every interface).");
        }
        if (settings.HttpsPort is int https && https != 0 && https == settings.Port)
        {
            problems.Add($"--HttpsPort is {https}, the same port as --port: pass another port for one of them (0 picks a free one).");
        }
        if (settings.TestMessageRateLimit != 0 && !settings.EnableTestHubs)
        {
            problems.Add("--TestMessageRateLimit makes the hub deliver late on purpose, for this tool's tests only, and is refused unless --EnableTestHubs true is given too: drop it to measure the hub, or add --EnableTestHubs true in a test.");
        }
        if (settings.Redis.Length > 0 && RedisBackplane.Parse(settings.Redis).Problem is { } redisProblem) problems.Add(redisProblem);
        if (settings.InstanceName.Length > 100 || settings.InstanceName.Any(char.IsControl))
        {
            problems.Add($"--InstanceName is '{RefusalLog.Printable(settings.InstanceName, 40)}', but must be at most 100 printable characters: pass a short name such as hub-1.");
        }
        if (HubAuthentication.SigningKey(settings).Problem is { } keyProblem) problems.Add(keyProblem);
        if (RestApi.Key(settings).Problem is { } restKeyProblem) problems.Add(restKeyProblem);
        try
        {
            settings.TransportTypes();
        }
        catch (ArgumentException error)
        {
            problems.Add(error.Message);
        }
        problems.AddRange(settings.CorsOriginList().Select(CorsProblem).OfType<string>());
        problems.AddRange(HostFilter.Split(settings.AllowedHosts).Select(HostFilter.Problem).OfType<string>());
        return (settings, problems);
    }

    /// <summary>Flags whose value is a secret: a problem with the word after them never quotes it.</summary>
    private static readonly string[] SecretFlags = [$"--{nameof(HubSettings.RestApiKey)}", $"--{nameof(HubSettings.JwtSigningKey)}"];

    /// <summary>What is wrong with the command line's shape: .NET's command-line configuration
    /// drops a last <c>--Name</c> with no value, words that are not <c>--Name</c>, and single-dash
    /// names without a word, so a hub started with <c>--EnableServerDrops</c> at the end would run
    /// without it. Each setting is <c>--Name value</c> or <c>--Name=value</c>.</summary>
    public static List<string> ArgumentProblems(IReadOnlyList<string> args)
    {
        var problems = new List<string>();
        for (var i = 0; i < args.Count; i++)
        {
            var arg = args[i];
            var shown = RefusalLog.Printable(arg, 40);
            if (!arg.StartsWith("--") && !arg.StartsWith('/'))
            {
                problems.Add(arg.StartsWith('-')
                    ? $"'{shown}' is not a setting: settings start with two dashes, such as --port 6000 or --EnableServerDrops true."
                    : $"'{shown}' is not a setting nor the value of one: give each setting as --Name value or --Name=value, such as --EnableServerDrops true.");
                continue;
            }
            if (arg.Contains('=')) continue;
            if (i + 1 >= args.Count || args[i + 1].StartsWith("--"))
            {
                if (i + 1 < args.Count && SecretFlags.Contains(arg, StringComparer.OrdinalIgnoreCase))
                {
                    // The word after a key's flag may be the key itself, starting with dashes: never shown.
                    problems.Add($"{shown} is followed by a word starting with '--', which cannot be told from a setting: give the key as {shown}=<key>, or in a file ({shown}File <file>). The word is not repeated here.");
                    i += 1;
                    continue;
                }
                problems.Add($"{shown} has no value: give one after it, such as {shown} true or {shown} 6000 (or {shown}=value).");
                continue;
            }
            i += 1;
        }
        return problems;
    }

    /// <summary>Why the hub cannot listen on its ports, tried before it starts: a busy port, a
    /// port below 1024 without the privilege, or an address this machine does not have.</summary>
    public static IEnumerable<string> ListenProblems(HubSettings settings)
    {
        var address = IPAddress.Parse(settings.Host);
        var ports = new List<(string Flag, int Port)> { ("--port", settings.Port) };
        if (settings.HttpsPort is int https) ports.Add(("--HttpsPort", https));
        foreach (var (flag, port) in ports.Where(p => p.Port != 0))
        {
            var listener = new TcpListener(address, port);
            string? problem = null;
            try
            {
                listener.Start();
            }
            catch (SocketException error)
            {
                problem = error.SocketErrorCode switch
                {
                    SocketError.AddressAlreadyInUse => $"{flag} {port} is already in use by another program on {address}: stop that program, or pass another {flag} (0 picks a free one).",
                    SocketError.AccessDenied => $"{flag} {port} needs privileges this process does not have: pass a port from 1024 up (0 picks a free one).",
                    SocketError.AddressNotAvailable => $"--host {address} is not an address of this machine: pass --host 127.0.0.1, 0.0.0.0 or one of its addresses.",
                    _ => $"{flag} {port} on {address} cannot be listened on ({error.SocketErrorCode}): pass another {flag} or --host.",
                };
            }
            finally
            {
                listener.Stop();
            }
            if (problem is not null) yield return problem;
        }
    }

    private static string? CorsProblem(string origin)
    {
        if (origin == "*")
        {
            return "--CorsOrigins '*' would let every site's pages use the hub, and browsers refuse '*' with the credentials the SignalR client sends: list the origins that may, comma separated, such as https://dash.example,http://localhost:5173.";
        }
        if (OriginCheck.Normalize(origin) is null || origin.EndsWith('/'))
        {
            return $"--CorsOrigins: '{RefusalLog.Printable(origin, 60)}' is not an origin. Write each as scheme://host[:port] with no path, such as http://localhost:5173, comma separated.";
        }
        return null;
    }

    private static object? Parse(Type type, string text)
    {
        var target = Nullable.GetUnderlyingType(type) ?? type;
        if (target == typeof(string)) return text;
        if (target == typeof(bool)) return bool.TryParse(text, out var flag) ? flag : null;
        if (target == typeof(int)) return int.TryParse(text, NumberStyles.Integer, CultureInfo.InvariantCulture, out var i) ? i : null;
        if (target == typeof(long)) return long.TryParse(text, NumberStyles.Integer, CultureInfo.InvariantCulture, out var l) ? l : null;
        return null;
    }

    private static string Expected(PropertyInfo property, string given)
    {
        var flag = Flag(property.Name);
        var shown = RefusalLog.Printable(given, 40);
        if (Ranges.TryGetValue(property.Name, out var range))
        {
            return $"{flag} is '{shown}', but must be a whole number from {range.Min} to {range.Max}{range.Note}: pass {flag} with such a number.";
        }
        return $"{flag} is '{shown}', but must be true or false: pass {flag} true or {flag} false.";
    }

    /// <summary>The README's spelling: <c>--host</c> and <c>--port</c> in lower case, the rest as named.</summary>
    internal static string Flag(string name) =>
        name is nameof(HubSettings.Host) or nameof(HubSettings.Port) ? $"--{name.ToLowerInvariant()}" : $"--{name}";
}
