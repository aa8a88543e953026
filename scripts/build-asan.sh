#!/usr/bin/env bash
# Configures and builds the sanitizer build into build-asan/: clang 14, ASan + UBSan
# (REDIST_SANITIZE), the libFuzzer targets (REDIST_BUILD_FUZZERS), no benchmarks, no SimGrid
# shared object (smpirun cannot load an ASan library), linked by lld. docs/fuzzing.md.
# Usage: scripts/build-asan.sh [extra cmake args]
set -euo pipefail
cd "$(dirname "$0")/.."
CC=clang-14 CXX=clang++-14 cmake -S . -B build-asan -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo \
  -DCMAKE_CXX_FLAGS_RELWITHDEBINFO="-O1 -gline-tables-only -DNDEBUG" \
  -DREDIST_SANITIZE=ON -DREDIST_BUILD_FUZZERS=ON -DREDIST_BUILD_BENCHMARKS=OFF \
  -DCMAKE_EXE_LINKER_FLAGS=-fuse-ld=lld -DCMAKE_SHARED_LINKER_FLAGS=-fuse-ld=lld \
  -DCMAKE_MODULE_LINKER_FLAGS=-fuse-ld=lld \
  -DREDIST_BUILD_SMPI=OFF "$@" >/dev/null
cmake --build build-asan --parallel "$(nproc)"
