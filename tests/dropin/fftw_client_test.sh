#!/usr/bin/env bash
# FFTW's MPI transforms on 3 ranks, natively and with the profiling library preloaded, must give
# the same bits (docs/dropin-tests.md). A ctest entry (tests/dropin/CMakeLists.txt).
# Usage: fftw_client_test.sh PROGRAM PMPI_LIBRARY MPIRUN
#   PROGRAM       the fftw_client program (tests/dropin/fftw_client.c)
#   PMPI_LIBRARY  the library to preload (libredist-pmpi.so)
#   MPIRUN        OpenMPI's mpirun
# Steps: (1) a native run plans with FFTW_MEASURE until FFTW picks its MPI_Alltoall(v) transpose,
# for a problem of unequal blocks (MPI_Alltoallv) and one of equal blocks (MPI_Alltoall), and
# writes that wisdom; (2) a native run imports it (FFTW_WISDOM_ONLY: the same plans whatever the
# timings) and prints the hashes of the results; (3) the same run with the library preloaded, with
# REDIST_ALLTOALLV=always, then auto, must print the very same lines and leave a report whose
# patterns have calls (with always, one pattern at least ran redist's plan).
set -uo pipefail
if [ $# -ne 3 ]; then
  echo "usage: $0 PROGRAM PMPI_LIBRARY MPIRUN" >&2
  exit 2
fi
program=$1 library=$2 mpirun=$3
for f in "$program" "$library" "$mpirun"; do
  if [ ! -e "$f" ]; then echo "FAIL: $f does not exist"; exit 1; fi
done
library=$(cd "$(dirname "$library")" && pwd)/$(basename "$library")
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
export OMPI_MCA_btl=self,vader,tcp OMPI_MCA_rmaps_base_oversubscribe=1 OMPI_MCA_odls_base_sigkill_timeout=0
np=3
# The library's other settings, when set in this script's environment, reach the preloaded runs.
passed=()
for v in REDIST_PLATFORM REDIST_MIN_GAIN; do
  if [ -n "${!v:-}" ]; then passed+=(-x "$v"); fi
done
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# run NAME ARGS...: mpirun on np ranks, stdout to $work/NAME.out, stderr to $work/NAME.err.
run() {
  local name=$1
  shift
  timeout 120 "$mpirun" -q --allow-run-as-root --oversubscribe -np $np "$@" \
    >"$work/$name.out" 2>"$work/$name.err"
  local rc=$?
  if [ $rc -ne 0 ]; then
    echo "FAIL: $name: exit $rc"
    cat "$work/$name.out" "$work/$name.err"
    exit 1
  fi
}

start=$SECONDS
run wisdom "$program" wisdom "$work/wisdom"
grep '^fftw_client: .*attempt' "$work/wisdom.err"
sizes=$(sed -n 's/^size \([0-9]*x[0-9]*\)$/\1/p' "$work/wisdom.out" | tr '\n' ' ')
if [ -z "$sizes" ]; then
  echo "FAIL: no size line from the wisdom run"
  cat "$work/wisdom.out"
  exit 1
fi
echo "wisdom: $sizes(mpi-transpose-alltoall in every plan)"

reps=4
run native "$program" run "$work/wisdom" $reps $sizes
grep '^fftw_client:' "$work/native.out" >"$work/native.lines"
cat "$work/native.lines"
for call in MPI_Alltoallv MPI_Alltoall; do
  for direction in forward backward; do
    pattern="$direction plan: mpi-transpose-alltoall [1-9].*: $call)"
    if ! grep -q "$pattern" "$work/native.lines"; then
      echo "FAIL: no $direction plan whose transposes call $call"
      exit 1
    fi
  done
done

status=0
for mode in always auto; do
  report=$work/report-$mode.json
  run "$mode" -x LD_PRELOAD="$library" -x REDIST_ALLTOALLV=$mode -x REDIST_REPORT="$report" \
    "${passed[@]}" "$program" run "$work/wisdom" $reps $sizes
  grep '^fftw_client:' "$work/$mode.out" >"$work/$mode.lines"
  if ! cmp -s "$work/native.lines" "$work/$mode.lines"; then
    echo "FAIL: REDIST_ALLTOALLV=$mode: the output differs from the native run"
    diff "$work/native.lines" "$work/$mode.lines"
    status=1
    continue
  fi
  if [ ! -s "$report" ]; then
    echo "FAIL: REDIST_ALLTOALLV=$mode: no report at REDIST_REPORT"
    cat "$work/$mode.err"
    status=1
    continue
  fi
  if ! python3 - "$report" "$mode" "$np" <<'EOF'
import json, sys
path, mode, np = sys.argv[1], sys.argv[2], int(sys.argv[3])
try:
    with open(path) as f:
        report = json.load(f)["report"]
    patterns = report["patterns"]
    ranks = report["ranks"]
except (OSError, ValueError, KeyError, TypeError) as e:
    sys.exit(f"FAIL: {mode}: the report {path} is not as expected: {e!r}")
for p in patterns:
    print(f"  {mode}: pattern {p.get('hash')}: calls {p.get('calls')}, choice {p.get('choice')}, "
          f"cache hits {p.get('cache_hits')}")
print(f"  {mode}: fallbacks {report.get('fallbacks')}")
if ranks != np:
    sys.exit(f"FAIL: {mode}: the report says {ranks} ranks, the run had {np}")
if not patterns or any(not isinstance(p.get("calls"), int) or p["calls"] <= 0 for p in patterns):
    sys.exit(f"FAIL: {mode}: the report has no pattern, or a pattern without calls")
if mode == "always" and not any(p.get("choice") == "redist" for p in patterns):
    sys.exit("FAIL: always: no pattern ran redist's plan")
EOF
  then
    status=1
    continue
  fi
  echo "REDIST_ALLTOALLV=$mode: same bits as the native run"
done
echo "time: $((SECONDS - start)) s"
if [ $status -ne 0 ]; then exit 1; fi
echo "PASS"
