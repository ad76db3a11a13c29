#!/usr/bin/env bash
# Every test: type checks, the hub-sample's own tests (xunit), then Vitest's unit, DOM,
# integration (real hub + real SignalR client) and browser (real Chromium) projects.
set -euo pipefail
cd "$(dirname "$0")/.."

echo "== Building the dashboard and the hub-sample"
npx vite build --logLevel warn
npx vite build -c vite.cli.config.ts --logLevel warn
dotnet build hub-sample/HubSample.csproj -c Release --nologo -v quiet

echo "== Type checks"
npx svelte-check --tsconfig ./tsconfig.json --threshold error --output machine | tail -n 1

echo "== hub-sample tests"
dotnet test hub-sample/Tests/HubSample.Tests.csproj --nologo -v quiet

echo "== Unit, DOM, integration and browser tests"
status=0
npx vitest run --reporter=default --reporter=json --outputFile.json=test-results/vitest.json || status=$?
# One plain closing line with the counts, whatever the reporter printed above.
node -e '
  const r = JSON.parse(require("fs").readFileSync("test-results/vitest.json", "utf8"));
  console.log(`vitest: ${r.numPassedTests} passed, ${r.numFailedTests} failed` + (r.numPendingTests ? `, ${r.numPendingTests} skipped` : ""));
' || true
exit "$status"
