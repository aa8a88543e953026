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
  --processors 3 --seed 3 --axis reference --ratios 0.5 --schemes replay oracle --iterations 20 \
  --columns 50
# In the model-faithful network a redistribution lasts its planned makespan.
"$redist" --processors 5 --seed 4 --mode model --ratios 1 --schemes every:5 >"$work/out"
if python3 -c '
import json, sys
runs = json.load(open(sys.argv[1]))["runs"]
r = [x for run in runs for x in run["rebalances"] if x["planned"] > 0]
assert r and all(abs(x["simulated"] / x["planned"] - 1) < 1e-6 for x in r)
' "$work/out"; then ok; else ko "model: a redistribution does not last its plan"; fi

# The paper's axis (the default): the average cost of a redistribution is the mean simulated
# duration, on the run's network, of the redistributions that move a column in at:50,
# at:20,40,60,80, every:10 and every:5; a ratio R makes the balanced iteration last that / R. On the
# Tiers routes the simulated durations differ from the plans, so the plans would not do.
"$redist" --processors 6 --seed 4 --ratios 2 7 \
  --schemes never at:50 at:20,40,60,80 every:10 every:5 oracle >"$work/paper"
if python3 -c '
import json, sys
out = json.load(open(sys.argv[1]))
sc, runs = out["scenario"], out["runs"]
assert sc["axis"] == "paper" and sc["amplitude"] == 8, sc
paper = ("at:50", "at:20,40,60,80", "every:10", "every:5")
for ratio in (2, 7):
    moved = [r for run in runs if run["ratio"] == ratio and run["scheme"] in paper
             for r in run["rebalances"] if r["planned"] > 0]
    assert len(moved) == sc["redistributions_averaged"] > 0, (len(moved), sc)
    simulated = sum(r["simulated"] for r in moved) / len(moved)
    planned = sum(r["planned"] for r in moved) / len(moved)
    assert abs(simulated / sc["average_redistribution"] - 1) < 1e-9, (simulated, sc)
    assert abs(planned / sc["average_redistribution"] - 1) > 0.01, (planned, sc)
    for run in runs:
        if run["ratio"] == ratio:
            assert abs(run["iteration_time"] * ratio / sc["average_redistribution"] - 1) < 1e-12
' "$work/paper"; then ok; else ko "paper axis: the ratio is not the average redistribution over the iteration"; fi
# The reference axis: rho x T_ref is the balanced iteration; a smaller amplitude bounds the changes.
"$redist" --processors 4 --seed 3 --mode model --axis reference --ratios 0.5 --amplitude 1.5 \
  --schemes never every:5 >"$work/reference"
if python3 -c '
import json, sys
out = json.load(open(sys.argv[1]))
sc = out["scenario"]
assert sc["axis"] == "reference" and sc["amplitude"] == 1.5 and sc["redistributions_averaged"] == 0
for run in out["runs"]:
    assert abs(run["iteration_time"] / (0.5 * sc["reference_redistribution"]) - 1) < 1e-12, run
' "$work/reference"; then ok; else ko "reference axis: rho is not the iteration over T_ref"; fi

# --format text: the same report, readable (sim/ring_sim_report.hpp); the JSON, piped, stays one line.
expect_output text 'redist-ring-sim: a ring of 4 processors (seed 3) on the model' \
  '  ring      ring-0 ring-1 ring-2 ring-3' 'A_red       ' 'T_ref       ' \
  'ratio 1: balanced iteration ' '  scheme                  total      compute   redistrib.  model total  rebalances' \
  '  never     ' '  every:10  ' 'after 10 20 30 40 50 60 70 80 90' -- \
  --processors 4 --seed 3 --mode model --ratios 1 --schemes never every:10 --format text
if ! grep -q '^{' "$work/out" && [ "$(grep -c '^ratio ' "$work/out")" -eq 1 ]; then ok; else ko "text: $(cat "$work/out")"; fi
"$redist" --processors 4 --seed 3 --mode model --ratios 1 2 --schemes never --format json >"$work/json"
if [ "$(wc -l <"$work/json")" -eq 1 ] && python3 -c '
import json, sys
runs = json.load(open(sys.argv[1]))["runs"]
assert [r["ratio"] for r in runs] == [1, 2] and all(r["scheme"] == "never" for r in runs)
' "$work/json"; then ok; else ko "json: $(head -c 300 "$work/json")"; fi
expect_error format "yaml not in {json,text} (at --format)" -- --format yaml
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
expect_error axis "'up' is not paper or reference (at --axis)" -- --axis up
expect_error axis_short "it needs more than 80 iterations, got 80 (at --axis)" -- --iterations 80
expect_error amplitude "must be a finite number >= 1.273 (28 / 22: every machine speed needs another within that factor), got 1.2 (at --amplitude)" -- --amplitude 1.2
expect_error unknown "(at command line)" -- --bogus
finish
