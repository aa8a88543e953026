#!/usr/bin/env bash
# The Rebalancer under SimGrid SMPI against the model simulator (docs/mpi.md, "Rebalancer under
# SMPI"): runs iterative-columns-smpi on the platform of a balance trace, once per policy, and
# compares the measured (simulated) total time with `redist balance simulate`'s total.
#
# Usage: examples/smpi_rebalance.sh BUILD_DIR [--quick] [--trace FILE] [--max-deviation D]
#   --quick          three policies (never, every:10, cost-benefit) instead of the full table
#   --trace FILE     default: data/balance/rrv04-8.json (8 hosts, 100 iterations, RRV04 §8 drift)
#   --max-deviation  fail when |measured / model - 1| > D for some policy (default 0.02)
# Prints one row per policy and "all N policies within D of the model" when every run verified,
# rebalanced after the same iterations as the model and matched its total; exit 1 otherwise. Deterministic (SMPI), about 1-2 s of real time per policy.
#
# Platform: redist-smpi-platform --balance --one-port: host i has the power states s_i(t) x F
# flop/s, each ring link's bandwidth is item_bytes / cost, latency 0, one-port hosts (loaded
# through redist-smpi-oneport.so); the application runs with --one-port so the executor follows
# the one-port model. SMPI settings as apps/redist-mpi/smpirun_redist.sh: CM02, computation not
# simulated (the application charges smpi_execute_flops), rendezvous sends, no time injected per
# MPI_Test.
set -euo pipefail
build=$(realpath "$1")
shift
src=$(cd "$(dirname "$0")/.." && pwd)
trace=$src/data/balance/rrv04-8.json
quick=0 max_dev=0.02
while [ $# -gt 0 ]; do
  case $1 in
    --quick) quick=1 ;;
    --trace) trace=$(realpath "$2"); shift ;;
    --max-deviation) max_dev=$2; shift ;;
    *) echo "unknown option $1" >&2; exit 2 ;;
  esac
  shift
done
rows=4094   # a column of 4096 doubles: 32 KiB per item (collectives' bytes are then negligible)
flops=1e6   # flops per column update
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
"$build/redist-smpi-platform" --balance "$trace" --flops-per-item "$flops" \
  --item-bytes $((8 * (rows + 2))) --one-port --platform "$work/p.xml" --hostfile "$work/hosts.txt"

# Field NAME of a JSON text (first match, numbers and booleans only).
field() { grep -o "\"$1\": *[^,}]*" <<<"$2" | head -1 | sed 's/.*: *//'; }

simulate() { "$build/redist" balance simulate "$trace" --policy "$1"; }

run_smpi() {
  REDIST_SMPI_PLATFORM=$work/p.xml "${SMPIRUN:-smpirun}" -np "$(wc -l <"$work/hosts.txt")" \
    -platform "$build/redist-smpi-oneport.so" -hostfile "$work/hosts.txt" \
    --cfg=smpi/simulate-computation:no --cfg=network/model:CM02 \
    --cfg=smpi/send-is-detached-thresh:0 --cfg=smpi/test:0 --log=root.thres:warning \
    "$build/iterative-columns-smpi" --trace "$trace" --flops-per-column "$flops" --rows "$rows" \
    --sweeps 1 --one-port --policy "$1"
}

oracle=$(simulate oracle)
oracle_total=$(field total_time "$oracle")
points=$( (grep -o '"after_iteration": *[0-9]*' <<<"$oracle" | sed 's/.*: *//' || true) | paste -sd, -)
oracle_at=never
[ -n "$points" ] && oracle_at="at:$points"
if [ $quick = 1 ]; then
  policies=(never every:10 cost-benefit)
else
  policies=(never at:50 at:20,40,60,80 every:10 every:5 threshold:1.2 cost-benefit period-rule
            stable-horizon replay "$oracle_at")
fi
echo "trace $(basename "$trace"); oracle: total $oracle_total, rebalances after $oracle_at"
printf '| %-28s | %10s | %11s | %12s | %12s | %8s | %10s |\n' policy rebalances "same points" \
  "measured (s)" "model (s)" ratio "/ oracle"
printf '|%s|%s:|%s|%s:|%s:|%s:|%s:|\n' ------------------------------ ----------- ------------- \
  ------------- ------------- --------- -----------
failures=0
for p in "${policies[@]}"; do
  out=$(run_smpi "$p")
  line=$(tail -1 <<<"$out")
  model=$(simulate "$p")
  measured=$(field total_seconds "$line")
  total=$(field total_time "$model")
  got=$( (grep -o '^after iteration [0-9]*' <<<"$out" || true) | sed 's/.* //' | paste -sd, -)
  want=$( (grep -o '"after_iteration": *[0-9]*' <<<"$model" || true) | sed 's/.*: *//' |
    paste -sd, -)
  same=no
  [ "$got" = "$want" ] && same=yes
  ok=$(awk -v a="$measured" -v m="$total" -v d="$max_dev" 'BEGIN { r = a / m;
         print (r - 1 <= d && 1 - r <= d) ? 1 : 0 }')
  [ "$(field verified "$line")" = true ] && [ $same = yes ] || ok=0
  [ "$ok" = 1 ] || failures=$((failures + 1))
  awk -v p="$p" -v a="$measured" -v m="$total" -v o="$oracle_total" -v g="$(field rebalances \
    "$line")" -v s="$same" -v ok="$ok" 'BEGIN { label = length(p) > 28 ? substr(p, 1, 25) "..." : p;
      printf "| %-28s | %10d | %-11s | %12.3f | %12.3f | %8.4f | %10.4f |%s\n", label, g, s, a,
             m, a / m, a / o, ok ? "" : " FAIL" }'
done
if [ $failures -eq 0 ]; then
  echo "all ${#policies[@]} policies within $max_dev of the model"
else
  echo "$failures of ${#policies[@]} policies off the model or not verified"
  exit 1
fi
