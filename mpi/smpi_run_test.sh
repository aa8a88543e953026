#!/usr/bin/env bash
# One SimGrid SMPI run of redist-smpi on a ring platform generated from the instance (ctest entry).
# Usage: smpi_run_test.sh SMPI_SO PLATFORM_TOOL SMPIRUN INSTANCE ITEM_BYTES MIN_RATIO MAX_RATIO ARGS...
# Passes when every item is verified and MIN_RATIO <= measured / model makespan <= MAX_RATIO.
# SMPI settings: network/model CM02 (bandwidth and latency only, no TCP factors), computation not
# simulated (only the network counts), every send rendezvous (send-is-detached-thresh 0), so a
# message occupies its link only once the receiver has posted the receive.
set -uo pipefail
so=$1 tool=$2 smpirun=$3 instance=$4 bytes=$5 min_ratio=$6 max_ratio=$7
shift 7
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
"$tool" --instance "$instance" --item-bytes "$bytes" --platform "$dir/platform.xml" \
  --hostfile "$dir/hosts.txt" || exit 1
np=$(wc -l <"$dir/hosts.txt")
cd "$dir"
timeout 100 "$smpirun" -np "$np" -platform platform.xml -hostfile hosts.txt \
  --cfg=smpi/simulate-computation:no --cfg=network/model:CM02 \
  --cfg=smpi/send-is-detached-thresh:0 --log=root.thres:warning \
  "$so" --instance "$instance" --item-bytes "$bytes" "$@" >out.txt 2>err.txt
rc=$?
cat out.txt
if [ $rc -ne 0 ] || ! grep -q '"verified": true' out.txt; then
  echo "FAIL: exit $rc or not verified"; cat err.txt; exit 1
fi
model=$(grep -o '"model_makespan": [0-9.e+-]*' out.txt | cut -d' ' -f2)
measured=$(grep -o '"measured_seconds": [0-9.e+-]*' out.txt | cut -d' ' -f2)
if ! awk -v a="$measured" -v m="$model" -v lo="$min_ratio" -v hi="$max_ratio" \
  'BEGIN { r = a / m; printf "measured/model = %.4f\n", r; exit !(r >= lo && r <= hi) }'; then
  echo "FAIL: ratio outside [$min_ratio, $max_ratio]"; exit 1
fi
echo PASS
