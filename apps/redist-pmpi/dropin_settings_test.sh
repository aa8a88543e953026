#!/usr/bin/env bash
# The drop-in's settings under mpirun (ctest entries of apps/redist-pmpi/CMakeLists.txt): a
# platform file that is missing, malformed or made for another number of ranks is refused with one
# `redist: error:` line naming the field, and the native call is used (every result still right);
# a good file is used; the profiling library changes nothing in a program that never calls the
# collectives it interposes.
# Usage: dropin_settings_test.sh MPIRUN DROPIN_MPI_TEST PMPI_LIBRARY EXAMPLE_PROGRAM DATA_DIR
set -uo pipefail
mpirun=$1 program=$2 library=$3 example=$4 data=$5
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
export OMPI_MCA_btl=self,vader,tcp OMPI_MCA_rmaps_base_oversubscribe=1 OMPI_MCA_odls_base_sigkill_timeout=0
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
failed=0

# refused NAME FILE WORDS: the run is verified, every stderr line is the same refusal holding WORDS,
# and the report counts the calls as fallbacks for want of a platform.
refused() {
  local name=$1 file=$2 words=$3
  REDIST_PLATFORM=$file REDIST_ALLTOALLV=always REDIST_REPORT=$work/report.json \
    timeout 50 "$mpirun" -q --oversubscribe -np 3 -x REDIST_PLATFORM -x REDIST_ALLTOALLV \
    -x REDIST_REPORT "$program" --no-errors >"$work/out" 2>"$work/err"
  local rc=$?
  if [ $rc -ne 0 ] || ! grep -q '"verified": true' "$work/out"; then
    echo "FAIL $name: exit $rc, not verified"; cat "$work/out" "$work/err"; failed=1; return
  fi
  if [ "$(sort -u "$work/err" | wc -l)" -ne 1 ] || ! grep -qF -- "$words" "$work/err" ||
     ! grep -q '^redist: error: ' "$work/err"; then
    echo "FAIL $name: stderr is not one refusal naming '$words'"; cat "$work/err"; failed=1; return
  fi
  if ! python3 -c "import json,sys; r=json.load(open(sys.argv[1]))['report']; \
sys.exit(0 if r['fallbacks'].get('no platform', 0) > 0 and not r['patterns'] else 1)" "$work/report.json"; then
    echo "FAIL $name: the report does not show the native fallback"; cat "$work/report.json"; failed=1; return
  fi
  echo "PASS $name: $(head -n 1 "$work/err")"
}

refused missing "$work/none.json" "(at REDIST_PLATFORM)"
echo '{"platform": {"ranks": 3, "send_bandwidth": [1e9, -1, 1e9], "recv_bandwidth": 1e9}}' \
  >"$work/negative.json"
refused negative_bandwidth "$work/negative.json" "platform.send_bandwidth[1]"
echo '{"platform": {"ranks": 3, "send_bandwidth": 1e9' >"$work/truncated.json"
refused malformed "$work/truncated.json" "platform file"
refused other_ranks "$data/platforms/example-4.json" "(at platform.ranks)"

# A good file for 4 ranks: no refusal, plans made, a report valid against its schema.
REDIST_PLATFORM=$data/platforms/example-4.json REDIST_ALLTOALLV=always \
  REDIST_REPORT=$work/good.json timeout 50 "$mpirun" -q --oversubscribe -np 4 -x REDIST_PLATFORM \
  -x REDIST_ALLTOALLV -x REDIST_REPORT "$program" --no-errors >"$work/out" 2>"$work/err"
if [ $? -ne 0 ] || [ -s "$work/err" ] || ! python3 -c "import json,sys,jsonschema; \
d=json.load(open(sys.argv[1])); jsonschema.validate(d, json.load(open(sys.argv[2]))); \
sys.exit(0 if any(p['choice'] == 'redist' for p in d['report']['patterns']) else 1)" \
    "$work/good.json" "$data/../docs/schemas/dropin-report.schema.json"; then
  echo "FAIL good_file"; cat "$work/out" "$work/err"; failed=1
else
  echo "PASS good_file: $(grep -o '"cases": [0-9]*' "$work/out")"
fi

# A program that never calls MPI_Alltoall(v): the same output with the library preloaded.
timeout 50 "$mpirun" -q --oversubscribe -np 4 "$example" >"$work/plain" 2>&1
timeout 50 "$mpirun" -q --oversubscribe -np 4 -x LD_PRELOAD="$library" "$example" \
  >"$work/preloaded" 2>&1
if ! cmp -s "$work/plain" "$work/preloaded"; then
  echo "FAIL untouched: the output changed under the preload"; diff "$work/plain" "$work/preloaded"
  failed=1
else
  echo "PASS untouched: $(wc -l <"$work/plain") identical lines"
fi
exit $failed
