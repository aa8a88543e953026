#!/usr/bin/env bash
# Effect of the segment size on a simulated ring (SimGrid SMPI): one row per segment size, with
# the measured time, the model's makespan (which has no latency) and their ratio.
# Usage: mpi/segment_benchmark.sh BUILD_DIR INSTANCE ITEM_BYTES LATENCY_SECONDS [K...]
set -euo pipefail
build=$(realpath "$1") instance=$(realpath "$2") bytes=$3 latency=$4
shift 4
sizes=("$@")
[ ${#sizes[@]} -gt 0 ] || sizes=(1 4 16 64 256)
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
"$build/redist-smpi-platform" --instance "$instance" --item-bytes "$bytes" --latency "$latency" \
  --platform "$dir/platform.xml" --hostfile "$dir/hosts.txt"
np=$(wc -l <"$dir/hosts.txt")
echo "| segment items | measured (s) | model makespan (s) | measured / model |"
echo "|---:|---:|---:|---:|"
for k in "${sizes[@]}"; do
  line=$(cd "$dir" && smpirun -np "$np" -platform platform.xml -hostfile hosts.txt \
    --cfg=smpi/simulate-computation:no --cfg=network/model:CM02 \
    --cfg=smpi/send-is-detached-thresh:0 --log=root.thres:warning \
    "$build/redist-smpi" --instance "$instance" --item-bytes "$bytes" --segment-items "$k")
  model=$(grep -o '"model_makespan": [0-9.e+-]*' <<<"$line" | cut -d' ' -f2)
  measured=$(grep -o '"measured_seconds": [0-9.e+-]*' <<<"$line" | cut -d' ' -f2)
  grep -q '"verified": true' <<<"$line" || { echo "not verified: $line"; exit 1; }
  awk -v k="$k" -v a="$measured" -v m="$model" 'BEGIN { printf "| %d | %.4f | %.4f | %.4f |\n", k, a, m, a / m }'
done
