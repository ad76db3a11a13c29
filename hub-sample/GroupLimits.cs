using Microsoft.AspNetCore.SignalR;

namespace HubSample;

/// <summary>
/// Bounds on what one connection can make the hub hold, so a deployed hub-sample cannot be made
/// to grow without limit: the length of a group name and the number of groups one connection
/// joins. Failures reach the caller as a HubException (its message, never a stack trace).
/// </summary>
public sealed class GroupLimits(HubSettings settings)
{
    private const string JoinedKey = "live-bench:groups";

    public void CheckName(string group)
    {
        if (string.IsNullOrEmpty(group) || group.Length > settings.MaxGroupNameLength)
        {
            throw new HubException(
                $"Group names must be 1 to {settings.MaxGroupNameLength} characters long; this one has {group?.Length ?? 0}.");
        }
    }

    public void Joining(HubCallerContext context, string group)
    {
        CheckName(group);
        var joined = Joined(context);
        if (!joined.Contains(group) && joined.Count >= settings.MaxGroupsPerConnection)
        {
            throw new HubException(
                $"One connection may join at most {settings.MaxGroupsPerConnection} groups; leave one first (LeaveGroup).");
        }
        joined.Add(group);
    }

    public void Leaving(HubCallerContext context, string group)
    {
        CheckName(group);
        Joined(context).Remove(group);
    }

    private static HashSet<string> Joined(HubCallerContext context)
    {
        // Hub method calls of one connection run one at a time (MaximumParallelInvocationsPerClient
        // is 1), so this per-connection set needs no lock.
        if (context.Items.TryGetValue(JoinedKey, out var existing) && existing is HashSet<string> set) return set;
        var created = new HashSet<string>(StringComparer.Ordinal);
        context.Items[JoinedKey] = created;
        return created;
    }
}
