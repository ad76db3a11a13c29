/**
 * The runner's help (`--help`, `--lead --help`, `--agent x --help`): every option, its default
 * and the exit codes, filled with the values the checks use (defaults, limits). Pure.
 */

/** The run's defaults the help quotes (core's DEFAULTS). */
interface RunDefaults {
  scenario: string;
  transport: string;
  protocol: string;
  connections: number;
  messageBytes: number;
  sendIntervalMs: number;
  durationSec: number;
  warmupSec: number;
  connectConcurrency: number;
  drainSec: number;
}

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
  /** An Azure SignalR connection string (serverless-args.ts). */
  serverless: (p: { defaultHub: string }) => `A hub in serverless mode (Azure SignalR Service, or the hub-sample with --EnableRestApi true)
  --azure-connection-string-env <VAR>
                            the connection string (Endpoint=...;AccessKey=...;Version=1.0;) from
                            an environment variable: the clients connect to
                            {Endpoint}/client/?hub={hub} with a token signed by its AccessKey
                            (one user per connection), and restBroadcast and restSendToUser
                            send through {Endpoint}/api/v1/hubs/{hub}; never printed or kept
  --azure-connection-string-file <file>
                            the same from a file's first line
  --azure-hub <name>        the hub, as Azure names it (default ${p.defaultHub}, the hub-sample's BenchHub)`,
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
  /** A single run and a capacity search (args.ts), with the protected deployment's and the token command's options. */
  run: (p: { defaults: RunDefaults; connectionsPerEngine: number; capacity: { stepSec: number; settleSec: number; bisectSteps: number }; auth: string; tokenCommand: string; serverless: string }) => `Usage: live-bench --endpoint <url> [options]

Runs a SignalR Live Bench scenario from Node, with the dashboard's engine, options and defaults.

  --endpoint <url>          hub URL, e.g. http://127.0.0.1:5180/signalrbench (required);
                            repeat it (or give a comma-separated list) for the instances of a
                            scaled-out hub, e.g. hub-samples on one Redis: the connections are
                            spread round-robin over them and the summary gives each one's figures
  --scenario <name>         echo | broadcast | smallGroup | bigGroup | sendToConnection, or the
                            serverless mode's restBroadcast | restSendToUser, whose sends are
                            REST API calls (they need a connection string, below) (default ${p.defaults.scenario});
                            with --hub-profile, the plan its delivery runs on (only group
                            deliveries have a choice: smallGroup, the default, or bigGroup)
  --hub-profile <file>      drive the hub's own methods instead of the bundled contract: a JSON
                            profile naming the send method and its arguments, the join, the
                            client method that receives and who receives (profiles/ has the
                            chat tutorial's hub and the bundled contract; docs/hub-profiles.md);
                            {env:NAME} in its arguments is read from this environment at start
                            (a key, a password), and only the placeholder is kept or printed
  --transport <name>        WebSockets | ServerSentEvents | LongPolling (default ${p.defaults.transport})
  --protocol <name>         json | messagepack (default ${p.defaults.protocol})
  --skip-negotiation        open each WebSocket straight away, without the negotiate request:
                            about half the CPU per connect, so a faster ramp (WebSockets only;
                            no stateful reconnect, no send to connection; not through Azure
                            SignalR Service, whose app servers only negotiate)
  --connections <n>         connections in the run (default ${p.defaults.connections})
  --workers <n>             engines sharing them: 1 runs in the runner's own thread, more run
                            one per worker thread, or one per process with --engines processes
                            (default: one per ${p.connectionsPerEngine.toLocaleString('en-US')} connections, at most one per core
                            beyond the first)
  --engines <kind>          threads | processes: the engines as worker threads of the runner,
                            or as child processes, each with open files of its own (default:
                            threads, unless the connections need more open files than one
                            process may hold; then processes, at least as many as they need)
  --message-bytes <n>       payload size (default ${p.defaults.messageBytes})
  --interval-ms <n>         time between two sends of a connection (default ${p.defaults.sendIntervalMs})
  --duration <s>            measured seconds (default ${p.defaults.durationSec})
  --warmup <s>              seconds left out of the figures (default ${p.defaults.warmupSec})
  --senders <n>             sending connections (default: the scenario's)
  --group-size <n>          members per group (group scenarios)
  --group-count <n>         groups (group scenarios)
  --connect-concurrency <n> connects in flight (default ${p.defaults.connectConcurrency})
  --drain-s <s>             longest wait for messages in flight after the last send
                            (default ${p.defaults.drainSec}); it ends sooner once all arrived or
                            nothing more arrives
  --reconnect               reconnect lost connections and resume their sends
  --drop-at <s>             drop connections at this second of the sends (needs --reconnect)
  --drop-every <s>          drop again every this many seconds (default: once)
  --drop-share <percent>    share of the connections dropped, 0 < p <= 100 (default 100)
  --drop-kind <kind>        network (cut the client's transport, no SignalR close) | server
                            (the hub-sample aborts them; needs it started with
                            --EnableServerDrops true) (default network)
  --reconnect-policy <name> default (SignalR's 0, 2, 10, 30 s) | fixed (1 s, for 60 s) |
                            jittered (exponential 0.5-10 s, random 50-100%, for 60 s)
                            (default fixed)
  --stateful-reconnect      withStatefulReconnect(): a short drop loses nothing (WebSockets;
                            the hub must allow it, as the hub-sample does)
  --json <file>             write the result as JSON ("-" for standard output: then only the
                            JSON goes there, and the summary to standard error)
  --html <file>             write a self-contained HTML report (opens offline)
  --server-metrics <url>    read the app's Prometheus metrics once a second during the run,
                            e.g. http://127.0.0.1:5180/metrics (the hub-sample's): its CPU,
                            connections and deliveries go into the results, the summary gives
                            its peak CPU and which side set the limit. Unreadable metrics are
                            said once and never fail the run. With several --endpoint, give
                            one per instance, in the same order
  --threshold <expr>        exit 1 unless it holds, in k6's grammar <metric><op><value>, e.g.
                            'p99<250ms', 'p(99)<250', 'delivery>=99.9%', 'lost==0' (repeat
                            it for more): operators < <= > >= == !=; times in ms (a plain
                            number too) or s; shares in % or 0..1; counts plain, or in % of
                            the planned. Metrics: p50 p90 p99 p99.9 max mean (latency),
                            delivery underOneSecond, lost notSent duplicated altered loss,
                            connectionsFailed, sent/s received/s (docs/runner.md). The summary
                            marks each ✓ or ✗; --json keeps each one's figure
  --max-p99-ms <ms>         alias of --threshold 'p99<=<ms>ms'
  --min-delivery <ratio>    alias of --threshold 'delivery>=<ratio in %>' (0..1)
  --no-guide-rule           report the guide's verdict but do not exit 1 when it fails
                            (by default a run passes only if 99% of every planned
                            reception arrived in under 1 s; --guide-rule is accepted).
                            Loss still fails the run: see --allow-loss
  --allow-loss <ratio>      alias of --threshold 'loss<=<ratio in %>': accept receptions lost,
                            never sent or duplicated up to this share of the planned ones
                            (0..1, e.g. 0.001 is 'loss<=0.1%'); by default any of them exits 1,
                            with or without --no-guide-rule, unless a loss<, loss<= or
                            loss== threshold caps it
  --memory-log <file>       sample the runner's memory every 30 s into a CSV (for soaks;
                            with node --expose-gc the heap figures are after a full GC)
  --quiet                   no per-second progress
  --help                    this text

${p.auth}
${p.tokenCommand}

${p.serverless}

Capacity search (--find-capacity): ramp the load until the guide's rule breaks, then bisect
  --find-capacity           run steps of rising load instead of one run; prints one line per
                            step and the highest load that held, and who broke (the service or
                            this client); --json and --html hold every step
  --ramp <kind>             connections (add connections at --interval-ms) or rate (raise the
                            msg/s that --connections send) (required)
  --start <n> --step <n> --max <n>
                            the ramp's loads: connections, or msg/s sent (all senders) (required)
  --step-duration <s>       seconds each step is held (default ${p.capacity.stepSec})
  --settle <s>              seconds at the start of each step not judged (default ${p.capacity.settleSec})
  --bisect <n>              extra steps between the last step that held and the first that
                            broke (default ${p.capacity.bisectSteps})
  A failing step says what failed it and whose it was: the service's, this client's (it fell
  behind its schedule, ran out of file descriptors or ports, lost an engine), or unknown. Only
  load makes a capacity: a step failed by anything else (the hub crashed or froze, a set-up
  mistake) ends the search with that cause. The lowest failing load is run once more to
  confirm the break. Planned drops are refused.
  Exit codes: 0 the service's capacity was found and its break confirmed, or every step held up
  to --max; 1 even the first step broke, this client broke first (its capacity, not the
  service's), which side broke is unknown, the break was not confirmed, the service failed for a
  cause other than load, or the search was stopped; 2 bad input, or more connections than this
  machine's open-file or port limits hold; 3 nothing was measured: the first step measured
  nothing, or a set-up cause ended the search (a closed port, a token, a profile)

Agent mode (join a dashboard's run instead): live-bench --agent <control-url> --session <code>
  (live-bench --agent x --help for its options)

Lead mode (run a fleet of agents without a browser): live-bench --lead --agents <n> [run options]
  (live-bench --lead --help for its options)

The dashboard from Node: live-bench serve [--port <n>] [--host <address>]
  (live-bench serve --help for its options). The version: live-bench --version

Ctrl+C or SIGTERM stops the run early: what was sent drains, the results are written, and the
run counts as stopped (never a pass). A second Ctrl+C quits at once.

Exit codes:
  0  the run finished and passed: the guide's verdict (unless --no-guide-rule), every threshold,
     and no reception lost, never sent or duplicated (beyond --allow-loss)
  1  it did not pass: the verdict failed, a threshold broke, messages were lost, never sent or
     duplicated, it was stopped early, or a result file could not be written
  2  bad input (options, an output path that cannot be written, or more connections than this
     machine's open files or ephemeral ports hold); nothing was run
  3  nothing could be measured: no connection opened, the hub lacks the scenario's method (or
     the hub profile's send or join method), or its receive method was never called; the
     summary's "Why" line names the cause (docs/diagnosis.md)
  4  the runner itself failed (an internal error, its message printed): not a verdict on the
     service; report it with the command line`,
} as const;
