#!/usr/bin/env bash
# package_subdirectory: a project that includes redist's source tree with add_subdirectory()
# (subdirectory/) and links redist::core. Its program must print byte for byte what
# `redist ring plan data/examples/demo-ring.json` prints, and none of redist's tests or benchmarks
# may be part of its build.
# Usage: package_subdirectory_test.sh CMAKE GENERATOR CXX SOURCE_DIR REDIST SCRATCH
# SCRATCH is emptied first and kept afterwards (logs) for a look after a failure. The libraries are
# compiled without optimization: the test is about the build, and this halves its time.
set -euo pipefail
cmake=$1 generator=$2 cxx=$3 source=$4 redist=$5 scratch=$6
instance=$source/data/examples/demo-ring.json

rm -rf "$scratch"
mkdir -p "$scratch"
cd "$scratch"
fail() { echo "FAIL: $*"; exit 1; }

"$redist" ring plan "$instance" > expected.json
[ -s expected.json ] || fail "redist ring plan printed nothing"

"$cmake" -S "$source/tests/package/subdirectory" -B build -G "$generator" \
  -DREDIST_SOURCE_DIR="$source" -DCMAKE_CXX_COMPILER="$cxx" \
  -DCMAKE_BUILD_TYPE=Debug -DCMAKE_CXX_FLAGS_DEBUG=-O0 \
  > configure.log 2>&1 || { cat configure.log; fail "configure"; }
for option in REDIST_BUILD_TESTS REDIST_BUILD_BENCHMARKS REDIST_BUILD_EXAMPLES REDIST_BUILD_PYTHON \
  REDIST_INSTALL; do
  grep -qx "$option:BOOL=OFF" build/CMakeCache.txt || fail "$option is not OFF by default"
done
# No test registered, no program linking GoogleTest or Google Benchmark, no install rule.
tests=$("$(dirname "$cmake")/ctest" --test-dir build -N | grep -c "Test *#" || true)
[ "$tests" = 0 ] || fail "$tests tests registered"
if grep -rEqs --include=build.ninja --include=link.txt "libgtest|libbenchmark" build; then
  fail "a test or benchmark program is part of the build"
fi
[ ! -e build/redist/cmake_install.cmake ] || ! grep -q "include/redist" build/redist/cmake_install.cmake ||
  fail "redist's install rules are active"

"$cmake" --build build > build.log 2>&1 || { tail -50 build.log; fail "build"; }
build/consumer "$instance" > consumer.json
source "$(dirname "$0")/common.sh"
cmp -s <(without_seconds expected.json) consumer.json ||
  { diff expected.json consumer.json | head -20; fail "output differs"; }
echo "ok: add_subdirectory consumer"
echo "PASS: package_subdirectory"
