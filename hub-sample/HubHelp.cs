using System.Globalization;
using System.Reflection;

namespace HubSample;

/// <summary>
/// <c>--help</c> and <c>--version</c>: the hub's version (the csproj's &lt;Version&gt;, which a unit
/// test keeps equal to package.json's) and every setting of <see cref="HubSettings"/> with what it
/// takes and its default, read from the settings themselves so the list cannot fall behind them.
/// </summary>
public static class HubHelp
{
    /// <summary>This build's version, as the start-up line and <c>--version</c> say it.</summary>
    public static string Version { get; } =
        typeof(HubHelp).Assembly.GetCustomAttribute<AssemblyInformationalVersionAttribute>()?.InformationalVersion
        ?? typeof(HubHelp).Assembly.GetName().Version?.ToString(3) ?? "unknown";

    /// <summary>The first start-up line: which hub this is, on which runtime.</summary>
    public static string StartLine() => $"SignalR Live Bench hub-sample {Version} (.NET {Environment.Version}, ASP.NET Core SignalR)";

    /// <summary>Whether the command line asks for the help or the version, not for a hub.</summary>
    public static string? Asked(IReadOnlyList<string> args) =>
        args.Any(arg => arg is "--help" or "-h" or "-?" or "/?") ? Text()
        : args.Any(arg => arg is "--version") ? $"signalr-bench-hub {Version}"
        : null;

    public static string Text()
    {
        var defaults = new HubSettings();
        var settings = typeof(HubSettings).GetProperties().Where(p => p.CanWrite).ToList();
        var rows = settings.Select(p => (Flag: $"{SettingsCheck.Flag(p.Name)} {Takes(p)}", Default: Shown(p, p.GetValue(defaults)))).ToList();
        var width = rows.Max(row => row.Flag.Length) + 2;
        var lines = new List<string>
        {
            $"SignalR Live Bench hub-sample {Version}: the benchmark's hub at /signalrbench, the control hub at /control,",
            "/metrics and /healthz, and the dashboard from --DashboardDir.",
            "",
            "Usage: signalr-bench-hub [--Name value]...   (from the repository: node scripts/hub.mjs [--Name value]...)",
            "",
            "Each setting is --Name value or --Name=value, or the environment variable HUBSAMPLE_<NAME>",
            "(HUBSAMPLE_PORT=6000); the command line wins. Every one is checked before the hub starts.",
            "",
            "Settings (default):",
        };
        lines.AddRange(rows.Select(row => $"  {row.Flag.PadRight(width)}{row.Default}"));
        lines.Add($"  {"--Azure:SignalR:ConnectionString <text>".PadRight(width)}(none: the hubs run in this process)");
        lines.Add($"  {"--help".PadRight(width)}this text");
        lines.Add($"  {"--version".PadRight(width)}the version");
        lines.Add("");
        lines.Add("What each setting does: docs/hub-sample.md. Exit codes: 0 stopped, 2 a setting is wrong or the open-files limit (ulimit -n) leaves no room for a connection (one line each says what to do).");
        return string.Join(Environment.NewLine, lines);
    }

    private static string Takes(PropertyInfo property)
    {
        var type = Nullable.GetUnderlyingType(property.PropertyType) ?? property.PropertyType;
        if (type == typeof(bool)) return "true|false";
        if (SettingsCheck.Ranges.TryGetValue(property.Name, out var range)) return $"<{range.Min}-{range.Max}>";
        if (property.Name == nameof(HubSettings.Host)) return "<IP address>";
        return type == typeof(string) ? "<text>" : "<number>";
    }

    private static string Shown(PropertyInfo property, object? value) => value switch
    {
        null => "(none)",
        bool flag => flag ? "true" : "false",
        string text when text.Length == 0 => "(none)",
        // A key is a secret even as a default: never printed.
        string when property.Name is nameof(HubSettings.JwtSigningKey) or nameof(HubSettings.RestApiKey) => "(set)",
        IFormattable number => number.ToString(null, CultureInfo.InvariantCulture),
        _ => value.ToString() ?? "",
    };
}
