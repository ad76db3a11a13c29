#!/usr/bin/env bash
# Builds the dashboard and the hub-sample, then starts the hub serving the dashboard.
# Extra arguments go to the hub, e.g. `npm start -- --port 6000 --HttpsPort 6001`.
set -euo pipefail
cd "$(dirname "$0")/.."

echo "== Building the dashboard"
npx vite build --logLevel warn
npx vite build -c vite.cli.config.ts --logLevel warn
echo "== Building the hub-sample"
dotnet build hub-sample/HubSample.csproj -c Release --nologo -v quiet
echo "== Starting the hub (Ctrl+C stops it)"
echo "   Use the https:// address for Server-Sent Events or Long Polling with more than 4 connections:"
echo "   over HTTP/2 the browser's limit of 6 connections per origin does not apply. Its certificate is"
echo "   self-signed: accept it once in the browser."
exec node scripts/hub.mjs --HttpsPort 5181 "$@"
