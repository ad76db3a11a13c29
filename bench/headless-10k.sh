#!/usr/bin/env bash
# How many connections one headless runner holds on this machine: N WebSocket connections (default
# 10,000) to a local hub-sample, each echoing 2 KB every 10 s, 10 s warm-up and 50 s measured; then
# the same load from the plain-library control (bench/tool/clients/library-client.mjs: a Node
# script with @microsoft/signalr, one thread) against the same hub, restarted and warmed alike
# before each client. Prints both, the hub's CPU
# during each, the machine's load, appends a row to bench/RESULTS.md and
# bench/connections-results.json, and compares it with the last row at the same count and engine
# kind (bench/connections-compare.mjs): a memory or ramp regression beyond the run-to-run spread is said.
#
# Open files are per process, and this machine's hard limit (20,000) cannot be raised: past what
# one process holds, the hub-sample runs as two instances on two ports (connection i on instance
# i mod n; echo needs no backplane), the runner's engines run as child processes (it chooses so by
# itself, cli/engine-kind.ts), and the control is split over as many processes, each on one hub
# (its ramp: all opened over the slowest one's ramp time; its p99: the worst process's). Peak
# memory is the peak of the summed resident memory of each side's process tree (bench/tree-rss.mjs).
#
# Usage: bash bench/headless-10k.sh [connections]
#   BENCH_HUB_PORT  the first hub's port (default 5199; a second hub takes the next one)
#   BENCH_ENGINES   threads | processes (default: the runner's own choice)
#   BENCH_SKIP_NEGOTIATION=1   both clients open their WebSockets without the negotiate POST
#                   (--skip-negotiation, skipNegotiation: true): what a connect costs without it
#   BENCH_WORKERS   the runner's engines (default 2; the runner's own default on 2 cores is 1)
#   BENCH_TRANSPORT ServerSentEvents | LongPolling: both clients over that transport instead of
#                   WebSockets (--transport, transport), to see how many each holds and why it stops
set -euo pipefail
cd "$(dirname "$0")/.."
connections="${1:-10000}"
port="${BENCH_HUB_PORT:-5199}"
engines="${BENCH_ENGINES:-}"
skip=""; [ "${BENCH_SKIP_NEGOTIATION:-}" = 1 ] && skip=1
transport="${BENCH_TRANSPORT:-}"
case "$transport" in ''|WebSockets) transport="" ;; ServerSentEvents|LongPolling) ;; *) echo "BENCH_TRANSPORT must be ServerSentEvents or LongPolling (WebSockets is the default), not '$transport'." >&2; exit 2 ;; esac
# Each connection is a file descriptor in the runner (and one in the hub): the soft limit is raised
# to the hard one; the runner refuses a run that still cannot fit, saying so.
ulimit -n "$(ulimit -Hn)" || true
open_files=$(ulimit -n)
echo "open files: soft $open_files, hard $(ulimit -Hn); ephemeral ports $(tr '\t' '-' </proc/sys/net/ipv4/ip_local_port_range)"
# What one process (a hub, a control) holds: its open files less its own (the hub's ~500 are its
# runtime, listeners and logs; the control's like the runner's).
per_hub=$(( open_files - 500 )); per_control=$(( open_files - 64 ))
hubs=$(( (connections + per_hub - 1) / per_hub )); controls=$(( (connections + per_control - 1) / per_control ))
[ "$hubs" -gt 1 ] && echo "$connections connections are more than one hub-sample holds ($per_hub: $open_files open files per process): $hubs hub instances on ports $port-$(( port + hubs - 1 )), connection i on instance i mod $hubs."
[ "$controls" -gt 1 ] && echo "The control is split over $controls processes ($per_control connections fit one), each on one hub instance."
json="$(mktemp --suffix=.json)"; control_json="$(mktemp --suffix=.json)"; row_json="$(mktemp --suffix=.json)"
timing="$(mktemp)"; control_timing="$(mktemp -u)"; runner_err="$(mktemp)"; tree="$(mktemp)"; control_tree="$(mktemp)"

source bench/start-hub.sh
hub_shells=("$hub")
# Starts instance k and waits until it answers.
start_instance() {
  node scripts/hub.mjs --port $(( port + $1 )) >/dev/null 2>&1 &
  hub_shells+=("$!")
  for _ in $(seq 1 50); do curl -sf "http://127.0.0.1:$(( port + $1 ))/healthz" >/dev/null && break; sleep 0.2; done
}
# The other instances, each stopped when the script exits.
for k in $(seq 1 $(( hubs - 1 ))); do start_instance "$k"; done
trap 'kill "${hub_shells[@]}" 2>/dev/null || true' EXIT
npx vite build -c vite.bench.config.ts --logLevel warn
find_hub_pids() { hub_pids=(); for shell in "${hub_shells[@]}"; do hub_pids+=("$(pgrep -P "$shell" -f HubSample | head -n 1 || true)"); done; }
find_hub_pids
# Each client meets hubs in the same state: started afresh and warmed by the same short run of the
# plain library (its JIT past tier 0, its first connections' allocations made). The second client
# once met the hubs the first had warmed and grown: at 25,000 the runner, always first, opened its
# first 10 s at 350-500 a second and its last at 1,100-1,600 (bench/RESULTS.md, 2026-11-28).
WARM_CONNECTIONS=500
warm_hubs() {
  local warmers=()
  for k in $(seq 0 $(( hubs - 1 ))); do
    node bench/tool/clients/library-client.mjs \
      "{\"endpointUrl\":\"http://127.0.0.1:$(( port + k ))/signalrbench\",\"connections\":$WARM_CONNECTIONS,\"intervalMs\":1000,\"durationSec\":2,\"warmupSec\":0,\"connectConcurrency\":32${skip:+,\"skipNegotiation\":true}${transport:+,\"transport\":\"$transport\"}}" >/dev/null 2>&1 &
    warmers+=("$!")
  done
  wait "${warmers[@]}" || echo "a warm-up run exited with $?"
}
restart_hubs() {
  kill "${hub_shells[@]}" 2>/dev/null || true
  wait "${hub_shells[@]}" 2>/dev/null || true
  hub_shells=()
  for k in $(seq 0 $(( hubs - 1 ))); do start_instance "$k"; done
  find_hub_pids
}
warm_hubs
endpoints=(); for k in $(seq 0 $(( hubs - 1 ))); do endpoints+=(--endpoint "http://127.0.0.1:$(( port + k ))/signalrbench"); done
# CPU seconds the hub processes have used so far (user + system, summed), to give their share during a run.
hub_cpu_s() { for p in "${hub_pids[@]}"; do [ -n "$p" ] && cat "/proc/$p/stat"; done | awk -v hz="$(getconf CLK_TCK)" '{ s += $14 + $15 } END { if (NR > 0) print s / hz }'; }
load() { cut -d' ' -f1 /proc/loadavg; }
hub_share() { awk -v a="$1" -v b="$(hub_cpu_s)" -v t0="$2" -v t1="$(date +%s.%N)" 'BEGIN { if (a != "" && b != "") printf "%.0f%%", (b - a) / (t1 - t0) * 100 }'; }

load_before=$(load); hub_start=$(hub_cpu_s); start_s=$(date +%s.%N)
command=(node bin/live-bench.js "${endpoints[@]}" --connections "$connections" ${engines:+--engines "$engines"} ${skip:+--skip-negotiation} ${transport:+--transport "$transport"}
  --workers "${BENCH_WORKERS:-2}" --interval-ms 10000 --duration 60 --warmup 10 --connect-concurrency 64 --quiet --no-guide-rule --json "$json")
/usr/bin/time -v -o "$timing" "${command[@]}" 2> >(tee "$runner_err" >&2) &
runner=$!
node bench/tree-rss.mjs "$runner" >"$tree" &
sampler=$!
wait "$runner" || echo "the runner exited with $? (a failed verdict is 1)"
wait "$sampler"
hub_runner=$(hub_share "$hub_start" "$start_s")
load_runner=$(load)
# The runner's engines as its start line names them.
runner_engines=$(grep -o -m 1 'engine processes\|worker threads\|the engine in the runner.s own thread' "$runner_err" || true)

restart_hubs
warm_hubs
sleep 2
hub_start=$(hub_cpu_s); start_s=$(date +%s.%N)
# Each control process its share of the connections and of the connects in flight, on one hub,
# under its own /usr/bin/time (no shell between them and the sampler: its KB are not the control's).
share=$(( (connections + controls - 1) / controls )); concurrency=$(( (64 + controls - 1) / controls ))
control_timers=()
for j in $(seq 0 $(( controls - 1 ))); do
  n=$(( j == controls - 1 ? connections - share * (controls - 1) : share ))
  /usr/bin/time -f '%e %U %S' -o "$control_timing.$j" node bench/tool/clients/library-client.mjs \
    "{\"endpointUrl\":\"http://127.0.0.1:$(( port + j % hubs ))/signalrbench\",\"connections\":$n,\"intervalMs\":10000,\"durationSec\":60,\"warmupSec\":10,\"connectConcurrency\":$concurrency${skip:+,\"skipNegotiation\":true}${transport:+,\"transport\":\"$transport\"}}" >"$control_json.$j" 2>"$control_json.$j.err" &
  control_timers+=("$!")
done
node bench/tree-rss.mjs "${control_timers[@]}" >"$control_tree" &
sampler=$!
wait "${control_timers[@]}" || echo "a control process exited with $?"
wait "$sampler"
for j in $(seq 0 $(( controls - 1 ))); do tail -n 1 "$control_json.$j"; done >"$control_json"
# The library logs each failed connection or close: counted and the first said, not thousands of lines.
control_errors=$(cat "$control_json".*.err | wc -l)
[ "$control_errors" -gt 0 ] && echo "the control logged $control_errors error lines, the first: $(head -n 1 -q "$control_json".*.err | head -n 1)"
# CPU of the processes together, as /usr/bin/time gives one: CPU seconds over the longest one's wall time.
control_cpu=$(cat "$control_timing".* | awk '{ if ($1 > wall) wall = $1; cpu += $2 + $3 } END { if (wall > 0) printf "%.0f%%", cpu / wall * 100 }')
hub_control=$(hub_share "$hub_start" "$start_s")
load_after=$(load)

field() { awk -F': ' "/$1/ {print \$2}" "$2"; }
node bench/connections-row.mjs "$json" "$(cut -d' ' -f1 "$tree")" "$(field 'Percent of CPU this job got' "$timing")" "$hub_runner" \
  "$control_json" "$(cut -d' ' -f1 "$control_tree")" "$control_cpu" "$hub_control" \
  "$load_before → $load_runner → $load_after" "${BENCH_WORKERS:+BENCH_WORKERS=$BENCH_WORKERS }${engines:+BENCH_ENGINES=$engines }${skip:+BENCH_SKIP_NEGOTIATION=1 }${transport:+BENCH_TRANSPORT=$transport }bash bench/headless-10k.sh $connections" "$row_json" \
  "$runner_engines" "$hubs" "$controls"
node bench/connections-compare.mjs "$row_json"
