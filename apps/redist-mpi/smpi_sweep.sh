#!/usr/bin/env bash
# Random instances in SimGrid SMPI: (measured - check) / model for redist on all-port and one-port
# platforms, in place and out of place (docs/mpi.md). Deterministic (awk srand per seed).
# Usage: apps/redist-mpi/smpi_sweep.sh BUILD_DIR [SEEDS=24] [SEGMENT_ITEMS=4] [MAX_RATIO]
# Each seed: 3..8 ranks, loads 0 (one in four) or 1..200 items of 1000 bytes, random targets with
# the same total, costs in [0.5, 4] seconds per item per direction; every third seed
# unidirectional; latency 0. Prints one row per seed and the largest ratio per configuration;
# exit 1 if a run fails, is not verified, or (MAX_RATIO given) a one-port ratio exceeds MAX_RATIO.
set -euo pipefail
build=$(realpath "$1") here=$(dirname "$(realpath "$0")")
seeds=${2:-24} seg=${3:-4} max_ratio=${4:-}
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
configs=("all-port|" "all-port|--out-of-place" "one-port|--one-port" "one-port|--one-port --out-of-place")
declare -A worst
status=0
echo "| seed | ranks | bidirectional | all-port in place | all-port out of place | one-port in place | one-port out of place |"
echo "|---:|---:|---|---:|---:|---:|---:|"
for ((seed = 1; seed <= seeds; ++seed)); do
  awk -v seed="$seed" 'BEGIN {
    srand(seed); n = 3 + seed % 6; bidi = (seed % 3 != 0);
    total = 0;
    for (i = 0; i < n; ++i) { l[i] = (rand() < 0.25) ? 0 : 1 + int(200 * rand()); total += l[i] }
    for (i = 0; i < n - 1; ++i) c[i] = int((total + 1) * rand());
    for (i = 0; i < n - 1; ++i) for (j = i + 1; j < n - 1; ++j) if (c[j] < c[i]) { t = c[i]; c[i] = c[j]; c[j] = t }
    prev = 0; for (i = 0; i < n - 1; ++i) { tg[i] = c[i] - prev; prev = c[i] } tg[n - 1] = total - prev;
    s = "{\"ring\": {\"bidirectional\": " (bidi ? "true" : "false") ", \"loads\": [";
    for (i = 0; i < n; ++i) s = s (i ? ", " : "") l[i];
    s = s "], \"targets\": ["; for (i = 0; i < n; ++i) s = s (i ? ", " : "") tg[i];
    s = s "], \"cost_next\": ["; for (i = 0; i < n; ++i) s = s (i ? ", " : "") sprintf("%.3f", 0.5 + 3.5 * rand());
    s = s "]";
    if (bidi) { s = s ", \"cost_prev\": ["; for (i = 0; i < n; ++i) s = s (i ? ", " : "") sprintf("%.3f", 0.5 + 3.5 * rand()); s = s "]" }
    print s "}}" }' >"$dir/ring.json"
  n=$(grep -o '"loads": \[[^]]*\]' "$dir/ring.json" | tr ',' '\n' | wc -l)
  bidi=$(grep -q '"bidirectional": true' "$dir/ring.json" && echo yes || echo no)
  row="| $seed | $n | $bidi |"
  for c in "${configs[@]}"; do
    port=${c%%|*}
    read -r -a extra <<<"${c#*|}"
    tool_args=() run_args=()
    if [ "$port" = one-port ]; then tool_args=(--one-port) run_args=(--one-port-platform); fi
    "$build/redist-smpi-platform" --instance "$dir/ring.json" --item-bytes 1000 "${tool_args[@]}" \
      --platform "$dir/platform.xml" --hostfile "$dir/hosts.txt"
    line=$(timeout 300 "$here/smpirun_redist.sh" "$build" "$dir/platform.xml" "$dir/hosts.txt" \
      "${run_args[@]}" --instance "$dir/ring.json" --item-bytes 1000 --segment-items "$seg" \
      "${extra[@]}" 2>"$dir/err.txt") || true
    if ! grep -q '"verified": true' <<<"$line"; then
      row="$row FAILED |"
      status=1
      continue
    fi
    r=$(awk -v a="$(grep -o '"measured_seconds": [0-9.e+-]*' <<<"$line" | cut -d' ' -f2)" \
      -v k="$(grep -o '"check_seconds": [0-9.e+-]*' <<<"$line" | cut -d' ' -f2)" \
      -v m="$(grep -o '"model_makespan": [0-9.e+-]*' <<<"$line" | cut -d' ' -f2)" \
      'BEGIN { printf "%.3f", (a - k) / m }')
    row="$row $r |"
    worst[$c]=$(awk -v a="${worst[$c]:-0}" -v b="$r" 'BEGIN { print (b > a) ? b : a }')
    if [ -n "$max_ratio" ] && [ "$port" = one-port ] &&
      awk -v r="$r" -v m="$max_ratio" 'BEGIN { exit !(r > m) }'; then
      status=1
    fi
  done
  echo "$row"
done
echo "| largest | | | ${worst[${configs[0]}]} | ${worst[${configs[1]}]} | ${worst[${configs[2]}]} | ${worst[${configs[3]}]} |"
[ $status -eq 0 ] && echo "all $seeds seeds verified"
exit $status
