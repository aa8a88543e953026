#!/usr/bin/env bash
# Compares, in SimGrid SMPI on generated heterogeneous ring platforms, redist's schedule with a
# direct MPI_Alltoallv and LAU's Linear schedule (single-send), on the same data (docs/mpi.md).
# Usage: apps/redist-mpi/smpi_compare.sh BUILD_DIR [--quick]
# One instance (loads, targets, 1000-byte items) and three platforms that only differ in their
# link costs (seconds per item, both directions of every ring link are separate full-duplex
# SimGrid links): one-slow (one link 10x slower), alternating (fast/slow links), random (seeded).
# Each platform twice: hosts that may send to and receive from both neighbours at once (all-port),
# and one-port hosts (redist-smpi-platform --one-port; redist then runs with --one-port). Runs:
# redist (ring mode, library defaults: in place, automatic staging), redist --window 2 (the
# smallest staging), redist --mode linear, alltoallv, linear (LAU). Prints a Markdown table; exit
# 1 if any run fails or is not verified. --quick: a small instance, random platform, all-port only
# (ctest). SMPI settings: smpirun_redist.sh (SMPIRUN overrides the smpirun in PATH). The
# model column of redist's rows is (measured - check) / model, check being the time of execute's
# collective input check.
set -euo pipefail
build=$(realpath "$1") here=$(dirname "$(realpath "$0")")
quick=${2:-}
bytes=1000 latency=0 seg=1024
loads=(2400 0 300 0 900 100 0 300) target=500
platforms=(one-slow alternating random)
ports=(all-port one-port)
if [ "$quick" = --quick ]; then
  loads=(240 0 30 0 90 10 0 30) target=50 platforms=(random) ports=(all-port)
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
echo "| platform | hosts | strategy | measured (s) | model makespan (s) | (measured - check) / model | measured / redist |"
echo "|---|---|---|---:|---:|---:|---:|"
status=0
runs=("redist" "redist --window 2" "redist --mode linear" "alltoallv" "linear")
for p in "${platforms[@]}"; do
  c=$(costs "$p")
  inst="$dir/$p.json"
  printf '{"ring": {"bidirectional": true, "loads": [%s], "targets": [%s], "cost_next": [%s], "cost_prev": [%s]}}\n' \
    "$(join "${loads[@]}")" "$(join "${targets[@]}")" "${c%%|*}" "${c##*|}" >"$inst"
  [ "$quick" = --quick ] || echo "<!-- $p: $(cat "$inst") -->"
  for port in "${ports[@]}"; do
    tool_args=() run_args=() redist_args=()
    if [ "$port" = one-port ]; then
      tool_args=(--one-port) run_args=(--one-port-platform) redist_args=(--one-port)
    fi
    "$build/redist-smpi-platform" --instance "$inst" --item-bytes "$bytes" --latency "$latency" \
      "${tool_args[@]}" --platform "$dir/$p.xml" --hostfile "$dir/hosts.txt"
    base=""
    for s in "${runs[@]}"; do
      read -r -a extra <<<"$s"
      # Options of --strategy redist only (the baselines refuse them).
      [ "${extra[0]}" != redist ] || extra+=(--segment-items "$seg" "${redist_args[@]}")
      line=$(timeout 300 "$here/smpirun_redist.sh" "$build" "$dir/$p.xml" "$dir/hosts.txt" \
        "${run_args[@]}" --instance "$inst" --item-bytes "$bytes" --strategy "${extra[@]}" \
        2>"$dir/err.txt") || true
      if ! grep -q '"verified": true' <<<"$line"; then
        echo "| $p | $port | $s | FAILED: ${line:-$(tail -n 3 "$dir/err.txt")} | | | |"
        status=1
        continue
      fi
      model=$(grep -o '"model_makespan": [^,]*' <<<"$line" | cut -d' ' -f2)
      measured=$(grep -o '"measured_seconds": [0-9.e+-]*' <<<"$line" | cut -d' ' -f2)
      check=$(grep -o '"check_seconds": [0-9.e+-]*' <<<"$line" | cut -d' ' -f2)
      [ "${extra[0]}" = redist ] || check=0
      [ -n "$base" ] || base=$measured
      awk -v p="$p" -v h="$port" -v s="$s" -v a="$measured" -v c="$check" -v m="$model" -v r="$base" 'BEGIN {
        if (m == "null") printf "| %s | %s | %s | %.2f | - | - | %.3f |\n", p, h, s, a, a / r;
        else printf "| %s | %s | %s | %.2f | %.2f | %.3f | %.3f |\n", p, h, s, a, m, (a - c) / m, a / r }'
    done
  done
done
[ $status -eq 0 ] && echo "all ${#platforms[@]} x ${#ports[@]} x ${#runs[@]} runs verified"
exit $status
