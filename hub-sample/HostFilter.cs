using System.Net;
using System.Net.NetworkInformation;
using Microsoft.AspNetCore.HostFiltering;
using Microsoft.Extensions.Primitives;

namespace HubSample;

/// <summary>
/// The names the hub answers to (<c>--AllowedHosts</c>), enforced by ASP.NET Core's host
/// filtering on every request (400 "Invalid Hostname" for any other <c>Host</c>) and used by
/// <see cref="OriginCheck"/> for "the hub's own origin". Without it, a page on an attacker's name
/// that resolves to this machine (DNS rebinding) sends <c>Host: evil.example</c> and
/// <c>Origin: http://evil.example</c>, which look like the hub's own page to a check that trusts
/// <c>Host</c>. Entries are matched as ASP.NET Core matches them: a name or address without a
/// port, <c>*.example.com</c> for its subdomains, <c>*</c> for any name (the check off).
/// </summary>
public static class HostFilter
{
    /// <summary>Names every hub answers to, whatever it listens on: this machine's loopback.</summary>
    private static readonly string[] Loopback = ["localhost", "127.0.0.1", "[::1]"];

    /// <summary>The hosts given, or the default: the address the hub listens on and the loopback
    /// names; listening on every interface (0.0.0.0 or ::) adds this machine's addresses and name.</summary>
    public static string[] List(HubSettings settings)
    {
        var given = Split(settings.AllowedHosts);
        if (given.Length > 0) return given;
        var listen = IPAddress.Parse(settings.Host);
        var hosts = new List<string>(Loopback) { Written(listen) };
        if (listen.Equals(IPAddress.Any) || listen.Equals(IPAddress.IPv6Any))
        {
            hosts.Add(Dns.GetHostName());
            hosts.AddRange(MachineAddresses().Select(Written));
        }
        return hosts.Where(h => h is not ("0.0.0.0" or "[::]")).Distinct(StringComparer.OrdinalIgnoreCase).ToArray();
    }

    /// <summary>Whether <paramref name="host"/> (a Host value, its port ignored; IPv6 in brackets) is one of <paramref name="allowed"/>.</summary>
    public static bool Allows(IReadOnlyList<string> allowed, string host) =>
        allowed.Contains("*") || HostString.MatchesAny(new StringSegment(host), allowed.Select(a => new StringSegment(a)).ToList());

    /// <summary>What is wrong with one entry of --AllowedHosts, or null.</summary>
    public static string? Problem(string entry)
    {
        var shown = RefusalLog.Printable(entry, 60);
        if (entry.Contains("://") || entry.Contains('/'))
        {
            return $"--AllowedHosts: '{shown}' is not a host name. Write names without scheme or path, such as bench.example,localhost (comma separated).";
        }
        var host = new HostString(entry);
        if (host.Port is not null || (entry.Contains(':') && !entry.StartsWith('[')))
        {
            return $"--AllowedHosts: '{shown}' has a port, but hosts are matched without one (any port of an allowed name passes): write '{RefusalLog.Printable(host.Host, 60)}'; an IPv6 address goes in brackets, such as [::1].";
        }
        if (entry.Any(c => char.IsWhiteSpace(c) || char.IsControl(c)))
        {
            return $"--AllowedHosts: '{shown}' is not a host name: names have no spaces. Separate them with commas.";
        }
        return null;
    }

    /// <summary>ASP.NET Core's host filtering with <paramref name="hosts"/>. The web host's
    /// defaults put its middleware first of all, where a refusal leaves no trace in the hub's
    /// log; it is taken out there and placed by <see cref="UseHostFilter"/> instead.</summary>
    public static IServiceCollection AddHostFilter(this IServiceCollection services, string[] hosts)
    {
        var defaults = services.Where(d => d.ServiceType == typeof(IStartupFilter) && d.ImplementationType?.Name == "HostFilteringStartupFilter").ToList();
        foreach (var descriptor in defaults) services.Remove(descriptor);
        return services.Configure<HostFilteringOptions>(filter =>
        {
            filter.AllowedHosts = hosts;
            // HTTP/1.0 clients may leave Host out; browsers never do, so nothing hostile passes.
            filter.AllowEmptyHosts = true;
        });
    }

    /// <summary>The host filter as the pipeline's first step, each refusal counted in the
    /// <see cref="RefusalLog"/> (a name missing from --AllowedHosts shows in the hub's log).</summary>
    public static WebApplication UseHostFilter(this WebApplication app, string[] hosts)
    {
        var refusals = app.Services.GetRequiredService<RefusalLog>();
        app.Use((context, next) =>
        {
            var host = context.Request.Host;
            if (host.HasValue && !Allows(hosts, host.Value)) refusals.Count("a request for a name the hub does not answer to (400, --AllowedHosts)", host.Value);
            return next(context);
        });
        app.UseHostFiltering();
        return app;
    }

    public static string[] Split(string text) =>
        text.Split([',', ';'], StringSplitOptions.RemoveEmptyEntries | StringSplitOptions.TrimEntries);

    private static string Written(IPAddress address) =>
        address.AddressFamily == System.Net.Sockets.AddressFamily.InterNetworkV6 ? $"[{address}]" : address.ToString();

    private static IEnumerable<IPAddress> MachineAddresses()
    {
        try
        {
            return NetworkInterface.GetAllNetworkInterfaces()
                .SelectMany(i => i.GetIPProperties().UnicastAddresses)
                .Select(u => u.Address)
                // Link-local IPv6 addresses need a zone, which no Host header carries.
                .Where(a => a.AddressFamily != System.Net.Sockets.AddressFamily.InterNetworkV6 || a.ScopeId == 0);
        }
        catch (NetworkInformationException)
        {
            return [];
        }
    }
}
