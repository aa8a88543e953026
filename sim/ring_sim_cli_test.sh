#!/bin/bash
# Transcript tests of redist-ring-sim (docs/ring-sim.md): one scenario's output, and its refusals:
# exit 2, nothing on standard output, one line `error: ... (at <where>)`.
# ring_sim_cli_test.sh REDIST_RING_SIM CLI_TEST_LIB (apps/redist/cli_test_lib.sh)
redist=$1
# shellcheck source=../apps/redist/cli_test_lib.sh
. "$2"

expect_output model '"mode":"model"' '"ring":["ring-0",' '"scheme":"oracle"' \
  '"scheme":"at:20,40,60,80"' -- --processors 4 --seed 3 --mode model --ratios 1
expect_output tiers '"mode":"tiers"' '"chunk_next":[' '"scheme":"replay"' -- \
  --processors 3 --seed 3 --ratios 0.5 --schemes replay oracle --iterations 20 --columns 50
# In the model-faithful network a redistribution lasts its planned makespan.
"$redist" --processors 5 --seed 4 --mode model --ratios 1 --schemes every:5 >"$work/out"
if python3 -c '
import json, sys
runs = json.load(open(sys.argv[1]))["runs"]
r = [x for run in runs for x in run["rebalances"] if x["planned"] > 0]
assert r and all(abs(x["simulated"] / x["planned"] - 1) < 1e-6 for x in r)
' "$work/out"; then ok; else ko "model: a redistribution does not last its plan"; fi

expect_error mode "'x' is not tiers or model (at --mode)" -- --mode x
expect_error hex_processors "'0x10' is not a decimal integer (at --processors)" -- --processors 0x10
expect_error subnormal_ratio "'1e-320' is too small: below 2.2e-308 in magnitude a double loses precision (at --ratios)" -- --ratios 1e-320
expect_error processors "a ring needs 2..88 hosts (the platform's), got 1 (at --processors)" -- \
  --processors 1
expect_error model_two "the model's platform needs 3 processors or more (at --processors)" -- \
  --processors 2 --mode model
expect_error ratio_zero "a ratio must be a finite number > 0, got 0 (at --ratios)" -- --ratios 0
expect_error ratio_text "'one' is not a decimal number (at --ratios)" -- --ratios one
expect_error scheme "unknown policy 'sometimes'" -- --schemes never sometimes
expect_error at_list "(at --schemes)" -- --schemes at:99,3
expect_error iterations "must be in 1..10000, got 0 (at --iterations)" -- --iterations 0
expect_error columns "(at --columns)" -- --columns 1000001
expect_error tiers "(at --tiers)" -- --tiers "1 2 3"
expect_error unknown "(at command line)" -- --bogus
finish
