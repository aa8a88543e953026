#!/usr/bin/env bash
# configure_options: redist configured with each of REDIST_BUILD_TESTS, REDIST_BUILD_BENCHMARKS,
# REDIST_BUILD_MPI and REDIST_BUILD_SIMGRID off, then with every option off (examples, Python
# module and install rules too). Each variant must configure without a warning, define exactly
# the targets and tests its options ask for, and have a complete build of the `redist` program
# and of the part that the variant keeps (see the table at the bottom).
# Usage: configure_options_test.sh CMAKE GENERATOR CXX SOURCE_DIR SCRATCH
#
# Kept cheap, as it runs in every test run on two cores:
#  - one build directory for all variants. Its cache is deleted before each variant, so every
#    configuration starts from scratch (no option or search result left over from the previous
#    one);
#  - the variants' targets are built as a dry run (`--build ... -- -n`: every rule, input and
#    dependency of the build present, nothing compiled). The options decide which targets exist
#    and what they link, not how a file is compiled: compiling the same sources with the same
#    flags as the main build again would check nothing more (it took two minutes; the core is
#    compiled at -O0 by package_subdirectory, and the programs by the main build);
#  - CMAKE_LINK_LIBRARIES_ONLY_TARGETS makes a link to a target that an option removed an error at
#    generation time, for every target; the generated link lines are searched for what a variant
#    must not link.
# SCRATCH is emptied first and kept afterwards (one log per variant) for a look after a failure.
set -euo pipefail
cmake=$1 generator=$2 cxx=$3 source=$4 scratch=$5
ctest=$(dirname "$cmake")/ctest

rm -rf "$scratch"
mkdir -p "$scratch"
cd "$scratch"
fail() { echo "FAIL: $*"; exit 1; }

# has_target NAME: NAME is a target of the current configuration. CMake's file API writes one
# reply file per target at each generation (and removes those of targets that are gone).
mkdir -p build/.cmake/api/v1/query
touch build/.cmake/api/v1/query/codemodel-v2
has_target() { compgen -G "build/.cmake/api/v1/reply/target-$1-Debug-*.json" > /dev/null; }
# links LIBRARY: some program of the current configuration links LIBRARY (Ninja or Makefiles).
links() { grep -rqs --include=build.ninja --include=link.txt "$1" build; }

# variant NAME "OPTION=VALUE..." TARGETS...: configure from an empty cache, build TARGETS.
variant() {
  local name=$1 options=() start=$SECONDS
  for option in $2; do options+=("-D$option"); done
  shift 2
  rm -f build/CMakeCache.txt
  "$cmake" -S "$source" -B build -G "$generator" -DCMAKE_CXX_COMPILER="$cxx" \
    -DCMAKE_BUILD_TYPE=Debug -DCMAKE_CXX_FLAGS_DEBUG=-O0 -DCMAKE_LINK_LIBRARIES_ONLY_TARGETS=ON \
    "${options[@]}" > "$name.log" 2>&1 || { cat "$name.log"; fail "$name: configure"; }
  if grep -q "CMake Warning" "$name.log"; then cat "$name.log"; fail "$name: configure warnings"; fi
  for target in "$@"; do
    has_target "$target" || fail "$name: no target $target"
  done
  "$cmake" --build build --target "$@" -- -n >> "$name.log" 2>&1 || {
    tail -50 "$name.log"; fail "$name: build $*"; }
  echo "ok: $name (configured, dry-run built $*: $((SECONDS - start)) s)"
}

# absent NAME TARGET...: none of these targets is defined.
absent() {
  local name=$1
  shift
  for target in "$@"; do
    ! has_target "$target" || fail "$name: $target is defined"
  done
}

# tests NAME none|some: whether ctest has tests to run.
tests() {
  local count
  count=$("$ctest" --test-dir build -N | grep -c "Test *#" || true)
  case $2 in
    none) [ "$count" = 0 ] || fail "$1: $count tests registered" ;;
    some) [ "$count" -gt 0 ] || fail "$1: no test registered" ;;
  esac
}

# Variants: what each turns off, what it builds. The first compiles the core and the programs;
# the later ones compile only what they add (the MPI library, the SimGrid program, a test).
all_off="REDIST_BUILD_TESTS=OFF REDIST_BUILD_BENCHMARKS=OFF REDIST_BUILD_EXAMPLES=OFF
REDIST_BUILD_PYTHON=OFF REDIST_BUILD_MPI=OFF REDIST_BUILD_SIMGRID=OFF REDIST_INSTALL=OFF"
variant all_off "$all_off" redist redist-platform
absent all_off redist-mpi redist-ring-sim redist-smpi iterative-columns balance_benchmark \
  example-ring-summary redist_python
tests all_off none
links libgtest && fail "all_off: a program links GoogleTest"
links libbenchmark && fail "all_off: a program links Google Benchmark"

variant tests_off "REDIST_BUILD_TESTS=OFF" redist redist-mpi redist-ring-sim
tests tests_off none
links libgtest && fail "tests_off: a program links GoogleTest"

variant benchmarks_off "REDIST_BUILD_BENCHMARKS=OFF" redist common_checked_test
tests benchmarks_off some
links libbenchmark && fail "benchmarks_off: a program links Google Benchmark"

variant mpi_off "REDIST_BUILD_MPI=OFF" redist redist-ring-sim
absent mpi_off redist-mpi redist-calibrate redist_mpi redist-smpi iterative-columns redist_zoltan \
  zoltan-mpi-test

variant simgrid_off "REDIST_BUILD_SIMGRID=OFF" redist redist-mpi
absent simgrid_off redist-ring-sim redist-platform-check redist-smpi iterative-columns-smpi \
  redist-smpi-calibrate

echo "PASS: configure_options"
