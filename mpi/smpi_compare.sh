#!/usr/bin/env bash
# Compares, in SimGrid SMPI on generated heterogeneous ring platforms, redist's schedule with a
# direct MPI_Alltoallv and LAU's Linear schedule (single-send), on the same data (docs/mpi.md).
# Usage: mpi/smpi_compare.sh BUILD_DIR [--quick]
# One instance (loads, targets, 1000-byte items) and three platforms that only differ in their
# link costs (seconds per item, both directions of every ring link are separate full-duplex
# SimGrid links): one-slow (one link 10x slower), alternating (fast/slow links), random (seeded).
# For each platform: redist (ring mode, window 16), redist with window 4 (the library default: the
# staging gap of docs/mpi.md), redist --mode linear, alltoallv, linear (LAU). Prints a
# Markdown table; exit 1 if any run fails or is not verified. --quick: a small instance on the
# random platform only (ctest). SMPIRUN (environment) overrides the smpirun found in PATH.
set -euo pipefail
smpirun=${SMPIRUN:-smpirun}
build=$(realpath "$1")
quick=${2:-}
bytes=1000 latency=0.01 seg=32
loads=(2400 0 300 0 900 100 0 300) target=500
platforms=(one-slow alternating random)
if [ "$quick" = --quick ]; then
  loads=(240 0 30 0 90 10 0 30) target=50 seg=8 platforms=(random)
fi
n=${#loads[@]}
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
join() { local IFS=,; echo "$*"; }
costs() {  # costs PLATFORM: prints "next|prev" cost lists
  awk -v n="$n" -v p="$1" 'BEGIN {
    srand(7);
    for (i = 0; i < n; ++i) {
      if (p == "one-slow") { a = (i == 3) ? 10 : 1; b = a }          # link 3 <-> 4 slow
      else if (p == "alternating") { a = (i % 2) ? 4 : 1; b = a }    # link i <-> i+1
      else { a = 0.5 + 3.5 * rand(); b = 0.5 + 3.5 * rand() }        # per direction
      next_[i] = a; prev_[(i + 1) % n] = b                           # prev_[j]: j -> j-1
    }
    s = ""; t = "";
    for (i = 0; i < n; ++i) { s = s (i ? ", " : "") sprintf("%.3f", next_[i]); t = t (i ? ", " : "") sprintf("%.3f", prev_[i]) }
    print s "|" t }'
}
targets=()
for ((i = 0; i < n; ++i)); do targets+=("$target"); done
echo "| platform | strategy | measured (s) | model makespan (s) | measured / model | measured / redist |"
echo "|---|---|---:|---:|---:|---:|"
status=0
for p in "${platforms[@]}"; do
  c=$(costs "$p")
  inst="$dir/$p.json"
  printf '{"ring": {"bidirectional": true, "loads": [%s], "targets": [%s], "cost_next": [%s], "cost_prev": [%s]}}\n' \
    "$(join "${loads[@]}")" "$(join "${targets[@]}")" "${c%%|*}" "${c##*|}" >"$inst"
  [ "$quick" = --quick ] || echo "<!-- $p: $(cat "$inst") -->"
  "$build/redist-smpi-platform" --instance "$inst" --item-bytes "$bytes" --latency "$latency" \
    --platform "$dir/$p.xml" --hostfile "$dir/hosts.txt"
  base=""
  runs=("redist" "redist --window 4" "redist --mode linear" "alltoallv" "linear")
  for s in "${runs[@]}"; do
    read -r -a extra <<<"$s"
    [[ "$s" == *--window* ]] || extra+=(--window 16)
    line=$(cd "$dir" && timeout 300 "$smpirun" -np "$n" -platform "$p.xml" -hostfile hosts.txt \
      --cfg=smpi/simulate-computation:no --cfg=network/model:CM02 \
      --cfg=smpi/send-is-detached-thresh:0 --log=root.thres:warning \
      "$build/redist-smpi" --instance "$inst" --item-bytes "$bytes" --segment-items "$seg" \
      --strategy "${extra[@]}" 2>"$dir/err.txt") || true
    if ! grep -q '"verified": true' <<<"$line"; then
      echo "| $p | $s | FAILED: ${line:-$(tail -n 3 "$dir/err.txt")} | | | |"
      status=1
      continue
    fi
    model=$(grep -o '"model_makespan": [^,]*' <<<"$line" | cut -d' ' -f2)
    measured=$(grep -o '"measured_seconds": [0-9.e+-]*' <<<"$line" | cut -d' ' -f2)
    [ -n "$base" ] || base=$measured
    awk -v p="$p" -v s="$s" -v a="$measured" -v m="$model" -v r="$base" 'BEGIN {
      if (m == "null") printf "| %s | %s | %.2f | - | - | %.3f |\n", p, s, a, a / r;
      else printf "| %s | %s | %.2f | %.2f | %.3f | %.3f |\n", p, s, a, m, a / m, a / r }'
  done
done
[ $status -eq 0 ] && echo "all ${#platforms[@]} x ${#runs[@]} runs verified"
exit $status
