#!/usr/bin/env bash
# MPICH's own alltoall conformance tests, compiled against this machine's MPI and run natively and
# with the profiling library preloaded (docs/dropin-tests.md). A ctest entry
# (tests/dropin/CMakeLists.txt).
# Usage: mpich_conformance.sh CACHE_DIR PMPI_LIBRARY MPIRUN MPICC
#   CACHE_DIR     where MPICH's source archive is kept between runs (the build directory's dropin/)
#   PMPI_LIBRARY  the library to preload (libredist-pmpi.so)
#   MPIRUN, MPICC this machine's MPI launcher and C compiler wrapper
# MPICH's source is not part of this repository: Debian's source package is fetched once with
# `apt-get source --download-only`, with apt's lists and caches in CACHE_DIR and a source list
# derived from the machine's own (the system's apt configuration is left alone). Only the files
# needed are extracted. Each test runs on 2, 3 and 4 ranks (those of them on which it calls
# MPI_Alltoall(v)): natively, then preloaded with REDIST_ALLTOALLV=always, then auto, and must
# print " No Errors" and exit 0 every time. Preloaded, a test that calls MPI_Alltoall or
# MPI_Alltoallv must also leave a report (REDIST_REPORT) that counts its calls (in patterns or in
# fallbacks). Without network access to the archive, the first run fails (it never passes without
# having run the tests).
set -uo pipefail
if [ $# -ne 4 ]; then
  echo "usage: $0 CACHE_DIR PMPI_LIBRARY MPIRUN MPICC" >&2
  exit 2
fi
cache=$1 library=$2 mpirun=$3 mpicc=$4
for f in "$library" "$mpirun" "$mpicc"; do
  if [ ! -e "$f" ] && ! command -v "$f" >/dev/null; then echo "FAIL: $f does not exist"; exit 1; fi
done
library=$(cd "$(dirname "$library")" && pwd)/$(basename "$library")
here=$(cd "$(dirname "$0")" && pwd)
start=$SECONDS

# The tests: every test of MPICH's test/mpi/coll/ that calls MPI_Alltoall or MPI_Alltoallv and
# builds against OpenMPI 4.1 (the persistent p_alltoall* need MPI-4.0), with the kind of
# communicator: intra (intracommunicators, redist's case) or inter (intercommunicators: the
# library must hand them to the native call), and the numbers of ranks on which the test makes
# such calls (alltoallv0 skips communicators of fewer than 3 ranks, the ic* tests need 4). The
# alltoallw tests call no function the library defines: controls, which must pass preloaded all
# the same.
tests=(
  "alltoall1 intra 2,3,4 MPI_Alltoall, MPI_IN_PLACE, many communicators and counts"
  "alltoallv intra 2,3,4 MPI_Alltoallv, counts by destination, MPI_IN_PLACE"
  "alltoallv0 intra 3,4 MPI_Alltoallv, a halo exchange: zero counts to non-neighbours"
  "alltoallw_zeros intra 2,3,4 MPI_Alltoallv and MPI_Alltoallw, all counts zero, MPI_IN_PLACE"
  "coll13 intra 2,3,4 MPI_Alltoall on MPI_COMM_WORLD"
  "icalltoall inter 4 MPI_Alltoall on intercommunicators"
  "icalltoallv inter 4 MPI_Alltoallv on intercommunicators"
  "alltoallw1 control 2,3,4 MPI_Alltoallw only"
  "alltoallw2 control 2,3,4 MPI_Alltoallw only"
  "icalltoallw control 4 MPI_Alltoallw only, intercommunicators"
)

# 1. MPICH's source archive, downloaded once into the cache.
mkdir -p "$cache"
cache=$(cd "$cache" && pwd)
archive=$(ls "$cache"/mpich_*.orig.tar.* 2>/dev/null | head -n 1)
if [ -z "$archive" ]; then
  apt_dir=$cache/apt
  rm -rf "$apt_dir"
  mkdir -p "$apt_dir/lists/partial" "$apt_dir/etc" "$apt_dir/cache/archives/partial"
  # deb-src entries from the machine's own sources: deb822 files and one-line lists.
  for f in /etc/apt/sources.list.d/*.sources; do
    [ -e "$f" ] && sed 's/^Types: deb$/Types: deb-src/' "$f" >"$apt_dir/etc/$(basename "$f")"
  done
  for f in /etc/apt/sources.list /etc/apt/sources.list.d/*.list; do
    [ -e "$f" ] && sed -n 's/^deb \(.*\)$/deb-src \1/p' "$f" >"$apt_dir/etc/src-$(basename "$f")"
  done
  apt_options=(-q -o Dir::Etc::SourceList=/dev/null -o Dir::Etc::SourceParts="$apt_dir/etc"
               -o Dir::State::Lists="$apt_dir/lists" -o Dir::Cache="$apt_dir/cache")
  echo "downloading MPICH's source with apt-get source (once; kept in $cache)"
  if ! apt-get "${apt_options[@]}" update >"$apt_dir/update.log" 2>&1 ||
     ! (cd "$apt_dir" && apt-get "${apt_options[@]}" source --download-only mpich) \
       >"$apt_dir/source.log" 2>&1; then
    cat "$apt_dir/update.log" "$apt_dir/source.log" 2>/dev/null | tail -n 20
    echo "FAIL: cannot download MPICH's source package with apt-get source: this test needs"
    echo "      Debian's package archive (deb-src of the machine's apt sources) to be reachable"
    exit 1
  fi
  # Into the cache only once apt has checked it against the source package's checksums.
  archive=$(ls "$apt_dir"/mpich_*.orig.tar.* 2>/dev/null | head -n 1)
  if [ -z "$archive" ]; then
    echo "FAIL: apt-get source mpich gave no mpich_*.orig.tar.*"
    exit 1
  fi
  mv "$archive" "$cache/" && rm -rf "$apt_dir"
  archive=$cache/$(basename "$archive")
fi
echo "MPICH source: $(basename "$archive")"

# 2. The files needed, extracted into a fresh directory.
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
members=("*/test/mpi/include/*" "*/test/mpi/util/mtest.c" "*/test/mpi/util/mtest_common.c"
         "*/test/mpi/util/mtest_single.c")
for t in "${tests[@]}"; do members+=("*/test/mpi/coll/${t%% *}.c"); done
if ! tar -xf "$archive" -C "$work" --strip-components=3 --wildcards "${members[@]}"; then
  echo "FAIL: cannot extract MPICH's tests from $archive (remove it to download it again)"
  exit 1
fi

# 3. Compiled with mpicc and the stand-in of MPICH's generated configuration header.
cflags=(-O1 -w -I"$here/mpich" -I"$work/include")
for u in mtest mtest_common mtest_single; do
  if ! "$mpicc" "${cflags[@]}" -c "$work/util/$u.c" -o "$work/$u.o"; then
    echo "FAIL: MPICH's util/$u.c does not compile"
    exit 1
  fi
done
for t in "${tests[@]}"; do
  name=${t%% *}
  if ! "$mpicc" "${cflags[@]}" "$work/coll/$name.c" "$work/mtest.o" "$work/mtest_common.o" \
       "$work/mtest_single.o" -o "$work/$name"; then
    echo "FAIL: MPICH's coll/$name.c does not compile"
    exit 1
  fi
done
echo "compiled ${#tests[@]} tests in $((SECONDS - start)) s"

# 4. Run: every test on 2, 3 and 4 ranks, natively, then preloaded (always, auto).
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
export OMPI_MCA_btl=self,vader,tcp OMPI_MCA_rmaps_base_oversubscribe=1 OMPI_MCA_odls_base_sigkill_timeout=0
# The library's other settings, when set in this script's environment, reach the preloaded runs.
passed=()
for v in REDIST_PLATFORM REDIST_MIN_GAIN; do
  if [ -n "${!v:-}" ]; then passed+=(-x "$v"); fi
done
# reported_calls REPORT: the calls the report counts, in patterns and fallbacks (-1: no report).
reported_calls() {
  python3 - "$1" <<'EOF'
import json, sys
try:
    with open(sys.argv[1]) as f:
        report = json.load(f)["report"]
    calls = sum(p["calls"] for p in report["patterns"])
    calls += sum(v for v in report.get("fallbacks", {}).values() if isinstance(v, int))
    print(calls)
except (OSError, ValueError, KeyError, TypeError):
    print(-1)
EOF
}
failed=0
for t in "${tests[@]}"; do
  read -r name kind ranks what <<<"$t"
  summary=()
  test_failed=0
  for mode in native always auto; do
    results=""
    for np in ${ranks//,/ }; do
      out=$work/$name.$mode.$np.out
      report=$work/$name.$mode.$np.json
      preload=()
      if [ $mode != native ]; then
        preload=(-x LD_PRELOAD="$library" -x REDIST_ALLTOALLV=$mode -x REDIST_REPORT="$report"
                 "${passed[@]}")
      fi
      timeout 60 "$mpirun" -q --allow-run-as-root --oversubscribe -np $np "${preload[@]}" \
        "$work/$name" >"$out" 2>&1
      rc=$?
      verdict=ok
      if [ $rc -ne 0 ]; then
        verdict="exit $rc"
      elif ! grep -qx ' No Errors' "$out"; then
        verdict="no ' No Errors'"
      elif [ $mode != native ] && [ "$kind" != control ]; then
        calls=$(reported_calls "$report")
        if [ "$calls" -lt 0 ]; then
          verdict="no report"
        elif [ "$calls" -eq 0 ]; then
          verdict="no call in the report"
        fi
      fi
      if [ "$verdict" != ok ]; then
        test_failed=1
        echo "--- $name, $mode, $np ranks: $verdict"
        tail -n 30 "$out"
        results+=" $np:FAIL($verdict)"
      else
        results+=" $np:ok"
      fi
    done
    summary+=("$mode$results")
  done
  if [ $test_failed -eq 0 ]; then status=PASS; else status=FAIL; failed=$((failed + 1)); fi
  printf '%-4s %-16s %-8s %s | %s | %s   (%s)\n' $status "$name" "$kind" "${summary[0]}" \
    "${summary[1]}" "${summary[2]}" "$what"
done
echo "time: $((SECONDS - start)) s"
if [ $failed -ne 0 ]; then
  echo "FAIL: $failed of ${#tests[@]} MPICH tests failed"
  exit 1
fi
echo "PASS: ${#tests[@]} MPICH tests on 2 to 4 ranks, native and preloaded (always, auto)"
