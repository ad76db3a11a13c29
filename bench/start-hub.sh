# Sourced by the bench scripts: builds the runner and the hub-sample, starts the hub on $port in
# the background through the repo's one hub start-up (scripts/hub.mjs), stopped when the script
# exits, and waits until it answers.
npx vite build -c vite.cli.config.ts --logLevel warn
dotnet build hub-sample/HubSample.csproj -c Release --nologo -v quiet >/dev/null
node scripts/hub.mjs --port "$port" >/dev/null 2>&1 &
hub=$!
trap 'kill $hub 2>/dev/null || true' EXIT
for _ in $(seq 1 50); do curl -sf "http://127.0.0.1:$port/healthz" >/dev/null && break; sleep 0.2; done
