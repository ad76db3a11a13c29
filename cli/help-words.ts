/**
 * The runner's help (`--help`, `--lead --help`, `--agent x --help`): every option, its default
 * and the exit codes, filled with the values the checks use (defaults, limits). Pure.
 */

export const HELP_WORDS = {
  /** The options for a protected deployment (auth-args.ts). */
  auth: (p: { secretQueryNames: readonly string[] }) => `Pointing it at a protected deployment (nothing of these is kept in results or reports)
  --access-token-file <file> access token for every connection; one token per line makes a run of
                            many users (connection i takes line i mod n)
  --access-token-env <VAR>  access token from an environment variable
  --access-token <token>    access token on the command line (visible in the shell's history
                            and to other users of this machine: prefer the two above)
  --header "Name: value"    extra header on negotiate and HTTP requests and on the WebSocket
                            upgrade (repeatable), e.g. an API gateway's key
  --query name=value        extra query parameter on the hub URL (repeatable): on negotiate and
                            the connection at that URL, as the client library sends it; when
                            negotiate redirects (Azure SignalR Service), on the first negotiate
                            only: the library opens the URL it is given as it is
  --secret-query <name>     a query parameter of --endpoint that is a secret (repeatable),
                            besides ${p.secretQueryNames.slice(0, 6).join(', ')},
                            ${p.secretQueryNames.slice(6, -1).join(', ')} and ${p.secretQueryNames.at(-1)}: taken out of the endpoint like --query
                            values: sent, shown as "set", never kept`,
  /** --access-token-command and its refresh (token-command.ts). */
  tokenCommand: (p: { defaultRefreshSec: number }) => `  --access-token-command "<command>"
                            a command (run by /bin/sh) that prints a fresh access token: run at
                            start and again before the token expires (its JWT exp), so reconnects
                            and long polling carry a fresh one; its output is never printed
  --access-token-refresh-s <s>
                            how often to run it when the token is not a JWT with an exp
                            (default ${p.defaultRefreshSec})`,
  /** A headless lead's own options (lead-args.ts). */
  lead: (p: { maxAgents: number; defaultTimeoutSec: number; minCodeLength: number; maxCodeLength: number; alphabet: string; defaultAgentsSecrets: string }) => `Usage: live-bench --lead --agents <n> --endpoint <url> [run options]

Leads a fleet run without a browser: opens a session on the hub-sample's control hub, prints
the session code and the agent command line, waits for <n> agents (live-bench --agent), then
runs the benchmark over them as the dashboard would (same split, clock rounds, merge, verdict,
exit codes, --json and --html) and ends the session.

  --lead                 lead a fleet run
  --agents <n>           agents to wait for, 1 to ${p.maxAgents} (required)
  --agents-timeout <s>   longest wait for them (default ${p.defaultTimeoutSec}); when fewer came, nothing is run
                         and the exit code is 3
  --session <code>       a session code chosen in advance, so agents can be started first
                         (with --join-timeout): ${p.minCodeLength}-${p.maxCodeLength} characters of ${p.alphabet},
                         chosen at random: tr -dc ${p.alphabet} </dev/urandom | head -c 16
  --session-secret <s>   the secret agents present besides the code, chosen in advance with
                         --session (10-64 letters and digits, at random); without --session the
                         lead draws one and prints it in the agent command. No agent without it
                         receives anything of the run, its tokens least of all
  --agents-secrets <refuse|warn>
                         when tokens, header or query values would cross a plain http control hub
                         to the agents: refuse (exit 2, nothing sent) or warn and send
                         (default ${p.defaultAgentsSecrets})
  --control <url>        the control hub (default: /control on the --endpoint's host)
  --include-local        the lead's own engines (--workers) take part beside the agents; by
                         default the lead runs no connection itself

Every run option of a single run applies (live-bench --help); --find-capacity does not.
An agent lost mid-run takes its share of the load with it: the run fails, the client's fault
(exit 1). Exit codes as for a single run; 3 also when fewer than <n> agents came in time.`,
  /** An agent's options (agent-args.ts). */
  agent: () => `Usage: live-bench --agent <control-url> --session <code> --session-secret <secret> [options]

Joins a dashboard's run as an agent: the dashboard sends the configuration, starts and stops
the run, and shows this agent's figures merged with the others'.

  --agent <url>      the control hub, e.g. http://dashboard-host:5180/control (the dashboard's
                     Agents panel shows the exact command)
  --session <code>   the session code the dashboard shows
  --session-secret <secret>
                     the session's secret, from the same agent command: the lead admits no
                     agent without it (the code alone is public), so it sends the run's
                     tokens to no one else
  --workers <n>      engines offered to the run, one per worker thread; 1 runs it in the
                     agent's own thread (default 2)
  --engines <kind>   threads | processes: the engines as worker threads of the agent, or as
                     child processes, each with open files of its own, for a share of
                     connections past what one process may open (default threads)
  --name <text>      how the dashboard lists this agent (default: host name and process id)
  --once             leave after one run
  --join-timeout <s> keep trying to join for up to s seconds while the session is not open yet:
                     for agents started before their lead (live-bench --lead --session <code>)
                     (default 0: try once)

Exit codes: 0 left normally, 2 bad input, 3 could not reach the control hub or join the session.`,
} as const;
