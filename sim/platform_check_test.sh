#!/bin/sh
# platform_check_test.sh GENERATOR CHECK "TIERS" SEED [CHECK OPTIONS...]: writes the platform of
# these parameters with redist-platform, then loads it into SimGrid with redist-platform-check,
# which compares hosts, links and routes with the generator's graph (docs/ring-sim.md).
# With CHECK_SEED set, the check rebuilds the graph of that other seed and must report
# mismatches (exit 1): the check can fail.
set -u
generator=$1 check=$2 tiers=$3 seed=$4
shift 4
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
"$generator" --tiers "$tiers" --seed "$seed" --platform "$work/platform.xml" >"$work/summary.json" ||
  exit 1
if [ -z "${CHECK_SEED:-}" ]; then
  exec "$check" --tiers "$tiers" --seed "$seed" --platform "$work/platform.xml" "$@"
fi
"$check" --tiers "$tiers" --seed "$CHECK_SEED" --platform "$work/platform.xml" "$@" \
  >"$work/out" 2>"$work/err"
code=$?
cat "$work/out" "$work/err"
if [ "$code" -ne 1 ] || ! grep -q '^mismatch: ' "$work/err"; then
  echo "FAIL: expected exit 1 and mismatch lines, got exit $code"
  exit 1
fi
echo "mismatches reported as expected"
