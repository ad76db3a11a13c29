#!/usr/bin/env bash
# How many connections one headless runner holds on this machine: 10,000 WebSocket connections
# to a local hub-sample, each echoing 2 KB every 10 s, 60 s measured after a 10 s warm-up.
# Prints the runner's summary, its peak memory and CPU, and appends a row to bench/RESULTS.md.
# Usage: bash bench/headless-10k.sh [connections]   (default 10000; needs `ulimit -n` above it)
set -euo pipefail
cd "$(dirname "$0")/.."
connections="${1:-10000}"
port=5199
json="$(mktemp --suffix=.json)"
timing="$(mktemp)"

source bench/start-hub.sh

command=(node bin/live-bench.js --endpoint "http://127.0.0.1:$port/signalrbench" --connections "$connections"
  --workers 2 --interval-ms 10000 --duration 60 --warmup 10 --connect-concurrency 64 --quiet --no-guide-rule --json "$json")
/usr/bin/time -v -o "$timing" "${command[@]}"

rss_kb=$(awk -F': ' '/Maximum resident set size/ {print $2}' "$timing")
cpu=$(awk -F': ' '/Percent of CPU this job got/ {print $2}' "$timing")
node -e '
  const r = JSON.parse(require("fs").readFileSync(process.argv[1], "utf8"));
  const [rssKb, cpu, command] = process.argv.slice(2);
  const t = r.totals, l = r.latency;
  // Connections opened per second during the ramp: the seconds before the first send.
  const ramp = r.points.filter((p) => p.sent === 0 && p.connectionsOpen < t.connectionsOpened).length || 1;
  const row = [new Date().toISOString().slice(0, 10), t.connectionsOpened, t.connectionsFailed,
    (l.p50Us / 1000).toFixed(2), (l.p99Us / 1000).toFixed(1), (l.maxUs / 1000).toFixed(0), r.fates.lost,
    Math.round(rssKb / 1024), Math.round(rssKb * 1024 / Math.max(1, t.connectionsOpened) / 1024), Math.round(t.connectionsOpened / ramp), cpu, "`" + command + "`"];
  const line = "| " + row.join(" | ") + " |";
  console.log(line);
  require("child_process").execFileSync("node", ["bench/results-table.mjs", "Headless runner: connections held", line]);
' "$json" "$rss_kb" "$cpu" "bash bench/headless-10k.sh $connections"
