#!/usr/bin/env bash
# Transcript tests of `redist lau plan|check|eval` (docs/formats.md, docs/lau.md): exit codes, the single `error:` line on
# standard error with nothing on standard output, and outputs on LAU's worked examples.
# Usage: lau_cli_test.sh path/to/redist
set -u
redist=$1
# shellcheck source=cli_test_lib.sh
source "$(dirname "$0")/cli_test_lib.sh"

# --- plan on LAU's examples ---------------------------------------------------------------------
lemma5=$(write_json '{"lau": {"loads": [9, 11, 10, 0, 4, 0, 6, 1, 4, 5]}}' lemma5.json)
expect_output "lemma 5 optimal" '"algorithm": "optimal"' '"t_single": 2' '"optimal": true' \
  '"flows": [-1,5,10,5,4,-1,0,-4,-5,-5]' -- lau plan "$lemma5"
expect_output "lemma 5 optimal-window" '"algorithm": "optimal-window"' '"t_single": 5' \
  '"optimal": false' -- lau plan -a optimal-window "$lemma5"
expect_output "lemma 5 traffic" '"h": 5' '"traffic": 40' -- lau plan --algorithm traffic "$lemma5"

fig1=$(write_json '{"lau": {"loads": [7, 0, 3, 1, 1, 0]}}' fig1.json)
expect_output "figure 2 linear" '"flows": [5,3,4,3,2,0]' '"h": 0' '"t_single": 5' '"t_multi": 3' \
  '"traffic": 17' -- lau plan -a linear "$fig1"
lemma6=$(write_json '{"lau": {"loads": [10, 1, 3, 1, 2, 2, 0, 0, 0, 1]}}' lemma6.json)
expect_output "lemma 6 single" '"t_single": 3' -- lau plan "$lemma6"
expect_output "lemma 6 multi" '"mode": "multi"' '"t_multi": 2' '"optimal": true' -- \
  lau plan --mode multi "$lemma6"
STDIN=$(write_json '{"lau": {"loads": [4, 0], "targets": [1, 3]}}' targets.json) \
  expect_output "targets from stdin" '"flows": [3,0]' -- lau plan -
STDIN=$fig1 expect_output "stdin" '"algorithm": "optimal"' -- lau plan

# --- check: the planned flows, a claim that differs, flows that do not balance ----------------
"$redist" lau plan "$lemma5" >"$work/plan5.json"
expect_output "check plan" '"valid": true' '"makespan": 2' -- lau check "$lemma5" "$work/plan5.json"
"$redist" lau plan --mode multi "$lemma6" >"$work/plan6.json"
expect_output "check multi plan" '"valid": true' '"makespan": 2' -- lau check "$lemma6" "$work/plan6.json"
sed 's/"t_single": 2/"t_single": 1/' "$work/plan5.json" >"$work/wrong5.json"
"$redist" lau check "$lemma5" "$work/wrong5.json" >"$work/out" 2>&1
if [ $? -eq 1 ] && grep -qF 't_single is 1 but the flows give 2' "$work/out"; then ok; else
  ko "check wrong claim: $(cat "$work/out")"; fi
"$redist" lau check "$fig1" "$(write_json '{"flows": [1, 0, 0, 0, 0, 0]}' unbalanced.json)" \
  >"$work/out" 2>&1
if [ $? -eq 1 ] && grep -qF 'do not balance node' "$work/out"; then ok; else
  ko "check unbalanced: $(cat "$work/out")"; fi
expect_error "check bad flow" '(at $.flows[1])' -- lau check "$fig1" \
  "$(write_json '{"flows": [1, "x", 0, 0, 0, 0]}' badflow.json)"
expect_error "check bad mode" '(at $.mode)' -- lau check "$fig1" \
  "$(write_json '{"flows": [5, 3, 4, 3, 2, 0], "mode": "both"}' badmode.json)"

# --- eval ----------------------------------------------------------------------------------------
expect_output "eval figure 2" '"t_single": 5' '"t_multi": 3' '"traffic": 17' '"h": 0' -- \
  lau eval "$(write_json '{"lau": {"loads": [7, 0, 3, 1, 1, 0], "flows": [5, 3, 4, 3, 2, 0]}}' e1.json)"
expect_output "eval lemma 6" '"t_single": 7' '"t_multi": 2' -- \
  lau eval "$(write_json '{"lau": {"loads": [10, 1, 3, 1, 2, 2, 0, 0, 0, 1], "flows": [4, 3, 4, 3, 3, 3, 1, -1, -3, -4]}}' e2.json)"
expect_output "eval deadlock" '"t_single": null' '"t_multi": 10' -- \
  lau eval "$(write_json '{"lau": {"loads": [1, 1, 1, 1, 1, 1, 1], "flows": [10, 10, 10, 10, 10, 10, 10]}}' e3.json)"

# --- --gantt: the step chart of a plan in both modes, and of a checked plan, valid or not ---------
for mode in single:3 multi:2; do
  steps=${mode#*:} mode=${mode%:*}
  if "$redist" lau plan --mode "$mode" --gantt "$work/lemma6-$mode.svg" "$lemma6" >"$work/plan.json" &&
    well_formed "$work/lemma6-$mode.svg" &&
    grep -qF "$mode-send: makespan $steps steps, lower bound $steps, optimal: yes" "$work/lemma6-$mode.svg"; then ok; else
    ko "plan --gantt $mode"; fi
  if "$redist" lau check --gantt "$work/check-$mode.svg" "$lemma6" "$work/plan.json" >/dev/null &&
    well_formed "$work/check-$mode.svg" && grep -qF 'redist lau check' "$work/check-$mode.svg"; then ok; else
    ko "check --gantt $mode"; fi
done
"$redist" lau plan -a linear --gantt "$work/figure2.svg" "$fig1" >/dev/null
if well_formed "$work/figure2.svg" && grep -qF 'makespan 5 steps, lower bound 2, optimal: no' "$work/figure2.svg"; then ok; else
  ko "figure 2 chart title"; fi
# An invalid plan is drawn with the validator's first violation in red: its reason under the title
# and the nodes it names (the typed verdict's entries) outlined: the node the flows do not balance,
# the nodes a deadlock leaves waiting; flows of another length draw no message.
invalid_chart() {  # NAME INSTANCE PLAN_JSON REASON OUTLINED_NODES
  local svg="$work/invalid-$1.svg" got code
  "$redist" lau check --gantt "$svg" "$2" "$(write_json "$3" "invalid-$1.json")" >/dev/null 2>&1
  code=$?
  got=$(outlined "$svg" 2>/dev/null | cut -d' ' -f1 | tr '\n' ' ')
  if [ $code -eq 1 ] && well_formed "$svg" && grep -qF ">invalid: $4" "$svg" && [ "$got" = "$5" ]; then
    ok; else ko "check --gantt $1: exit $code, outlined '$got'"; fi
}
invalid_chart unbalanced "$fig1" '{"flows": [1, 0, 0, 0, 0, 0]}' 'the flows do not balance node 0' 'P0 '
invalid_chart unbalanced_multi "$fig1" '{"flows": [5, 3, 4, 3, 2, 1], "mode": "multi"}' \
  'the flows do not balance node 0' 'P0 '
deadlock=$(write_json '{"lau": {"loads": [1, 1, 1]}}' deadlock.json)
invalid_chart deadlock "$deadlock" '{"flows": [2, 2, 2]}' 'the schedule deadlocks in single-send mode' 'P0 P1 P2 '
invalid_chart short "$fig1" '{"flows": [5, 3, 4]}' '3 flows for 6 nodes' ''
if grep -qF '3 flows for 6 nodes: no message drawn' "$work/invalid-short.svg"; then ok; else ko "short flows: no note"; fi
invalid_chart claim "$lemma5" "$(cat "$work/wrong5.json")" 't_single is 1 but the flows give 2' ''
ones() { printf '1'; for _ in $(seq 2 "$1"); do printf ', 1'; done; }
expect_no_chart "gantt of 201 nodes" 'at most 200 nodes, 200 steps and 10000 messages' "$work/wide.svg" -- \
  lau plan --gantt "$work/wide.svg" "$(write_json "{\"lau\": {\"loads\": [$(ones 201)]}}" wide.json)"
seven=$(write_json "{\"lau\": {\"loads\": [$(ones 7)]}}" seven.json)
expect_no_chart "gantt of 300 steps" '7 nodes, 300 steps; omit --gantt' "$work/long.svg" -- lau check --gantt "$work/long.svg" "$seven" \
  "$(write_json '{"flows": [300, 300, 300, 300, 300, 300, 300], "mode": "multi"}' long.json)"
expect_no_chart "gantt of 10^18 steps" 'a step chart shows at most' "$work/long.svg" -- lau check --gantt "$work/long.svg" "$seven" \
  "$(write_json '{"flows": [1000000000000000000, 1000000000000000000, 1000000000000000000, 1000000000000000000, 1000000000000000000, 1000000000000000000, 1000000000000000000], "mode": "multi"}' longer.json)"
flows60=$(printf '60'; for _ in $(seq 2 200); do printf ', 60'; done)
expect_no_chart "gantt of 12000 messages" '200 nodes, 60 steps, 12000 messages' "$work/dense.svg" -- lau check --gantt "$work/dense.svg" \
  "$(write_json "{\"lau\": {\"loads\": [$(ones 200)]}}" ones200.json)" \
  "$(write_json "{\"flows\": [$flows60], \"mode\": \"multi\"}" dense.json)"
expect_error "gantt unwritable" '(at --gantt)' -- lau plan --gantt "$work/no/such/dir/x.svg" "$fig1"

# --- input errors (exit 2, one line, the JSON path) ----------------------------------------------
expect_error "negative load" '(at $.lau.loads[2])' -- lau plan "$(write_json '{"lau": {"loads": [1, 2, -3, 4]}}' bad1.json)"
expect_error "not divisible" 'not divisible by n = 3 (give targets' -- lau plan "$(write_json '{"lau": {"loads": [1, 2, 4]}}' bad2.json)"
expect_error "n < 2" 'at least 2 nodes, got 1; loads: the load each node holds at the start (at $.lau.loads)' -- lau plan "$(write_json '{"lau": {"loads": [4]}}' bad3.json)"
expect_error "overflow" 'sum of loads overflows 64 bits; loads: the load each node holds at the start (at $.lau.loads)' -- lau plan "$(write_json '{"lau": {"loads": [9223372036854775807, 9223372036854775807]}}' bad4.json)"
expect_error "too large" '(at $.lau.loads[0])' -- lau plan "$(write_json '{"lau": {"loads": [9223372036854775808, 0]}}' bad5.json)"
expect_error "float load" '(at $.lau.loads[1])' -- lau plan "$(write_json '{"lau": {"loads": [1, 2.0]}}' bad6.json)"
expect_error "unknown field" '(at $.lau.lods)' -- lau plan "$(write_json '{"lau": {"loads": [1, 1], "lods": 1}}' bad7.json)"
expect_error "flows in plan" '(at $.lau.flows)' -- lau plan "$(write_json '{"lau": {"loads": [1, 1], "flows": [0, 0]}}' bad8.json)"
expect_error "targets sum" '(at $.lau.targets)' -- lau plan "$(write_json '{"lau": {"loads": [1, 1], "targets": [1, 2]}}' bad9.json)"
expect_error "unbalanced flows" 'do not balance node 0' -- lau eval "$(write_json '{"lau": {"loads": [7, 0, 3, 1, 1, 0], "flows": [5, 3, 4, 3, 2, 1]}}' bad10.json)"
expect_error "flows length" 'has 2 entries, loads has 3; flows: the net load moved over each link, from node i to node i+1 (negative: back) (at $.lau.flows)' -- lau eval "$(write_json '{"lau": {"loads": [1, 1, 1], "flows": [0, 0]}}' bad11.json)"
expect_error "missing flows" '(at $.lau.flows)' -- lau eval "$fig1"
expect_error "malformed" 'malformed JSON' -- lau plan "$(write_json '{"lau": {"loads": [1, 1}}' bad12.json)"
expect_error "bad algorithm" '(at --algorithm)' -- lau plan -a fastest "$fig1"
expect_error "bad mode" '(at --mode)' -- lau plan --mode dual "$fig1"
expect_error "missing file" 'nope.json' -- lau plan "$work/nope.json"
expect_error "ring instance to lau plan" "this is a ring instance, not a lau one: use \`redist ring plan\` (at \$)" -- lau plan "$(write_json '{"ring": {}}' bad13.json)"

expect_error "traffic overflow" 'traffic overflows 64 bits; loads: the load each node holds at the start (at $.lau.loads)' -- lau plan -a linear "$(write_json '{"lau": {"loads": [9223372036854775807, 0, 0], "targets": [0, 0, 9223372036854775807]}}' big1.json)"
expect_error "eval overflow" '(at $.lau.flows)' -- lau eval "$(write_json '{"lau": {"loads": [1, 1, 1], "flows": [9223372036854775807, 9223372036854775807, 9223372036854775807]}}' big2.json)"
expect_output "huge loads" '"t_single": 1' '"traffic": 4611686018427387903' -- lau plan --mode multi "$(write_json '{"lau": {"loads": [9223372036854775806, 0]}}' big3.json)"

# --- extreme values and resource limits ---------------------------------------------------------
# Flows of 10^18: the multi-send run has 10^18 steps; eval answers by the closed form at once
# (it used to simulate 2 x 10^8 node-steps first).
expect_output "eval huge flows" '"t_multi": 1000000000000000000' '"t_multi_by": "closed form' '"h": -1000000000000000000' -- \
  lau eval "$(write_json '{"lau": {"loads": [1, 1], "flows": [1000000000000000000, 1000000000000000000]}}' e4.json)"
expect_error "eval unknown top-level field" '(at $.flow)' -- lau eval "$(write_json '{"lau": {"loads": [1, 1], "flows": [0, 0]}, "flow": [1, 1]}' bad14.json)"
expect_error "plan unknown top-level field" '(at $.targets)' -- lau plan "$(write_json '{"lau": {"loads": [1, 1]}, "targets": [2, 0]}' bad15.json)"
near=4611686018427387904
for algorithm in linear traffic optimal-window optimal; do
  for mode in single multi; do
    f=$(write_json "{\"lau\": {\"loads\": [$near, 0, $near, 0]}}" near.json)
    "$redist" lau plan -a "$algorithm" --mode "$mode" "$f" >"$work/out" 2>"$work/err"
    code=$?
    if { [ $code -eq 0 ] && ! grep -qiE 'nan|inf|e\+' "$work/out"; } || { [ $code -eq 2 ] && [ "$(wc -l <"$work/err")" -eq 1 ]; }; then ok; else ko "loads near 2^62, $algorithm $mode: exit $code $(cat "$work/out" "$work/err")"; fi
  done
done
expect_error "optimal-window work limit" 'n x window > 2e8' -- lau plan -a optimal-window "$(write_json '{"lau": {"loads": [600000000, 0, 0, 0, 0, 0]}}' window.json)"
expect_error "experiment instances" '(at --instances)' -- experiment lau --out "$work/exp" --instances 50001

finish
