using System.Text;

namespace HubSample;

/// <summary>The words of one HMAC key's flags: the pair that gives it (inline or a file's first
/// line), the setting that turns on what it signs, and how the refusals name it.</summary>
/// <param name="Inline">The flag that takes the key itself, e.g. "--JwtSigningKey".</param>
/// <param name="File">The flag that takes a file whose first line is the key.</param>
/// <param name="Enabling">The setting that needs the key, e.g. "--RequireAuth".</param>
/// <param name="Signs">What the key signs, after "sign": "the tokens".</param>
/// <param name="OnlyOne">Why one key only, after "but": "the hub has one signing key".</param>
/// <param name="Needs">What the setting needs, after "needs": "the key that signs the tokens".</param>
/// <param name="Name">The key named at the start of a sentence: "The JWT signing key".</param>
public sealed record KeyFlags(string Inline, string File, string Enabling, string Signs, string OnlyOne, string Needs, string Name);

/// <summary>Reads a signing key from its flags, the same way for every key the hub-sample takes
/// (the hubs' JWTs, the REST API's): given without what needs it, given twice, an unreadable file,
/// none given, or too short for HMAC-SHA256 are each refused in one line that never holds the key.</summary>
public static class SigningKeys
{
    /// <summary>The key, or null with a problem; null and no problem when nothing needs one.
    /// <paramref name="fallback"/> makes one when none is given (null: none is a problem).</summary>
    public static (byte[]? Key, string? Problem) Read(KeyFlags flags, bool enabled, string inline, string file, Func<byte[]>? fallback = null)
    {
        if (!enabled)
        {
            return inline != "" || file != ""
                ? (null, $"{flags.Inline} and {flags.File} sign {flags.Signs} of {flags.Enabling} true, which is not given: add {flags.Enabling} true, or drop them.")
                : (null, null);
        }
        if (inline != "" && file != "")
        {
            return (null, $"{flags.Inline} and {flags.File} are both given, but {flags.OnlyOne}: keep one (the file keeps it out of the shell's history).");
        }
        string text;
        if (file != "")
        {
            try
            {
                text = System.IO.File.ReadLines(file).FirstOrDefault()?.Trim() ?? "";
            }
            catch (Exception error) when (error is IOException or UnauthorizedAccessException)
            {
                return (null, $"{flags.File} '{RefusalLog.Printable(file, 80)}' cannot be read ({error.GetType().Name}): give a readable file whose first line is the key.");
            }
        }
        else if (inline != "")
        {
            text = inline;
        }
        else if (fallback is not null)
        {
            return (fallback(), null);
        }
        else
        {
            return (null, $"{flags.Enabling} true needs {flags.Needs}: pass {flags.File} <file> (its first line, at least {HubAuthentication.MinKeyBytes} characters) or {flags.Inline} <key>.");
        }
        var key = Encoding.UTF8.GetBytes(text);
        return key.Length < HubAuthentication.MinKeyBytes
            ? (null, $"{flags.Name} has {key.Length} bytes, but HMAC-SHA256 needs at least {HubAuthentication.MinKeyBytes}: give a longer key (for example the output of 'openssl rand -base64 48').")
            : (key, null);
    }
}
