#!/usr/bin/env bash
# Configures and builds redist (Release, Ninja) into build/: every target, or only those named
# with --target (scripts/demo.sh builds just the `redist` program). The configuration is the same
# either way, so build/ serves scripts/demo.sh and scripts/test.sh alike.
# Usage: scripts/build.sh [--target NAME]... [extra cmake args]
set -euo pipefail
cd "$(dirname "$0")/.."
targets=()
while [ "${1:-}" = --target ]; do
  [ $# -ge 2 ] || { echo "build.sh: --target needs a name" >&2; exit 2; }
  targets+=(--target "$2")
  shift 2
done
cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=Release "$@" >/dev/null
cmake --build build --parallel "$(nproc)" "${targets[@]}"
