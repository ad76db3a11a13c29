#!/usr/bin/env bash
# Memory per connection, before and after a change, in turns: N WebSocket connections (default
# 10,000) to a local hub-sample on $port (default 5271), each echoing 2 KB every 10 s, 3 s warm-up
# and 30 s measured, by this checkout's runner with 1 engine and with 2, by another build of the
# runner given as BEFORE=<folder with bin/live-bench.js and a built dist-cli/> (e.g. an exported
# older commit: `git archive <commit> | tar -x -C /tmp/before`, linked node_modules, then
# `npx vite build -c vite.cli.config.ts` there), and by the plain-library control
# (bench/tool/clients/library-client.mjs); the builds alternate (A, B, A, B) so each pair shares
# the machine's load. Each line: peak resident memory (/usr/bin/time), KB per connection, CPU
# seconds, the verdict and p99 from the planned send time (the control's: the same, and what it
# opened and lost), the 1-minute load before and after.
# Usage: [BEFORE=/tmp/before] [port=5271] bash bench/conn-memory.sh [connections] [rounds]
set -uo pipefail
cd "$(dirname "$0")/.."
connections="${1:-10000}"; rounds="${2:-2}"; port="${port:-5271}"; before="${BEFORE:-}"
ulimit -n "$(ulimit -Hn)" || true
source bench/start-hub.sh
npx vite build -c vite.bench.config.ts --logLevel warn
out="$(mktemp -d)"
load() { cut -d' ' -f1 /proc/loadavg; }
# One run: its peak memory, CPU, verdict and p99, and the load, on one line.
measure() {
  local label=$1; shift
  local load0; load0=$(load)
  /usr/bin/time -f '%M %U %S' -o "$out/time" "$@" >"$out/stdout" 2>"$out/stderr"
  local verdict p99
  if [ "$label" = control ]; then
    verdict="–"; p99=$(node -e "const j=JSON.parse(require('fs').readFileSync('$out/stdout','utf8').trim().split('\n').at(-1)); console.log(j.latency.count ? (j.latency.p99Us / 1000).toFixed(1) + ' ms' : '–', j.connectionsOpened, 'opened, lost', j.lost)" 2>/dev/null || echo "–")
  else
    verdict=$(grep -ohE '^Verdict: [A-Za-z]+' "$out/stderr" "$out/stdout" | head -n 1 | sed 's/.*: //'); p99=$(grep -h '^Latency from planned send time' "$out/stderr" "$out/stdout" | grep -oE 'p99 [0-9.,]+ m?s' | head -n 1 | cut -d' ' -f2-)
  fi
  sed -i '/^Command exited/d' "$out/time"
  awk -v l="$label" -v n="$connections" -v v="${verdict:-–}" -v p="${p99:-–}" -v l0="$load0" -v l1="$(load)" \
    '{ printf "%-9s peak %4d MB  %5.1f KB/conn  CPU %6.2f s  verdict %-4s p99 %s  load %s -> %s\n", l, $1 / 1024, $1 / n, $2 + $3, v, p, l0, l1 }' "$out/time"
  sleep 3
}
runner() { echo node "$1/bin/live-bench.js" --endpoint "http://127.0.0.1:$port/signalrbench" --connections "$connections" --workers "$2" --interval-ms 10000 --duration 30 --warmup 3 --connect-concurrency 64 --quiet --no-guide-rule; }
control='{"endpointUrl":"http://127.0.0.1:'$port'/signalrbench","connections":'$connections',"intervalMs":10000,"durationSec":30,"warmupSec":3,"connectConcurrency":64}'
here="$(pwd)"
for round in $(seq 1 "$rounds"); do
  echo "round $round ($connections connections):"
  for workers in 1 2; do
    # shellcheck disable=SC2046 # the command lines are words without spaces
    [ -n "$before" ] && measure "before w$workers" $(runner "$before" "$workers")
    # shellcheck disable=SC2046
    measure "after w$workers" $(runner "$here" "$workers")
  done
  measure control node bench/tool/clients/library-client.mjs "$control"
done
