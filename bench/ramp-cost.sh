#!/usr/bin/env bash
# What a connect costs: N WebSocket connections (default 6,000) opened to a local hub-sample by the
# runner with 2 engine threads, with 1, and by the plain-library control
# (bench/tool/clients/library-client.mjs), each run only 1 s after its ramp, repeated in turns so
# that each row's three figures share the machine's load. Prints each one's ramp (connections a
# second), its CPU seconds (user + system, from /usr/bin/time), the hub's CPU seconds during it,
# and the 1-minute load. A ramp is CPU-bound on 2 shared cores, so CPU per connect (minus the
# fixed cost of a run with 10 connections) is the figure that survives other people's load.
# Usage: bash bench/ramp-cost.sh [connections] [rounds]
set -uo pipefail
cd "$(dirname "$0")/.."
connections="${1:-6000}"; rounds="${2:-3}"; port="${BENCH_HUB_PORT:-5198}"
ulimit -n "$(ulimit -Hn)" || true
source bench/start-hub.sh
npx vite build -c vite.bench.config.ts --logLevel warn
hub_pid="$(pgrep -P "$hub" -f HubSample | head -n 1 || true)"
hub_cpu_s() { awk -v hz="$(getconf CLK_TCK)" '{ print ($14 + $15) / hz }' "/proc/$hub_pid/stat"; }
json="$(mktemp --suffix=.json)"; timing="$(mktemp)"
# One client's run: its ramp, CPU, the hub's CPU and the load, on one line.
measure() {
  local label=$1; shift
  local hub0 load0; hub0=$(hub_cpu_s); load0=$(cut -d' ' -f1 /proc/loadavg)
  # shellcheck disable=SC2046 # the command line is words without spaces
  /usr/bin/time -f '%U %S' -o "$timing" $("$@") >"$json.out" 2>/dev/null
  local ramp
  if [ "$label" = control ] || [ "$label" = "skip ctl" ]; then ramp=$(node -e "const j=JSON.parse(require('fs').readFileSync('$json.out','utf8').trim().split('\n').at(-1)); console.log(j.connectionsOpened, Math.round(j.connectionsOpened / (j.rampMs / 1000)))")
  else ramp=$(node -e "import('./bench/connections-compare.mjs').then(({ rampSeconds }) => { const j = JSON.parse(require('fs').readFileSync('$json', 'utf8')); const n = j.totals.connectionsOpened; const s = rampSeconds(j.points, n); console.log(n, s ? Math.round(n / s) : '–'); })"); fi
  awk -v l="$label" -v r="$ramp" -v h0="$hub0" -v h1="$(hub_cpu_s)" -v load="$load0" '{ split(r, x, " "); printf "%-10s opened %6s  ramp %5s/s  CPU %5.2f s  hub CPU %5.2f s  load %s\n", l, x[1], x[2], $1 + $2, h1 - h0, load }' <(tail -n 1 "$timing")
  sleep 3
}
# /usr/bin/time runs programs, not shell functions: each client is a command line. $3 is "skip"
# to skip negotiation.
runner() { echo node bin/live-bench.js --endpoint "http://127.0.0.1:$port/signalrbench" --connections "$1" --workers "$2" --interval-ms 10000 --duration 1 --warmup 0 --connect-concurrency 64 --quiet --no-guide-rule --json "$json" ${3:+--skip-negotiation}; }
control() { echo node bench/tool/clients/library-client.mjs "{\"endpointUrl\":\"http://127.0.0.1:$port/signalrbench\",\"connections\":$1,\"intervalMs\":10000,\"durationSec\":1,\"warmupSec\":0,\"connectConcurrency\":64,\"skipNegotiation\":$([ -n "${2:-}" ] && echo true || echo false)}"; }
echo "fixed cost (10 connections):"
measure "runner w2" runner 10 2; measure "skip w2" runner 10 2 skip
measure "runner w1" runner 10 1; measure "skip w1" runner 10 1 skip
measure control control 10; measure "skip ctl" control 10 skip
for round in $(seq 1 "$rounds"); do
  echo "round $round ($connections connections):"
  measure "runner w2" runner "$connections" 2; measure "skip w2" runner "$connections" 2 skip
  measure "runner w1" runner "$connections" 1; measure "skip w1" runner "$connections" 1 skip
  measure control control "$connections"; measure "skip ctl" control "$connections" skip
done
