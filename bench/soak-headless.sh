#!/usr/bin/env bash
# Headless soak: the runner alone, at steady load for SOAK_MINUTES (default 40), sampling its own
# memory every 30 s (`--memory-log`) with `node --expose-gc`, so each heap figure is measured
# after a full collection in that isolate: what is still alive, not what V8 has reserved.
# 500 WebSocket connections (JSON) echoing 2 KB every 1 s, 2 worker threads, local hub-sample.
# Writes bench/soak-headless-memory.csv and appends a summary row to bench/RESULTS.md.
# Usage: bash bench/soak-headless.sh   (SOAK_MINUTES=5 for a short try)
set -euo pipefail
cd "$(dirname "$0")/.."
minutes="${SOAK_MINUTES:-40}"
connections=500
port=5197
json="$(mktemp --suffix=.json)"
csv=bench/soak-headless-memory.csv

source bench/start-hub.sh

node --expose-gc bin/live-bench.js --endpoint "http://127.0.0.1:$port/signalrbench" --connections "$connections" \
  --workers 2 --interval-ms 1000 --duration "$((minutes * 60))" --quiet --no-guide-rule --json "$json" --memory-log "$csv"

node -e '
  const fs = require("fs");
  const [csv, json, minutes, connections] = process.argv.slice(1);
  const r = JSON.parse(fs.readFileSync(json, "utf8"));
  const [header, ...lines] = fs.readFileSync(csv, "utf8").trim().split("\n");
  const names = header.split(",");
  const rows = lines.map((l) => l.split(",").map(Number)).filter((row) => row[0] >= 1); // the first minute is the ramp
  const third = Math.max(1, Math.floor(rows.length / 3));
  const mean = (slice, c) => slice.reduce((s, row) => s + row[c], 0) / slice.length;
  // Growth: mean of the last third minus mean of the middle third, in MB (the first third settles).
  const cell = (c) => `${rows[0][c].toFixed(1)} → ${rows.at(-1)[c].toFixed(1)} (${(mean(rows.slice(-third), c) - mean(rows.slice(third, 2 * third), c)).toFixed(1)}; max ${Math.max(...rows.map((row) => row[c])).toFixed(1)})`;
  const threads = names.map((n, c) => [n, c]).filter(([n]) => /^thread\d+_heap_mb$/.test(n)).map(([, c]) => cell(c)).join(" / ");
  const t = r.totals;
  const line = `| ${new Date().toISOString().slice(0, 10)} | ${minutes} | ${connections} | ${cell(1)} | ${cell(2)} | ${threads} | ${t.sent} sent, ${t.received} received, ${r.fates.lost} lost, p99 ${(r.latency.p99Us / 1000).toFixed(1)} ms | \`bash bench/soak-headless.sh\` |`;
  console.log(line);
  require("child_process").execFileSync("node", ["bench/results-table.mjs", "Headless soak", line]);
' "$csv" "$json" "$minutes" "$connections"
