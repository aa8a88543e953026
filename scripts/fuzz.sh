#!/usr/bin/env bash
# Long fuzzing runs of every libFuzzer target of the sanitizer build (docs/fuzzing.md).
# Usage: scripts/fuzz.sh [seconds per target, default 600] [target names...]
# Builds build-asan/ if needed; each target runs on fuzz/corpus/<target>/ plus the bundled data,
# writes new inputs to build-asan/fuzz/long/<target>/ and any crashing input to
# build-asan/fuzz/findings/<target>/. Exit status 1 when some target found something.
set -euo pipefail
cd "$(dirname "$0")/.."
seconds="${1:-600}"
shift || true
targets=("$@")
if [ ${#targets[@]} -eq 0 ]; then
  targets=(ring_instance ring_schedule ring_check lau_instance lau_eval star_instance
           star_schedule star_check star_order dlt_instance dlt_check slicering_instance slicering_check
           ring_plans lau_plans star_plans slicering_plans)
fi
[ -d build-asan ] || scripts/build-asan.sh
cmake --build build-asan --parallel "$(nproc)" --target "${targets[@]/#/fuzz_}"
export ASAN_OPTIONS="${ASAN_OPTIONS:-abort_on_error=1:detect_leaks=1}"
export UBSAN_OPTIONS="${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}"
failed=()
for t in "${targets[@]}"; do
  work="build-asan/fuzz/long/$t"
  findings="build-asan/fuzz/findings/$t"
  mkdir -p "$work" "$findings"
  echo "== $t: $seconds s"
  if ! "build-asan/fuzz/fuzz_$t" "$work" "fuzz/corpus/$t" data/examples data/slicering \
       apps/redist-mpi/testdata -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2560 \
       -print_final_stats=1 -artifact_prefix="$findings/" 2>"$work.log"; then
    failed+=("$t")
    grep -E "FUZZ FINDING|ERROR: |SUMMARY|runtime error|Test unit written" "$work.log" | head -20 || true
  fi
  grep -E "stat::number_of_executed_units|stat::average_exec_per_sec" "$work.log" || true
done
if [ ${#failed[@]} -ne 0 ]; then
  echo "fuzz: findings in ${failed[*]} (inputs under build-asan/fuzz/findings/)"
  exit 1
fi
echo "fuzz: ${#targets[@]} targets, nothing found"
