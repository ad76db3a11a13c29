#!/usr/bin/env bash
# How many connections one headless runner holds on this machine: N WebSocket connections (default
# 10,000) to a local hub-sample, each echoing 2 KB every 10 s, 10 s warm-up and 50 s measured; then
# the same load from the plain-library control (bench/tool/clients/library-client.mjs: a Node
# script with @microsoft/signalr, one thread) against the same hub. Prints both, the hub's CPU
# during each, the machine's load, appends a row to bench/RESULTS.md and
# bench/connections-results.json, and compares it with the last row at the same count
# (bench/connections-compare.mjs): a memory or ramp regression beyond the run-to-run spread is said.
# Usage: bash bench/headless-10k.sh [connections]   (needs `ulimit -n` above it: raised to the hard limit here)
set -euo pipefail
cd "$(dirname "$0")/.."
connections="${1:-10000}"
port=5199
# Each connection is a file descriptor in the runner (and one in the hub): the soft limit is raised
# to the hard one; the runner refuses a run that still cannot fit, saying so.
ulimit -n "$(ulimit -Hn)" || true
echo "open files: soft $(ulimit -n), hard $(ulimit -Hn); ephemeral ports $(tr '\t' '-' </proc/sys/net/ipv4/ip_local_port_range)"
json="$(mktemp --suffix=.json)"; control_json="$(mktemp --suffix=.json)"; row_json="$(mktemp --suffix=.json)"
timing="$(mktemp)"; control_timing="$(mktemp)"

source bench/start-hub.sh
npx vite build -c vite.bench.config.ts --logLevel warn
hub_pid="$(pgrep -P "$hub" -f HubSample | head -n 1 || true)"
# CPU seconds the hub process has used so far (user + system), to give its share during a run.
hub_cpu_s() { [ -n "$hub_pid" ] && awk -v hz="$(getconf CLK_TCK)" '{ print ($14 + $15) / hz }' "/proc/$hub_pid/stat" || echo ""; }
load() { cut -d' ' -f1 /proc/loadavg; }

load_before=$(load); hub_start=$(hub_cpu_s); start_s=$(date +%s.%N)
command=(node bin/live-bench.js --endpoint "http://127.0.0.1:$port/signalrbench" --connections "$connections"
  --workers 2 --interval-ms 10000 --duration 60 --warmup 10 --connect-concurrency 64 --quiet --no-guide-rule --json "$json")
/usr/bin/time -v -o "$timing" "${command[@]}" || echo "the runner exited with $? (a failed verdict is 1)"
hub_runner=$(awk -v a="$hub_start" -v b="$(hub_cpu_s)" -v t0="$start_s" -v t1="$(date +%s.%N)" 'BEGIN { if (a != "" && b != "") printf "%.0f%%", (b - a) / (t1 - t0) * 100 }')
load_runner=$(load)

sleep 5
hub_start=$(hub_cpu_s); start_s=$(date +%s.%N)
/usr/bin/time -v -o "$control_timing" node bench/tool/clients/library-client.mjs \
  "{\"endpointUrl\":\"http://127.0.0.1:$port/signalrbench\",\"connections\":$connections,\"intervalMs\":10000,\"durationSec\":60,\"warmupSec\":10,\"connectConcurrency\":64}" >"$control_json"
hub_control=$(awk -v a="$hub_start" -v b="$(hub_cpu_s)" -v t0="$start_s" -v t1="$(date +%s.%N)" 'BEGIN { if (a != "" && b != "") printf "%.0f%%", (b - a) / (t1 - t0) * 100 }')
load_after=$(load)

field() { awk -F': ' "/$1/ {print \$2}" "$2"; }
node bench/connections-row.mjs "$json" "$(field 'Maximum resident set size' "$timing")" "$(field 'Percent of CPU this job got' "$timing")" "$hub_runner" \
  "$control_json" "$(field 'Maximum resident set size' "$control_timing")" "$(field 'Percent of CPU this job got' "$control_timing")" "$hub_control" \
  "$load_before → $load_runner → $load_after" "bash bench/headless-10k.sh $connections" "$row_json"
node bench/connections-compare.mjs "$row_json"
