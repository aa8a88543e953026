#!/usr/bin/env bash
# Transcript tests of `redist star plan|check|order`, `redist dlt plan` and `redist experiment
# star` (SPEC §1 and §4): exit codes, the single `error:` line, plan -> check round trips.
# Usage: star_cli_test.sh path/to/redist
set -u
redist=$1
# shellcheck source=cli_test_lib.sh
source "$(dirname "$0")/cli_test_lib.sh"

# --- STAR §4.2 trace: optimum 13, BBA 14, MBBSA 13, R-BSA 13 -----------------------------------
trace=$(write_json '{"star": {"c": [2, 2, 2, 2], "w": [3, 3, 4, 4], "loads": [8, 1, 1, 0]}}' trace.json)
for pair in bba:14.0 mbbsa:13.0 rbsa:13.0 exact:13.0 best:13.0; do
  algorithm=${pair%%:*}
  want=${pair#*:}
  if "$redist" star plan --algorithm "$algorithm" "$trace" --gantt "$work/$algorithm.svg" >"$work/plan.json" &&
     grep -q "\"makespan\": $want," "$work/plan.json" &&
     grep -q "\"algorithm\": \"$algorithm\"\|\"algorithm\": \"mbbsa\"" "$work/plan.json"; then ok; else ko "trace $algorithm: $(cat "$work/plan.json")"; fi
  if head -c 4 "$work/$algorithm.svg" | grep -q '<svg'; then ok; else ko "gantt $algorithm"; fi
  if "$redist" star check "$trace" "$work/plan.json" >"$work/check.json" &&
     grep -q '"valid": true' "$work/check.json" && grep -q "\"makespan\": $want" "$work/check.json"; then ok; else ko "check $algorithm: $(cat "$work/check.json")"; fi
done
if "$redist" star plan -a exact "$trace" | grep -q '"optimal": true'; then ok; else ko "exact optimal"; fi
if "$redist" star plan -a mbbsa "$trace" | grep -q '"optimal": true'; then ok; else ko "mbbsa optimal (homogeneous links)"; fi
# Instance from standard input; the default algorithm is best.
if "$redist" star plan <"$trace" | grep -q '"makespan": 13.0'; then ok; else ko "stdin"; fi
if "$redist" star plan - <"$trace" | grep -q '"makespan": 13.0'; then ok; else ko "stdin -"; fi

# --- Figures 2-3: makespan 12, worker 0 both sends and receives ---------------------------------
fig=$(write_json '{"star": {"c": [1, 8, 1, 1], "w": [1, 1, 9, 10], "loads": [13, 13, 0, 0]}}' fig.json)
"$redist" star plan -a exact "$fig" >"$work/plan.json"
if grep -q '"makespan": 12.0' "$work/plan.json" && grep -q '"from":0' "$work/plan.json" &&
   grep -q '"to":0' "$work/plan.json"; then ok; else ko "figures 2-3: $(cat "$work/plan.json")"; fi
if "$redist" star check "$fig" "$work/plan.json" | grep -q '"valid": true'; then ok; else ko "figures 2-3 check"; fi

# --- check: invalid schedules exit 1 ------------------------------------------------------------
check_invalid() {
  local name=$1 schedule=$2 want=$3
  local s code
  s=$(write_json "$schedule" invalid.json)
  "$redist" star check "$trace" "$s" >"$work/out" 2>"$work/err"
  code=$?
  if [ "$code" -eq 1 ] && grep -q '"valid": false' "$work/out" && grep -qF -- "$want" "$work/out"; then ok; else ko "$name: exit $code $(cat "$work/out" "$work/err")"; fi
}
check_invalid "unknown worker" '{"transfers": [{"from": 9, "to": 1, "send_start": 0, "forward_start": 2}]}' "unknown worker"
check_invalid "early forward" '{"transfers": [{"from": 0, "to": 1, "send_start": 0, "forward_start": 1}]}' "arrives only"
check_invalid "port overlap" '{"transfers": [{"from": 0, "to": 1, "send_start": 0, "forward_start": 2}, {"from": 0, "to": 3, "send_start": 1, "forward_start": 4}]}' "receive port"
check_invalid "negative start" '{"transfers": [{"from": 0, "to": 1, "send_start": -1, "forward_start": 2}]}' "send_start"
check_invalid "not held" '{"transfers": [{"from": 3, "to": 1, "send_start": 0, "forward_start": 2}]}' "does not hold"
check_invalid "wrong makespan" '{"makespan": 5, "transfers": []}' "differs"
check_invalid "wrong finish" '{"finish": [24, 3, 4], "transfers": []}' "finish"

# --- order (Theorem 1) --------------------------------------------------------------------------
order=$(write_json '{"star": {"c": [3, 1, 2, 5], "delta": [2, 1, -1, -2]}}' order.json)
if "$redist" star order "$order" >"$work/order-out.json" && grep -q '"makespan": 13.0' "$work/order-out.json" &&
   grep -q '"algorithm": "theorem1"' "$work/order-out.json"; then ok; else ko "order: $(cat "$work/order-out.json")"; fi

# --- dlt ----------------------------------------------------------------------------------------
dlt=$(write_json '{"dlt": {"b": [1, 100, 2], "s": [1, 1, 3], "alpha": [10, 0, 1.5]}}' dlt.json)
fast=$("$redist" dlt plan "$dlt" | grep '"makespan"')
lp=$("$redist" dlt plan --solver lp "$dlt" | grep '"makespan"')
if [ -n "$fast" ] && [ "$fast" = "$lp" ]; then ok; else ko "dlt fast '$fast' vs lp '$lp'"; fi
if "$redist" dlt plan "$dlt" | grep -q '"rate"'; then ok; else ko "dlt transfers"; fi

# --- input errors (exit 2, one line, JSON path) -------------------------------------------------
f=$(write_json '{"star": {"c": [1, 2], "w": [1, 1], "loads": [1, 2, 3]}}' e.json)
expect_error "c size" '(at $.star.c)' -- star plan "$f"
f=$(write_json '{"star": {"c": [1, 0, 1], "w": [1, 1, 1], "loads": [1, 2, 3]}}' e.json)
expect_error "zero c" '(at $.star.c[1])' -- star plan "$f"
f=$(write_json '{"star": {"c": [1, 1, 1], "w": [1, 1, -2], "loads": [1, 2, 3]}}' e.json)
expect_error "negative w" '(at $.star.w[2])' -- star plan "$f"
f=$(write_json '{"star": {"c": [1, 1, 1], "w": [1, 1, "x"], "loads": [1, 2, 3]}}' e.json)
expect_error "string w" '(at $.star.w[2])' -- star plan "$f"
f=$(write_json '{"star": {"c": [1, 1, 1], "w": [1, 1, 1], "loads": [1, -2, 3]}}' e.json)
expect_error "negative load" '(at $.star.loads[1])' -- star plan "$f"
f=$(write_json '{"star": {"c": [1, 1, 1], "w": [1, 1, 1], "loads": [1, 2.5, 3]}}' e.json)
expect_error "non-integer load" '(at $.star.loads[1])' -- star plan "$f"
f=$(write_json '{"star": {"c": [1, 1], "w": [1, 1], "loads": [9223372036854775807, 1]}}' e.json)
expect_error "load overflow" '(at $.star.loads' -- star plan "$f"
f=$(write_json '{"star": {"c": [1, 1], "w": [1, 1], "loads": [99999999999999999999, 1]}}' e.json)
expect_error "load out of range" '(at $.star.loads[0])' -- star plan "$f"
f=$(write_json '{"star": {"c": [], "w": [], "loads": []}}' e.json)
expect_error "no worker" '(at $.star.loads)' -- star plan "$f"
f=$(write_json '{"star": {"c": [1], "w": [1], "loads": [1], "speed": 2}}' e.json)
expect_error "unknown field" '(at $.star.speed)' -- star plan "$f"
f=$(write_json '{"star": {"c": [1], "loads": [1]}}' e.json)
expect_error "missing w" '(at $.star.w)' -- star plan "$f"
f=$(write_json '{"ring": {}}' e.json)
expect_error "missing star" '(at $.star)' -- star plan "$f"
f=$(write_json '{"star": {"c": [1], "w": [1], "loads": [1]' e.json)
expect_error "malformed JSON" 'malformed JSON' -- star plan "$f"
expect_error "unknown algorithm" '(at --algorithm)' -- star plan --algorithm fifo "$trace"
f=$(write_json '{"star": {"c": [1, 1], "w": [1, 1], "loads": [100, 0]}}' e.json)
expect_error "exact too large" 'too large for exact' -- star plan --algorithm exact "$f"
expect_error "check without schedule" '(at command line)' -- star check "$trace"
s=$(write_json '{"transfers": [{"from": 0, "to": 1, "send_start": "0", "forward_start": 2}]}' s.json)
expect_error "schedule wrong type" '(at $.transfers[0].send_start)' -- star check "$trace" "$s"
s=$(write_json '{"transfers": [{"from": 0, "to": 1, "send_start": 0}]}' s.json)
expect_error "schedule missing field" '(at $.transfers[0].forward_start)' -- star check "$trace" "$s"
s=$(write_json '{"transfers": [{"from": 0.5, "to": 1, "send_start": 0, "forward_start": 2}]}' s.json)
expect_error "schedule float worker" '(at $.transfers[0].from)' -- star check "$trace" "$s"
expect_error "gantt unwritable" '(at --gantt)' -- star plan --gantt "$work/no/such/dir/x.svg" "$trace"
f=$(write_json '{"star": {"c": [1, 1], "delta": [1, 0]}}' e.json)
expect_error "order sum" '(at $.star.delta)' -- star order "$f"
f=$(write_json '{"star": {"c": [1, -1], "delta": [1, -1]}}' e.json)
expect_error "order c" '(at $.star.c[1])' -- star order "$f"
f=$(write_json '{"star": {"c": [1, 1], "delta": [1, -1], "w": [1, 1]}}' e.json)
expect_error "order unknown field" '(at $.star.w)' -- star order "$f"
f=$(write_json '{"dlt": {"b": [1, 0], "s": [1, 1], "alpha": [1, 1]}}' e.json)
expect_error "dlt zero b" '(at $.dlt.b[1])' -- dlt plan "$f"
f=$(write_json '{"dlt": {"b": [1, 1], "s": [1, 1], "alpha": [1, -1]}}' e.json)
expect_error "dlt negative alpha" '(at $.dlt.alpha[1])' -- dlt plan "$f"
f=$(write_json '{"dlt": {"b": [1, 1], "s": [1], "alpha": [1, 1]}}' e.json)
expect_error "dlt s size" '(at $.dlt.s)' -- dlt plan "$f"
expect_error "dlt unknown solver" '(at --solver)' -- dlt plan --solver simplex "$dlt"

# --- experiment ---------------------------------------------------------------------------------
if "$redist" experiment star --out "$work/exp" --seed 3 --instances 10 >"$work/exp.json" &&
   [ -s "$work/exp/table1.md" ] && [ -s "$work/exp/optimum.md" ] && [ -s "$work/exp/figure25c.svg" ] &&
   grep -q '"experiment": "star"' "$work/exp.json"; then ok; else ko "experiment star: $(cat "$work/exp.json")"; fi

finish
