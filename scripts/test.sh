#!/usr/bin/env bash
# Every test: type checks, the hub-sample's own tests (xunit), then Vitest's unit, DOM,
# integration (real hub + real SignalR client) and browser (real Chromium) projects, then what
# each test file and stage took.
set -euo pipefail
cd "$(dirname "$0")/.."

# Each stage's seconds, said at the end beside the per-file table.
stages=()
stage() { stages+=("$(printf '%6d s  %s' "$((SECONDS - stage_start))" "$1")"); stage_start=$SECONDS; }
stage_start=$SECONDS

# The type check needs no build and mostly one core: it runs beside the builds and the hub-sample
# tests (about 15 s less on a fresh clone), and its answer is said once they are done.
echo "== Type checks (svelte-check), beside the builds and the hub-sample tests"
checks_dir=$(mktemp -d)
( started=$SECONDS; status=0
  npx svelte-check --tsconfig ./tsconfig.json --threshold error --output machine >"$checks_dir/out" 2>&1 || status=$?
  echo "$((SECONDS - started))" >"$checks_dir/seconds"; exit "$status" ) &
checks_pid=$!

echo "== Building the dashboard and the hub-sample"
npx vite build --logLevel warn
npx vite build -c vite.cli.config.ts --logLevel warn
dotnet build hub-sample/HubSample.csproj -c Release --nologo -v quiet
stage "builds"

echo "== hub-sample tests"
dotnet test hub-sample/Tests/HubSample.Tests.csproj --nologo -v quiet
stage "hub-sample tests"

echo "== Type checks: the answer"
checks_status=0
wait "$checks_pid" || checks_status=$?
# Its summary line when it passed; every line when it did not, so the errors are in the log.
if [ "$checks_status" -eq 0 ]; then tail -n 1 "$checks_dir/out"; else cat "$checks_dir/out"; fi
stage "svelte-check (waited for; it took $(cat "$checks_dir/seconds" 2>/dev/null || echo '?') s beside the builds)"
[ "$checks_status" -eq 0 ] || exit "$checks_status"

# Grouped as vite.config.ts says (scripts/test-groups.mjs): unit, DOM and integration files side
# by side, then browser files two at a time, then the files that measure the machine, alone.
echo "== Unit, DOM, integration and browser tests"
status=0
npx vitest run --reporter=default --reporter=json --outputFile.json=test-results/vitest.json || status=$?
stage "vitest"

# What each file cost, slowest first (also when a test failed: the table says which), then the
# stages and one plain closing line with the counts, whatever the reporter printed above.
echo
node scripts/test-times.mjs test-results/vitest.json || true
echo
echo "Stages ($(nproc) cores; load average $(cut -d' ' -f1-3 /proc/loadavg) at the end):"
printf '%s\n' "${stages[@]}"
printf '%6d s  in all\n' "$SECONDS"
node -e '
  const r = JSON.parse(require("fs").readFileSync("test-results/vitest.json", "utf8"));
  console.log(`vitest: ${r.numPassedTests} passed, ${r.numFailedTests} failed` + (r.numPendingTests ? `, ${r.numPendingTests} skipped` : ""));
' || true
exit "$status"
