#!/usr/bin/env bash
# package_consumer: installs this build into a scratch prefix, then uses the installed package as a
# project outside redist would: find_package(redist CONFIG) (consumer/), and pkg-config with one
# compiler command. Both programs, and the installed redist, must print byte for byte what
# `redist ring plan data/examples/demo-ring.json` of the build prints. When the build has the MPI
# library: a program finds the component `mpi` and links redist::mpi; the drop-in is called from
# C++ (find_package, redist::mpi) and from C (the C compiler with `pkg-config redist-mpi`), each
# under mpirun on 2 ranks, which must all receive what the others sent; libredist-pmpi.so must be
# installed and define MPI_Alltoallv.
# Usage: package_consumer_test.sh CMAKE GENERATOR CXX PKG_CONFIG SOURCE_DIR BUILD_DIR REDIST SCRATCH
#                                 [MPIEXEC [CC]]
# MPIEXEC runs the MPI programs (needed when the build has the MPI library); CC compiles the C
# program (without it, that part is skipped). SCRATCH is emptied first and kept afterwards (logs,
# the prefix) for a look after a failure.
set -euo pipefail
cmake=$1 generator=$2 cxx=$3 pkg_config=$4 source=$5 build=$6 redist=$7 scratch=$8
mpiexec=${9:-} cc=${10:-}
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

# mpirun2 NAME PROGRAM...: PROGRAM on 2 ranks (as root too, on any number of cores), its output in
# NAME.log; it must exit 0 and rank 0 print a line "ok: ...".
mpirun2() {
  local name=$1
  shift
  [ -n "$mpiexec" ] || fail "no mpiexec given to run $name"
  OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_btl=self,vader,tcp OMPI_MCA_odls_base_sigkill_timeout=0 \
    timeout 60 "$mpiexec" --allow-run-as-root --oversubscribe -np 2 "$@" > "$name.log" 2>&1 || {
    cat "$name.log"; fail "$name under mpirun"; }
  grep '^ok: ' "$name.log" || { cat "$name.log"; fail "$name printed no ok line"; }
}
if [ $with_mpi = ON ]; then
  [ "$(consumer/consumer_mpi)" = ring ] || fail "the program linked to redist::mpi"
  echo "ok: find_package(redist CONFIG COMPONENTS mpi) consumer"
  # auto: the first call runs the native one, the next ones what the drop-in decided.
  REDIST_ALLTOALLV=auto mpirun2 dropin-cxx consumer/consumer_dropin
  pmpi=$(find "$prefix" -name libredist-pmpi.so)
  [ -n "$pmpi" ] || fail "no libredist-pmpi.so installed"
  symbols=$(nm -D --defined-only "$pmpi") || fail "nm -D $pmpi"
  grep -qw MPI_Alltoallv <<< "$symbols" || fail "$pmpi defines no MPI_Alltoallv"
  echo "ok: $pmpi"
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

# pkg-config redist-mpi: a C program calling the drop-in, one C compiler command (warnings are
# errors: the flags must suit C), run with redist's plans forced (always): its report must show
# calls that redist's plans ran.
if [ $with_mpi = ON ] && [ -n "$cc" ]; then
  flags=$("$pkg_config" --cflags --libs redist-mpi) || fail "pkg-config --cflags --libs redist-mpi"
  echo "pkg-config --cflags --libs redist-mpi: $flags"
  # shellcheck disable=SC2086 # the flags are words
  "$cc" -std=c11 -Wall -Wextra -Werror -o dropin-c "$source/tests/package/consumer/dropin_main.c" \
    $flags > dropin-c-build.log 2>&1 || {
    cat dropin-c-build.log; fail "$cc dropin_main.c \$(pkg-config --cflags --libs redist-mpi)"; }
  REDIST_ALLTOALLV=always mpirun2 dropin-c ./dropin-c "$scratch/dropin-c-report.json"
  grep -q '"redist_calls": [1-9]' dropin-c-report.json || {
    cat dropin-c-report.json; fail "redist's plans did not run the C program's calls"; }
elif [ $with_mpi = ON ]; then
  echo "skipped: the C program (no C compiler)"
fi
echo "PASS: package_consumer"
