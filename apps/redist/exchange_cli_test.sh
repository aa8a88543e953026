#!/usr/bin/env bash
# Transcript tests of `redist exchange plan|check|bound|block-cyclic|migration` (docs/exchange.md): exit
# codes, the single `error:` line naming the field, plan -> check round trips, pictures.
# Usage: exchange_cli_test.sh path/to/redist path/to/data
set -u
redist=$1
data=$2
# shellcheck source=cli_test_lib.sh
source "$(dirname "$0")/cli_test_lib.sh"

# --- every algorithm on the bundled instances: the plan passes check, and its picture is drawn ---
for file in "$data"/exchange/*.json; do
  for algorithm in auto preemptive whole ggp oggp steps min-steps caterpillar; do
    name="$(basename "$file" .json) $algorithm"
    if [ "$algorithm" = preemptive ] && grep -q backbone "$file"; then
      expect_error "$name refused" "preemptive applies to one-port instances" -- exchange plan -a preemptive "$file"
      continue
    fi
    if "$redist" exchange plan -a "$algorithm" "$file" --gantt "$work/$algorithm.svg" >"$work/plan.json" &&
       "$redist" exchange check "$file" "$work/plan.json" >"$work/check.json" &&
       grep -q '"valid": true' "$work/check.json" && well_formed "$work/$algorithm.svg"; then ok; else ko "$name: $(cat "$work/plan.json" "$work/check.json")"; fi
  done
done

# --- without latency preemptive meets the bound ---------------------------------------------------
cycle=$(write_json '{"exchange": {"nodes": 3, "messages": [[0, 1, 1], [1, 2, 1], [2, 0, 1], [0, 2, 1]]}}' cycle.json)
expect_output "cycle preemptive optimal" '"makespan": 2.0' '"lower_bound": 2.0' '"optimal": true' -- exchange plan -a preemptive "$cycle"
expect_output "cycle ggp steps" '"algorithm": "ggp"' '"steps": {"count":' -- exchange plan -a ggp "$cycle"
expect_output "cycle steps text" 'steps       ' 'validator   valid' -- exchange plan -a steps --format text "$cycle"
# A step plan carries when its steps start: check --gantt draws the same numbered boundaries as
# plan --gantt, from the plan file alone.
for algorithm in ggp oggp steps min-steps; do
  if "$redist" exchange plan -a "$algorithm" "$data/exchange/block-cyclic-24.json" --gantt "$work/steps-plan.svg" >"$work/steps-plan.json" &&
     grep -q '"starts":\[0.0,' "$work/steps-plan.json" &&
     "$redist" exchange check "$data/exchange/block-cyclic-24.json" "$work/steps-plan.json" --gantt "$work/steps-check-$algorithm.svg" >/dev/null &&
     planned=$(grep -o 'step [0-9]*<' "$work/steps-plan.svg" | sort -u) && [ -n "$planned" ] &&
     [ "$planned" = "$(grep -o 'step [0-9]*<' "$work/steps-check-$algorithm.svg" | sort -u)" ]; then ok
  else ko "check --gantt $algorithm: step boundaries '$(grep -o 'step [0-9]*<' "$work/steps-check-$algorithm.svg" | tr '\n' ' ')'"; fi
done
expect_error "check reads one of its two files from stdin" \
  'instance and plan cannot both be read from standard input (at command line)' -- exchange check - -
expect_error "steps starts decreasing" 'not below the start of the step before it (at $.steps.starts[1])' -- \
  exchange check "$cycle" "$(write_json '{"steps": {"count": 2, "lower_bound": 1, "eta_d": 1, "eta_s": 1, "starts": [1, 0]}, "pieces": []}' s.json)"
expect_error "steps starts count" 'lists 1 starts for 2 steps (at $.steps.starts)' -- \
  exchange check "$cycle" "$(write_json '{"steps": {"count": 2, "lower_bound": 1, "eta_d": 1, "eta_s": 1, "starts": [0]}, "pieces": []}' s.json)"
expect_output "cycle bound" '"lower_bound": 2.0' '"ports":2.0' -- exchange bound "$cycle"
expect_output "dense matrix" '"makespan": 9.0' -- exchange plan "$(write_json '{"exchange": {"nodes": 3, "matrix": [[0, 5, 4], [0, 0, 0], [0, 0, 0]]}}' m.json)"
expect_output "dense matrix diagonal" '"makespan": 9.0' "the matrix's diagonal (9 bytes) stays on its nodes: copied locally, not planned" -- exchange plan "$(write_json '{"exchange": {"nodes": 3, "matrix": [[7, 5, 4], [0, 0, 0], [0, 0, 2]]}}' m.json)"
STDIN=$cycle expect_output "stdin" '"makespan": 2.0' '"optimal": true' -- exchange plan
# auto: whole when it meets the bound, preemptive's optimum when whole misses it
expect_output "auto whole at the bound" '"algorithm": "whole"' '"optimal": true' -- exchange plan "$cycle"
expect_output "auto preemptive below whole" '"algorithm": "preemptive"' '"makespan": 7.0' '"optimal": true' -- exchange plan "$(write_json '{"exchange": {"nodes": 3, "messages": [[0, 1, 3], [0, 2, 1], [1, 0, 4], [1, 2, 1], [2, 0, 2], [2, 1, 4]]}}' auto.json)"
expect_output "text summary" 'optimal     yes (makespan equals the lower bound)' 'validator   valid' -- exchange plan --format text "$cycle"
expect_output "exact cuts a message" '"makespan": 7.5' '"optimal": true' -- exchange plan -a exact "$data/exchange/latency-cut.json"
expect_error "exact too large" "(at --algorithm)" -- exchange plan -a exact "$data/exchange/skewed-8.json"
# An algorithm past its message limit refuses the instance before planning (docs/exchange.md, "Limits").
over=$(python3 -c 'import json; n = 1500; print(json.dumps({"exchange": {"nodes": n, "latency": 1, "messages": [[i, (i + d) % n, 1000] for i in range(n) for d in range(1, 8)]}}))')
over=$(write_json "$over" over.json)
expect_error "oggp over its limit" "oggp: 10500 messages, more than the 10000 this algorithm plans (" -- exchange plan -a oggp "$over"
expect_error "oggp over its limit: the option" "; use auto or whole (at --algorithm)" -- exchange plan -a oggp "$over"

# --- check: invalid plans exit 1 with a reason --------------------------------------------------
check_invalid() {
  local name=$1 plan=$2 want=$3 p code
  p=$(write_json "$plan" invalid.json)
  "$redist" exchange check "$cycle" "$p" >"$work/out" 2>"$work/err"
  code=$?
  if [ "$code" -eq 1 ] && grep -q '"valid": false' "$work/out" && grep -qF -- "$want" "$work/out"; then ok; else ko "$name: exit $code $(cat "$work/out" "$work/err")"; fi
}
all='{"from":0,"to":1,"start":0,"bytes":1},{"from":1,"to":2,"start":0,"bytes":1},{"from":2,"to":0,"start":0,"bytes":1}'
check_invalid "missing bytes" "{\"pieces\": [$all]}" "has 1 bytes but its pieces deliver 0"
check_invalid "send overlap" "{\"pieces\": [$all, {\"from\":0,\"to\":2,\"start\":0.5,\"bytes\":1}]}" "send port of node 0"
check_invalid "no message" "{\"pieces\": [$all, {\"from\":1,\"to\":0,\"start\":5,\"bytes\":1}]}" "has no message"
check_invalid "wrong makespan" "{\"makespan\": 1, \"pieces\": [$all, {\"from\":0,\"to\":2,\"start\":1,\"bytes\":1}]}" "makespan is 1"
if "$redist" exchange check "$cycle" "$(write_json "{\"pieces\": [$all, {\"from\":0,\"to\":2,\"start\":1,\"bytes\":1}]}" ok.json)" | grep -q '"makespan": 2.0'; then ok; else ko "hand plan"; fi
# Lax plans are refused as documents (exit 2): an unknown member inside "steps", a subnormal number.
expect_error "unknown member in steps" '(at $.steps.colour)' -- exchange check "$cycle" \
  "$(write_json "{\"steps\": {\"count\": 2, \"colour\": 1}, \"pieces\": [$all]}" steps.json)"
expect_error "subnormal start" 'the smallest normal double' -- exchange check "$cycle" \
  "$(write_json '{"pieces": [{"from":0,"to":1,"start":1e-310,"bytes":1}]}' subnormal.json)"

# --- check --gantt on an invalid plan: the validator's reason in red under the title, the pieces
# its typed verdict names outlined in red (each piece is a send bar and a receive bar) -----------
invalid_gantt() {  # NAME PLAN_JSON REASON OUTLINED (the pieces' hover texts, sorted, '|' after each)
  local svg="$work/invalid-$1.svg" got code want
  "$redist" exchange check --gantt "$svg" "$cycle" "$(write_json "$2" "invalid-$1.json")" >/dev/null 2>&1
  code=$?
  got=$(outlined "$svg" 2>/dev/null | sort | tr '\n' '|')
  want=$(printf '%s' "$3" | sed 's/&/\&amp;/g; s/</\&lt;/g; s/>/\&gt;/g')  # as the SVG writes it
  if [ $code -eq 1 ] && well_formed "$svg" && grep -qF ">invalid: $want" "$svg" && [ "$got" = "$4" ]; then
    ok; else ko "check --gantt $1: exit $code, outlined '$got'"; fi
}
p03='P0 -> P1: 1 bytes, [0, 1) s|P0 -> P1: 1 bytes, [0, 1) s|P0 -> P2: 1 bytes, [0.5, 1.5) s|P0 -> P2: 1 bytes, [0.5, 1.5) s|'
invalid_gantt overlap "{\"pieces\": [$all, {\"from\":0,\"to\":2,\"start\":0.5,\"bytes\":1}]}" \
  'pieces 0 and 3 overlap on the send port of node 0' "$p03"
twice='P0 -> P2: 1 bytes, [1, 2) s|P0 -> P2: 1 bytes, [1, 2) s|P0 -> P2: 1 bytes, [2, 3) s|P0 -> P2: 1 bytes, [2, 3) s|'
invalid_gantt message "{\"pieces\": [$all, {\"from\":0,\"to\":2,\"start\":1,\"bytes\":1}, {\"from\":0,\"to\":2,\"start\":2,\"bytes\":1}]}" \
  'message 3 (0 -> 2) has 1 bytes but its pieces deliver 2' "$twice"
invalid_gantt no_message "{\"pieces\": [$all, {\"from\":1,\"to\":0,\"start\":5,\"bytes\":1}]}" \
  'piece 3 goes from 1 to 0, which has no message' 'P1 -> P0: 1 bytes, [5, 6) s|P1 -> P0: 1 bytes, [5, 6) s|'
invalid_gantt missing "{\"pieces\": [$all]}" 'message 3 (0 -> 2) has 1 bytes but its pieces deliver 0' ''
invalid_gantt claim "{\"makespan\": 1, \"pieces\": [$all, {\"from\":0,\"to\":2,\"start\":1,\"bytes\":1}]}" \
  'makespan is 1 but the pieces end at 2' ''

# --- block-cyclic: the generator's instance plans -----------------------------------------------
"$redist" exchange block-cyclic --elements 24 --element-bytes 2 --from-block 2 --from-procs 2 --to-block 3 --to-procs 3 >"$work/bc.json"
if grep -q '"nodes":3' "$work/bc.json" && "$redist" exchange plan "$work/bc.json" | grep -q '"optimal": true'; then ok; else ko "block-cyclic: $(cat "$work/bc.json")"; fi

# --- step schedules: min-steps takes Delta steps and says so; the caterpillar skips empty steps --
expect_output "min-steps cycle" '"algorithm": "min-steps"' '"makespan": 2.0' '"optimal": true' '2 steps, the most messages of one node' -- exchange plan -a min-steps "$cycle"
expect_output "caterpillar cycle" '"makespan": 3.0' '"optimal": false' 'all 3 steps carry messages' -- exchange plan -a caterpillar "$cycle"

# --- migration: two ownership maps make an instance that plans ----------------------------------
"$redist" exchange migration "$data/exchange/ownership/ranges-4.json" >"$work/mig.json"
if grep -q '"nodes":5' "$work/mig.json" && grep -q '\[3,4,12800\]' "$work/mig.json" &&
   "$redist" exchange plan -a min-steps "$work/mig.json" | grep -q '"optimal": true'; then ok; else ko "migration: $(cat "$work/mig.json")"; fi
items=$(write_json '{"old": [0, 0, 1, 1, 2], "new": [1, 0, 1, 2, 2], "item_bytes": 8}' items.json)
expect_output "migration items" '"messages":[[0,1,8],[1,2,8]]' '"nodes":3' -- exchange migration "$items"
expect_output "migration nodes" '"nodes":7' -- exchange migration --nodes 7 "$items"
expect_error "migration nodes too few" "(at --nodes)" -- exchange migration --nodes 2 "$items"
mig() { expect_error "$1" "$2" -- exchange migration "$(write_json "$3" mig-bad.json)"; }
mig "migration gap" 'must begin at 2, where the range before it ends (at $.new[1][0])' '{"old": [0, 0, 1], "new": [[0, 2, 1], [3, 3, 0]]}'
mig "migration empty range" '(at $.old[0][1])' '{"old": [[0, 0, 1]], "new": []}'
mig "migration owner" '(at $.new[1])' '{"old": [0, 0, 1], "new": [0, -1, 1]}'
mig "migration range owner" '(at $.old[0][2])' '{"old": [[0, 3, 1000000]], "new": [0, 0, 0]}'
mig "migration lengths" 'covers 2 items but the old map covers 3 (at $.new)' '{"old": [0, 0, 1], "new": [0, 2]}'
mig "migration item bytes" '(at $.item_bytes)' '{"old": [0, 1], "new": [1, 0], "item_bytes": 0}'
mig "migration pair bytes" '(at $.item_bytes)' '{"old": [[0, 1099511627776, 0]], "new": [[0, 1099511627776, 1]], "item_bytes": 1048576}'
mig "migration missing" '(at $.new)' '{"old": [0, 1]}'
mig "migration given an instance" 'this is an exchange instance, not ownership maps' '{"exchange": {"nodes": 2, "messages": [[0, 1, 5]]}}'
mig "migration given a plan" 'this is an exchange plan, not ownership maps' '{"algorithm": "whole", "pieces": []}' 
mig "migration unknown" '(at $.item_byte)' '{"old": [0, 1], "new": [1, 0], "item_byte": 3}'
mig "migration triple" 'must be [begin, end, owner] (at $.old[0])' '{"old": [[0, 2]], "new": [1, 0]}'

# --- bad input: exit 2 and one error line naming the field --------------------------------------
bad() { expect_error "$1" "$2" -- exchange plan "$(write_json "$3" bad.json)"; }
bad "self message" 'a node sends nothing to itself (at $.exchange.messages[0])' '{"exchange": {"nodes": 2, "messages": [[1, 1, 5]]}}'
bad "node range" 'node 2 is not in 0..1 (at $.exchange.messages[0][1])' '{"exchange": {"nodes": 2, "messages": [[0, 2, 5]]}}'
bad "negative bytes" 'bytes must be at least 1, got -5 (at $.exchange.messages[0][2])' '{"exchange": {"nodes": 2, "messages": [[0, 1, -5]]}}'
bad "float bytes" '(at $.exchange.messages[0][2])' '{"exchange": {"nodes": 2, "messages": [[0, 1, 1.5]]}}'
bad "huge bytes" '(at $.exchange.messages[0][2])' '{"exchange": {"nodes": 2, "messages": [[0, 1, 9007199254740993]]}}'
bad "duplicate pair" 'a second message from 0 to 1' '{"exchange": {"nodes": 2, "messages": [[0, 1, 5], [0, 1, 6]]}}'
bad "zero bandwidth" '(at $.exchange.send_bandwidth)' '{"exchange": {"nodes": 2, "messages": [[0, 1, 5]], "send_bandwidth": 0}}'
bad "bandwidth count" '(at $.exchange.recv_bandwidth)' '{"exchange": {"nodes": 2, "messages": [[0, 1, 5]], "recv_bandwidth": [1, 2, 3]}}'
bad "infinite times" '(at $.exchange.messages)' '{"exchange": {"nodes": 2, "messages": [[0, 1, 9007199254740992]], "send_bandwidth": 1e-307}}'
bad "negative latency" '(at $.exchange.latency)' '{"exchange": {"nodes": 2, "messages": [[0, 1, 5]], "latency": -1}}'
bad "ports" '(at $.exchange.ports)' '{"exchange": {"nodes": 2, "messages": [[0, 1, 5]], "ports": 2}}'
bad "one node" '(at $.exchange.nodes)' '{"exchange": {"nodes": 1, "messages": []}}'
bad "both forms" 'either as "messages" or as a "matrix"' '{"exchange": {"nodes": 2, "messages": [], "matrix": [[0, 1], [0, 0]]}}'
bad "clusters" '(at $.exchange.backbone.clusters)' '{"exchange": {"nodes": 3, "messages": [], "backbone": {"clusters": [[0], [1]], "transfers": 1}}}'
bad "transfers" '(at $.exchange.backbone.transfers)' '{"exchange": {"nodes": 2, "messages": [], "backbone": {"clusters": [[0], [1]], "transfers": 0}}}'
bad "unknown field" '(at $.exchange.latncy)' '{"exchange": {"nodes": 2, "messages": [], "latncy": 1}}'
expect_error "unknown algorithm" "(at --algorithm)" -- exchange plan -a greedy "$cycle"
expect_error "block-cyclic procs" "(at --from-procs)" -- exchange block-cyclic --elements 10 --from-block 1 --from-procs 0 --to-block 1 --to-procs 2
expect_error "block-cyclic runs" "(at --elements)" -- exchange block-cyclic --elements 4503599627370496 --from-block 1 --from-procs 4093 --to-block 1 --to-procs 4091
big=$(python3 -c 'import json; print(json.dumps({"exchange": {"nodes": 300, "messages": [[i, (i + 1) % 300, 5] for i in range(300)]}}))')
expect_no_chart "gantt too large" "at most 256 nodes" "$work/big.svg" -- exchange plan "$(write_json "$big" big.json)" --gantt "$work/big.svg"

# --- a failed step of `experiment exchange` -------------------------------------------------------
# SMPIRUN naming no program makes the SMPI step fail (where a build with SimGrid put its script
# beside redist): exit 4, one error line naming the step with the script's own error (not its
# traceback), and what finished before it, whose files stay.
if [ -f "$(dirname "$redist")/smpi_exchange.py" ]; then
  SMPIRUN="$work/no-smpirun" "$redist" experiment exchange --instances 1 --out "$work/xexp" >"$work/out" 2>"$work/err"
  code=$?
  if [ "$code" -eq 4 ] && [ ! -s "$work/out" ] && [ "$(wc -l <"$work/err")" -eq 1 ] &&
     grep -q "^error: experiment exchange: the SMPI measurements (SimGrid's default, with acknowledgement traffic) failed: smpi_exchange.py exited with code 1: RuntimeError: .*no-smpirun.*; finished before it: the KPBS comparison, [0-9]* files in $work/xexp (kpbs_.* (at smpi_exchange.py)\$" "$work/err" &&
     ! grep -q 'Traceback\|internal error\|File "' "$work/err" && [ -s "$work/xexp/kpbs_k5.svg" ]; then ok
  else ko "experiment exchange, SMPI step failing: exit $code: $(cat "$work/err")"; fi
fi

finish
