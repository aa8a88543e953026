#!/usr/bin/env bash
# An MPMD launch whose ranks get different arguments (ctest entry, see CMakeLists.txt):
#   mpirun -np 2 DRIVER COMMON... A... : -np 1 DRIVER COMMON... B...
# must end, within the timeout, with exit 2 and the same `error: ...MESSAGE...` line on all three
# ranks: no rank may fail alone and leave the others waiting.
# Usage: mpi_mpmd_test.sh DRIVER MPIRUN MESSAGE COMMON... -- A... -- B...
set -uo pipefail
driver=$1 mpirun=$2 message=$3
shift 3
common=() first=() second=()
while [ $# -gt 0 ] && [ "$1" != -- ]; do common+=("$1"); shift; done
shift
while [ $# -gt 0 ] && [ "$1" != -- ]; do first+=("$1"); shift; done
shift
second=("$@")
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
export OMPI_MCA_btl=self,vader,tcp OMPI_MCA_rmaps_base_oversubscribe=1 OMPI_MCA_odls_base_sigkill_timeout=0
err=$(mktemp)
trap 'rm -f "$err"' EXIT
timeout 50 "$mpirun" -q --oversubscribe -np 2 "$driver" "${common[@]}" "${first[@]}" : \
  -np 1 "$driver" "${common[@]}" "${second[@]}" >/dev/null 2>"$err"
rc=$?
if [ $rc -eq 124 ]; then echo "FAIL: hang (killed after 50 s)"; cat "$err"; exit 1; fi
if [ $rc -ne 2 ]; then echo "FAIL: exit $rc (expected 2)"; cat "$err"; exit 1; fi
lines=$(grep -v '^\[warn\] Epoll ' "$err")
if echo "$lines" | grep -qv '^error: '; then echo "FAIL: lines other than 'error: ...'"; cat "$err"; exit 1; fi
if [ "$(echo "$lines" | grep -c '^error: ')" -ne 3 ] || [ "$(echo "$lines" | sort -u | wc -l)" -ne 1 ]; then
  echo "FAIL: want 3 identical error lines"; cat "$err"; exit 1
fi
if ! grep -qF -- "$message" "$err"; then echo "FAIL: message '$message' missing"; cat "$err"; exit 1; fi
echo "PASS: $(head -1 "$err")"
