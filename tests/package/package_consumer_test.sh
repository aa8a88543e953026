#!/usr/bin/env bash
# package_consumer: installs this build into a scratch prefix, then uses the installed package as a
# project outside redist would: find_package(redist CONFIG) (consumer/), and pkg-config with one
# compiler command. Both programs, and the installed redist, must print byte for byte what
# `redist ring plan data/examples/demo-ring.json` of the build prints. When the build has the MPI
# library, a third program finds the component `mpi` and links redist::mpi.
# Usage: package_consumer_test.sh CMAKE GENERATOR CXX PKG_CONFIG SOURCE_DIR BUILD_DIR REDIST SCRATCH
# SCRATCH is emptied first and kept afterwards (logs, the prefix) for a look after a failure.
set -euo pipefail
cmake=$1 generator=$2 cxx=$3 pkg_config=$4 source=$5 build=$6 redist=$7 scratch=$8
instance=$source/data/examples/demo-ring.json
prefix=$scratch/prefix

rm -rf "$scratch"
mkdir -p "$scratch"
cd "$scratch"
fail() { echo "FAIL: $*"; exit 1; }
source "$(dirname "$0")/common.sh"
# same NAME FILE: FILE equals the expected output, but for the seconds a command line spent.
same() {
  cmp -s <(without_seconds expected.json) <(without_seconds "$2") ||
    { diff expected.json "$2" | head -20; fail "$1 differs"; }
  echo "ok: $1"
}

"$redist" ring plan "$instance" > expected.json
[ -s expected.json ] || fail "redist ring plan printed nothing"

"$cmake" --install "$build" --prefix "$prefix" > install.log || { cat install.log; fail "install"; }
[ -f "$prefix/include/redist/ring/planner.hpp" ] || fail "no include/redist/ring/planner.hpp"
[ ! -e "$prefix/include/redist/testing" ] || fail "the test support was installed"
if find "$prefix/include" -name '*_test*' | grep -q .; then fail "test files installed"; fi
"$prefix/bin/redist" ring plan "$instance" > installed-redist.json
same "installed bin/redist" installed-redist.json

# find_package(redist CONFIG), from this prefix and no other; with COMPONENTS mpi too when the
# MPI library was installed.
with_mpi=OFF
if find "$prefix" -name libredist_mpi.a | grep -q .; then with_mpi=ON; fi
"$cmake" -S "$source/tests/package/consumer" -B consumer -G "$generator" \
  -DCMAKE_BUILD_TYPE=Release -DCMAKE_CXX_COMPILER="$cxx" -DCMAKE_PREFIX_PATH="$prefix" \
  -DCONSUMER_WITH_MPI=$with_mpi \
  > consumer-configure.log 2>&1 || { cat consumer-configure.log; fail "consumer configure"; }
grep -qF "redist_DIR:PATH=$prefix/" consumer/CMakeCache.txt || {
  grep redist_DIR consumer/CMakeCache.txt; fail "the package was not found in $prefix"; }
"$cmake" --build consumer > consumer-build.log 2>&1 || {
  cat consumer-build.log; fail "consumer build"; }
consumer/consumer "$instance" > find-package.json
same "find_package(redist CONFIG) consumer" find-package.json
if [ $with_mpi = ON ]; then
  [ "$(consumer/consumer_mpi)" = ring ] || fail "the program linked to redist::mpi"
  echo "ok: find_package(redist CONFIG COMPONENTS mpi) consumer"
fi

# pkg-config: the flags, then one compiler command.
pc=$(find "$prefix" -name redist.pc)
[ -n "$pc" ] || fail "no redist.pc installed"
export PKG_CONFIG_PATH=$(dirname "$pc")
flags=$("$pkg_config" --cflags --libs redist) || fail "pkg-config --cflags --libs redist"
echo "pkg-config --cflags --libs redist: $flags"
# shellcheck disable=SC2086 # the flags are words
"$cxx" -o one-file "$source/tests/package/consumer/main.cpp" $flags > one-file.log 2>&1 || {
  cat one-file.log; fail "$cxx main.cpp \$(pkg-config --cflags --libs redist)"; }
./one-file "$instance" > pkg-config.json
same "pkg-config program" pkg-config.json
echo "PASS: package_consumer"
