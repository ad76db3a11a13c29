#!/usr/bin/env bash
# `npm run bench:peers [-- options]`: the peer benchmark (bench/peers/peers.mjs) with the open-files
# soft limit raised to the hard one first, for the hub-sample and every client it starts (each
# connection is a file descriptor on both sides).
set -euo pipefail
cd "$(dirname "$0")/../.."
ulimit -n "$(ulimit -Hn)" || true
exec node bench/peers/peers.mjs "$@"
