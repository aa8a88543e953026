#!/usr/bin/env bash
# One mpirun run of examples/particles (ctest entries mpi_run_example_particles_*,
# examples/CMakeLists.txt).
# Usage: particles_test.sh MPIRUN PROGRAM CHECKER ok NP ARGS...
#        particles_test.sh MPIRUN PROGRAM CHECKER record NP K ARGS...
#        particles_test.sh MPIRUN PROGRAM CHECKER error NP MESSAGE ARGS...
#        particles_test.sh MPIRUN PROGRAM CHECKER verbose NP ARGS...
# ok: exit 0 and a line `verified: yes`.
# record: the same with --iterations K --record FILE (a temporary file), then CHECKER FILE K
# (particles-recording-check) must accept the recording.
# error: exit 2, nothing on standard output, and standard error exactly one line `error: ...`
# holding MESSAGE.
# verbose: as ok, with --verbose (a policy that weighs costs): at least one line per rebalance, each
# with every time in seconds
# (the policy's predicted saving and migration cost when it weighs them, the migration planned
# and measured).
set -uo pipefail
mpirun=$1 program=$2 checker=$3 kind=$4 np=$5
shift 5
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
export OMPI_MCA_btl=self,vader,tcp OMPI_MCA_rmaps_base_oversubscribe=1 OMPI_MCA_odls_base_sigkill_timeout=0
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
message="" iterations=""
case $kind in
  error) message=$1; shift ;;
  record) iterations=$1; shift; set -- "$@" --iterations "$iterations" --record "$dir/recording.json" ;;
  verbose) set -- "$@" --verbose ;;
esac
timeout 50 "$mpirun" -q --oversubscribe -np "$np" "$program" "$@" >"$dir/out" 2>"$dir/err"
rc=$?
cat "$dir/out"
# OpenMPI's bundled libevent may warn when ranks exit together on a loaded machine: not ours.
grep -v '^\[warn\] Epoll ' "$dir/err" >"$dir/err.ours"
if [ "$kind" = error ]; then
  if [ $rc -ne 2 ]; then echo "FAIL: exit $rc (expected 2)"; cat "$dir/err"; exit 1; fi
  cat "$dir/err.ours"
  if [ "$(wc -l <"$dir/err.ours")" -ne 1 ] || ! grep -q '^error: ' "$dir/err.ours"; then
    echo "FAIL: want exactly one line 'error: ...' on standard error"; exit 1
  fi
  if ! grep -qF -- "$message" "$dir/err.ours"; then echo "FAIL: message '$message' missing"; exit 1; fi
  if [ -s "$dir/out" ]; then echo "FAIL: standard output not empty on error"; exit 1; fi
  echo PASS
  exit 0
fi
if [ $rc -ne 0 ]; then echo "FAIL: exit $rc"; cat "$dir/err"; exit 1; fi
if ! grep -qx 'verified: yes' "$dir/out"; then echo "FAIL: not verified"; cat "$dir/err"; exit 1; fi
if [ "$kind" = verbose ]; then
  number='[0-9][0-9.e+-]*'
  lines=$(grep -c '^after iteration ' "$dir/out")
  weighed="^after iteration [0-9]*: predicted saving $number s against a migration cost of $number s( \(the planned makespan x calibration $number\))?; "
  tail_re="; [0-9]* particles moved, migration planned $number s, measured $number s\$"
  if [ "$lines" -lt 1 ] || grep '^after iteration ' "$dir/out" | grep -Evq -- "$tail_re" ||
     ! grep -Eq -- "$weighed" "$dir/out"; then
    echo "FAIL: a rebalance line without its units"; exit 1
  fi
fi
if [ "$kind" = record ]; then
  "$checker" "$dir/recording.json" "$iterations" || { echo "FAIL: recording refused"; exit 1; }
fi
echo PASS
