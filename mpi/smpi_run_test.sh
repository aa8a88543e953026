#!/usr/bin/env bash
# One SimGrid SMPI run of redist-smpi on a ring platform generated from the instance (ctest entry).
# Usage: smpi_run_test.sh SMPI_SO PLATFORM_TOOL SMPIRUN ONEPORT_SO INSTANCE ITEM_BYTES MIN_RATIO
#                         MAX_RATIO [--one-port-platform] ARGS...
# Passes when every item is verified and MIN_RATIO <= (measured - check) / model <= MAX_RATIO,
# where check is the time of execute's one collective check (an MPI_Allreduce of 5 integers,
# timed alone by the driver): the model has no such step.
# --one-port-platform: one-port hosts (redist-smpi-platform --one-port, loaded by ONEPORT_SO).
# SMPI settings (docs/mpi.md): network/model CM02 (bandwidth and latency only, no TCP factors),
# computation not simulated (only the network counts), every send rendezvous
# (send-is-detached-thresh 0), and smpi/test 0 (no simulated time injected per MPI_Test of a
# pending request, which SMPI's MPI_Waitsome does for every posted request).
set -uo pipefail
so=$1 tool=$2 smpirun=$3 oneport_so=$4 instance=$5 bytes=$6 min_ratio=$7 max_ratio=$8
shift 8
platform_args=() platform=platform.xml
if [ "${1:-}" = --one-port-platform ]; then
  shift
  platform_args=(--one-port)
  platform=$oneport_so
fi
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
"$tool" --instance "$instance" --item-bytes "$bytes" "${platform_args[@]}" \
  --platform "$dir/platform.xml" --hostfile "$dir/hosts.txt" || exit 1
np=$(wc -l <"$dir/hosts.txt")
cd "$dir"
REDIST_SMPI_PLATFORM="$dir/platform.xml" timeout 100 "$smpirun" -np "$np" -platform "$platform" \
  -hostfile hosts.txt --cfg=smpi/simulate-computation:no --cfg=network/model:CM02 \
  --cfg=smpi/send-is-detached-thresh:0 --cfg=smpi/test:0 --log=root.thres:warning \
  "$so" --instance "$instance" --item-bytes "$bytes" "$@" >out.txt 2>err.txt
rc=$?
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
