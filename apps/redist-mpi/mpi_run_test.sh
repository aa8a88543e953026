#!/usr/bin/env bash
# One real mpirun run of redist-mpi on loopback (ctest entry, see apps/redist-mpi/CMakeLists.txt).
# Usage: mpi_run_test.sh DRIVER MPIRUN ok NP ARGS...
#        mpi_run_test.sh DRIVER MPIRUN error NP MESSAGE ARGS...
#        mpi_run_test.sh DRIVER MPIRUN text NP MESSAGE ARGS...
# ok: exit 0 and one JSON line with "verified": true.
# text: exit 0, MESSAGE in the output and no JSON in it (a readable summary, `--format text`).
# error: exit 2 (a collective refusal, never a crash, abort or hang), and stderr holds exactly NP
# identical lines `error: ...MESSAGE...` and nothing else (mpirun -q adds no notice of its own).
set -uo pipefail
driver=$1 mpirun=$2 kind=$3 np=$4
shift 4
message=""
if [ "$kind" = error ] || [ "$kind" = text ]; then message=$1; shift; fi
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
# sigkill_timeout=0: when a rank ends with a non-zero code (every error case here), mpirun would
# otherwise wait one second, and two for a single rank, before it kills the ranks still running
# (none are); this costs the MPI tests, which run one at a time, about 100 s per build.
export OMPI_MCA_btl=self,vader,tcp OMPI_MCA_rmaps_base_oversubscribe=1 OMPI_MCA_odls_base_sigkill_timeout=0
out=$(mktemp) err=$(mktemp)
trap 'rm -f "$out" "$err"' EXIT
timeout 50 "$mpirun" -q --oversubscribe -np "$np" "$driver" "$@" >"$out" 2>"$err"
rc=$?
cat "$out"
if [ "$kind" = ok ]; then
  if [ $rc -ne 0 ]; then echo "FAIL: exit $rc"; cat "$err"; exit 1; fi
  if [ "$(grep -c '"verified": true' "$out")" -ne 1 ]; then echo "FAIL: not verified"; cat "$err"; exit 1; fi
  echo "PASS"
elif [ "$kind" = text ]; then
  if [ $rc -ne 0 ]; then echo "FAIL: exit $rc"; cat "$err"; exit 1; fi
  if ! grep -qF -- "$message" "$out"; then echo "FAIL: '$message' not in the output"; exit 1; fi
  if grep -q '^{' "$out"; then echo "FAIL: a JSON line in the text output"; exit 1; fi
  echo "PASS"
else
  if [ $rc -ne 2 ]; then echo "FAIL: exit $rc (expected 2: a refusal, no crash or hang)"; cat "$err"; exit 1; fi
  # OpenMPI's bundled libevent may warn when ranks exit together on a loaded machine
  # ("[warn] Epoll MOD(1) on fd N failed ..."): the runtime's words, not redist's, so they are
  # left out of the check.
  if grep -v '^\[warn\] Epoll ' "$err" | grep -qv '^error: '; then echo "FAIL: stderr has lines other than 'error: ...'"; cat "$err"; exit 1; fi
  lines=$(grep '^error: ' "$err" | sort | uniq -c)
  echo "$lines"
  count=$(grep -c '^error: ' "$err")
  distinct=$(grep '^error: ' "$err" | sort -u | wc -l)
  if [ "$count" -ne "$np" ] || [ "$distinct" -ne 1 ]; then echo "FAIL: want $np identical error lines"; cat "$err"; exit 1; fi
  if ! grep -qF -- "$message" "$err"; then echo "FAIL: message '$message' missing"; exit 1; fi
  if [ -s "$out" ]; then echo "FAIL: stdout not empty on error"; exit 1; fi
  echo "PASS"
fi
