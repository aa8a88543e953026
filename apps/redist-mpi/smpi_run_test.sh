#!/usr/bin/env bash
# One SimGrid SMPI run of redist-smpi on a ring platform generated from the instance (ctest entry).
# Usage: smpi_run_test.sh BUILD_DIR INSTANCE ITEM_BYTES MIN_RATIO MAX_RATIO [--one-port-platform]
#                         ARGS...
# Passes when every item is verified and MIN_RATIO <= (measured - check) / model <= MAX_RATIO,
# where check is the time of execute's one collective check (an MPI_Allreduce of 5 integers,
# timed alone by the driver): the model has no such step.
# --one-port-platform: one-port hosts (redist-smpi-platform --one-port). The SMPI settings are
# those of smpirun_redist.sh.
set -uo pipefail
build=$1 instance=$2 bytes=$3 min_ratio=$4 max_ratio=$5
shift 5
platform_args=() run_args=()
if [ "${1:-}" = --one-port-platform ]; then
  shift
  platform_args=(--one-port) run_args=(--one-port-platform)
fi
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
"$build/redist-smpi-platform" --instance "$instance" --item-bytes "$bytes" "${platform_args[@]}" \
  --platform "$dir/platform.xml" --hostfile "$dir/hosts.txt" || exit 1
timeout 100 "$(dirname "$0")/smpirun_redist.sh" "$build" "$dir/platform.xml" "$dir/hosts.txt" \
  "${run_args[@]}" --instance "$instance" --item-bytes "$bytes" "$@" >"$dir/out.txt" 2>"$dir/err.txt"
rc=$?
cd "$dir"
cat out.txt
if [ $rc -ne 0 ] || ! grep -q '"verified": true' out.txt; then
  echo "FAIL: exit $rc or not verified"; cat err.txt; exit 1
fi
field() { grep -o "\"$1\": [0-9.e+-]*" out.txt | cut -d' ' -f2; }
if ! awk -v a="$(field measured_seconds)" -v c="$(field check_seconds)" -v m="$(field model_makespan)" \
  -v lo="$min_ratio" -v hi="$max_ratio" \
  'BEGIN { r = (a - c) / m; printf "(measured - check) / model = %.4f\n", r; exit !(r >= lo && r <= hi) }'; then
  echo "FAIL: ratio outside [$min_ratio, $max_ratio]"; exit 1
fi
echo PASS
