using System.Net;
using System.Security.Cryptography;
using System.Security.Cryptography.X509Certificates;

namespace HubSample;

/// <summary>
/// A throw-away certificate for the optional HTTPS listener. HTTPS is there for HTTP/2: over
/// HTTP/1.1 a browser allows only 6 connections per origin, so Server-Sent Events and long
/// polling cannot hold more than a handful of benchmark connections; over HTTP/2 they share one
/// TCP connection. Browsers will not trust it: accept it once, or start Chromium with
/// --ignore-certificate-errors for automated runs.
/// </summary>
public static class SelfSignedCertificate
{
    public static X509Certificate2 Create(IPAddress listenAddress)
    {
        using var key = ECDsa.Create(ECCurve.NamedCurves.nistP256);
        var request = new CertificateRequest("CN=SignalR Live Bench hub-sample", key, HashAlgorithmName.SHA256);
        var names = new SubjectAlternativeNameBuilder();
        names.AddDnsName("localhost");
        names.AddIpAddress(IPAddress.Loopback);
        names.AddIpAddress(IPAddress.IPv6Loopback);
        if (!IPAddress.Any.Equals(listenAddress) && !IPAddress.Loopback.Equals(listenAddress))
        {
            names.AddIpAddress(listenAddress);
        }
        request.CertificateExtensions.Add(names.Build());
        request.CertificateExtensions.Add(new X509KeyUsageExtension(X509KeyUsageFlags.DigitalSignature, critical: true));
        request.CertificateExtensions.Add(new X509EnhancedKeyUsageExtension([new Oid("1.3.6.1.5.5.7.3.1")], critical: false));
        using var certificate = request.CreateSelfSigned(DateTimeOffset.UtcNow.AddDays(-1), DateTimeOffset.UtcNow.AddDays(30));
        // Re-import so the private key is usable by the TLS stack on every platform.
        return X509CertificateLoader.LoadPkcs12(certificate.Export(X509ContentType.Pfx), password: null);
    }
}
