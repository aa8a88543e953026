#!/usr/bin/env bash
# package_subdirectory: a project that includes redist's source tree with add_subdirectory()
# (subdirectory/) and links one family's library, redist::ring. Its program must plan the bundled
# ring with the makespan and optimality that `redist ring plan data/examples/demo-ring.json`
# prints, and none of redist's tests or benchmarks may be part of its build.
# Only what the program links is compiled (redist::ring and the libraries below it): the rest of
# redist::core is checked as a dry run (every rule, input and dependency of its build present,
# nothing compiled). It is compiled with the same sources and flags by the main build, and the
# installed package's test (package_consumer) links all of it.
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

# redist::core's libraries, as a dry run; then the program, for real.
"$cmake" --build build --target redist_api redist_svg -- -n > core-dry-run.log 2>&1 ||
  { tail -50 core-dry-run.log; fail "dry-run build of redist::core"; }
"$cmake" --build build --target consumer > build.log 2>&1 || { tail -50 build.log; fail "build"; }
if grep -q "redist_io\.dir" build.log; then fail "the build compiled libraries the program does not link"; fi
# The instance's lists as the program's arguments; its three lines as the command line's plan says.
arguments=$(python3 -c 'import json, sys
ring = json.load(open(sys.argv[1]))["ring"]
print(" ".join(",".join(str(v) for v in ring[k]) for k in ("loads", "targets", "cost_next", "cost_prev")))' "$instance")
# shellcheck disable=SC2086
build/consumer $arguments > consumer.txt
python3 -c 'import json, sys
plan = json.load(open(sys.argv[1]))
sys.stdout.write("makespan %.17g\noptimal %s\nvalid true\n" % (plan["makespan"], "true" if plan["optimal"] else "false"))' \
  expected.json > expected.txt
cmp -s expected.txt consumer.txt || { diff expected.txt consumer.txt; fail "output differs"; }
echo "ok: add_subdirectory consumer ($(grep -c "Building CXX" build.log) files compiled)"
echo "PASS: package_subdirectory"
