#!/usr/bin/env bash
# Configures and builds redist (Release, Ninja) into build/: every target, or only those named
# with --target (scripts/demo.sh builds just the `redist` program). The configuration is the same
# either way, so build/ serves scripts/demo.sh and scripts/test.sh alike.
# A full build (no --target) also installs the Python package for the current user: a copy of
# build/python/redist in python3's user site-packages (`python3 -m site --user-site`), so that
# `python3 -c "import redist"` works from anywhere without PYTHONPATH (docs/python.md).
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

if [ ${#targets[@]} -eq 0 ] && ls build/python/redist/_redist*.so >/dev/null 2>&1; then
  site=$(python3 -c 'import site; print(site.getusersitepackages())')
  mkdir -p "$site"
  rm -rf "$site/redist"
  cp -r build/python/redist "$site/redist"
  echo "build.sh: the Python package redist is installed in $site"
fi
