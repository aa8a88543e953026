#!/usr/bin/env bash
# Transcript tests of `redist star plan|check|order`, `redist dlt plan` and `redist experiment
# star` (docs/formats.md, docs/star.md): exit codes, the single `error:` line, plan -> check round trips.
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
  if well_formed "$work/$algorithm.svg" && grep -qE "makespan ${want%.0}, lower bound [0-9.]+, optimal: (yes|not proven)" "$work/$algorithm.svg" &&
     grep -qF 'second hop: the master forwards it' "$work/$algorithm.svg"; then ok; else ko "gantt $algorithm"; fi
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
# --gantt on dlt plan and check: the chart of the plan, titled with its claims; check draws an
# invalid schedule with the violation in red; too many workers are refused before planning.
if "$redist" dlt plan "$dlt" --gantt "$work/dlt.svg" >"$work/dlt-plan.json" &&
   grep -qE 'redist dlt plan — lp7: makespan [0-9.]+, lower bound [0-9.]+, optimal: yes' "$work/dlt.svg" &&
   "$redist" dlt check "$dlt" "$work/dlt-plan.json" --gantt "$work/dlt-check.svg" >/dev/null &&
   grep -qF 'redist dlt check — lp7: makespan' "$work/dlt-check.svg"; then ok; else ko "dlt gantt"; fi
s=$(write_json '{"transfers": [{"from": 0, "to": 1, "amount": 99, "rate": 1}]}' dlt-bad.json)
rm -f "$work/dlt-bad.svg"
"$redist" dlt check "$dlt" "$s" --gantt "$work/dlt-bad.svg" >/dev/null
if [ $? -eq 1 ] && well_formed "$work/dlt-bad.svg" && grep -qF '>invalid: ' "$work/dlt-bad.svg"; then ok; else
  ko "dlt gantt of an invalid schedule"
fi
f=$(python3 -c 'import json; print(json.dumps({"dlt": {"b": [1] * 1001, "s": [1] * 1001, "alpha": [1] * 1001}}))')
f=$(write_json "$f" dlt-big.json)
expect_no_chart "dlt gantt too many workers" 'omit --gantt' "$work/big.svg" -- dlt plan --gantt "$work/big.svg" "$f"

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
expect_error "ring instance to star plan" "this is a ring instance, not a star one: use \`redist ring plan\` (at \$)" -- star plan "$f"
f=$(write_json '{}' e.json)
expect_error "missing star" 'missing field (at $.star)' -- star plan "$f"
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

# --- physical validity of DLT schedules and the independent dlt check ---------------------------
# Worker 1 holds nothing: LP 7 alone let it send 233.
d1=$(write_json '{"dlt": {"b": [1, 10, 100], "s": [1, 0.1, 100], "alpha": [100, 0, 0]}}' d1.json)
for solver in fast lp; do
  "$redist" dlt plan --solver "$solver" "$d1" >"$work/dplan.json"
  if "$redist" dlt check "$d1" "$work/dplan.json" >"$work/dcheck.json" &&
     grep -q '"valid": true' "$work/dcheck.json"; then ok; else ko "dlt check $solver: $(cat "$work/dcheck.json")"; fi
done
dlt_invalid() {
  local name=$1 schedule=$2 want=$3
  local s code
  s=$(write_json "$schedule" dinvalid.json)
  "$redist" dlt check "$d1" "$s" >"$work/out" 2>"$work/err"
  code=$?
  if [ "$code" -eq 1 ] && grep -q '"valid": false' "$work/out" && grep -qF -- "$want" "$work/out"; then ok; else ko "$name: exit $code $(cat "$work/out" "$work/err")"; fi
}
dlt_invalid "dlt sends more than held" '{"transfers": [{"from": 1, "to": 2, "amount": 233, "rate": 1}]}' "holds only"
dlt_invalid "dlt bandwidth" '{"transfers": [{"from": 0, "to": 2, "amount": 50, "rate": 5}]}' "bandwidth"
dlt_invalid "dlt negative makespan" '{"makespan": -1, "transfers": []}' "differs"
dlt_invalid "dlt empty delta" '{"delta": [], "transfers": []}' "delta has 0 entries"
s=$(write_json '{"transfers": [], "extra": 1}' ds.json)
expect_error "dlt check unknown field" '(at $.extra)' -- dlt check "$d1" "$s"
s=$(write_json '{"transfers": [{"from": 0, "to": 2, "amount": 1, "rate": 1, "start": 0}]}' ds.json)
expect_error "dlt check unknown transfer field" '(at $.transfers[0].start)' -- dlt check "$d1" "$s"
s=$(write_json '{"transfers": [{"from": 0, "to": 2, "amount": 1}]}' ds.json)
expect_error "dlt check missing rate" '(at $.transfers[0].rate)' -- dlt check "$d1" "$s"

# --- star check: every claim is compared, unknown members refused ------------------------------
check_invalid "negative makespan" '{"makespan": -1, "transfers": []}' "differs"
check_invalid "empty finish" '{"finish": [], "transfers": []}' "finish has 0 entries"
s=$(write_json '{"transfers": [], "makespan_claim": 24}' s.json)
expect_error "schedule unknown field" '(at $.makespan_claim)' -- star check "$trace" "$s"
s=$(write_json '{"transfers": [{"from": 0, "to": 1, "send_start": 0, "forward_start": 2, "size": 1}]}' s.json)
expect_error "transfer unknown field" '(at $.transfers[0].size)' -- star check "$trace" "$s"
s=$(write_json '{"transfers": [], "notes": [1]}' s.json)
expect_error "notes not strings" '(at $.notes[0])' -- star check "$trace" "$s"
f=$(write_json '{"star": {"c": [3e307, 3e307], "w": [1e307, 1e307], "loads": [1, 0]}}' e.json)
s=$(write_json '{"transfers": [{"from": 0, "to": 1, "send_start": 0, "forward_start": 1.7e308}]}' s.json)
expect_error "check time overflow" '(at $.transfers[0].forward_start)' -- star check "$f" "$s"

# --- overflow: refused up front, naming the field -----------------------------------------------
f=$(write_json '{"star": {"c": [1e308, 1e308], "w": [1, 1], "loads": [3, 0]}}' e.json)
expect_error "star times overflow" '(at $.star.c[' -- star plan "$f"
f=$(write_json '{"star": {"c": [1e-300, 1e300], "w": [1e300, 1e-300], "loads": [1, 1]}}' e.json)
expect_error "star duration below resolution" '(at $.star.c[0])' -- star plan "$f"
f=$(write_json '{"star": {"c": [1e300, 3e300], "w": [2e300, 1e299], "loads": [3, 0]}}' e.json)
for algorithm in bba mbbsa rbsa exact best; do
  "$redist" star plan -a "$algorithm" "$f" >"$work/plan.json"
  if ! grep -qi 'inf\|nan\|null' "$work/plan.json" &&
     "$redist" star check "$f" "$work/plan.json" | grep -q '"valid": true'; then ok; else ko "extreme $algorithm: $(cat "$work/plan.json")"; fi
done
f=$(write_json '{"star": {"c": [1e308, 1e308], "delta": [2, -2]}}' e.json)
expect_error "order times overflow" '(at $.star.c[' -- star order "$f"
f=$(write_json '{"star": {"c": [1, 1], "delta": [20000000, -20000000]}}' e.json)
expect_error "order too many transfers" 'split the redistribution' -- star order "$f"
f=$(write_json '{"dlt": {"b": [1], "s": [1e-300], "alpha": [1e300]}}' e.json)
expect_error "dlt alpha / s overflow" '(at $.dlt.alpha[0])' -- dlt plan "$f"
f=$(write_json '{"dlt": {"b": [1e300], "s": [1e300], "alpha": [1e-300]}}' e.json)
expect_error "dlt makespan underflow" '(at $.dlt.alpha[0])' -- dlt plan "$f"

# --- resource limits ----------------------------------------------------------------------------
big=$(python3 -c 'import json; print(json.dumps({"star": {"c": [1]*1001, "w": [1]*1001, "loads": [5]+[0]*1000}}))')
f=$(write_json "$big" big.json)
expect_no_chart "gantt too many workers" 'omit --gantt' "$work/big.svg" -- star plan --gantt "$work/big.svg" "$f"
f=$(write_json '{"star": {"c": [1, 1], "w": [1000, 1000], "loads": [50000, 0]}}' e.json)
expect_no_chart "gantt too many transfers" 'a Gantt chart shows at most' "$work/big.svg" -- star plan -a bba --gantt "$work/big.svg" "$f"
f=$(write_json '{"star": {"c": [1, 1], "w": [1, 1], "loads": [100, 0]}}' e.json)
expect_error "exact advice" 'use algorithm best' -- star plan -a exact "$f"
f=$(write_json '{"star": {"c": [1, 1], "w": [1, 1], "loads": [10000001, 0]}}' e.json)
expect_error "plan too many tasks" 'group tasks into larger ones' -- star plan -a bba "$f"
f=$(write_json '{"star": {"c": [1, 2], "w": [1, 1], "loads": [2000001, 0]}}' e.json)
expect_error "rbsa too many tasks" 'use algorithm bba or mbbsa' -- star plan -a rbsa "$f"
expect_error "experiment instances" '(at --instances)' -- experiment star --out "$work/exp2" --instances 10001

# --- experiment ---------------------------------------------------------------------------------
if "$redist" experiment star --out "$work/exp" --seed 3 --instances 10 --format json >"$work/exp.json" &&
   [ -s "$work/exp/table1.md" ] && [ -s "$work/exp/optimum.md" ] && [ -s "$work/exp/figure25c.svg" ] &&
   grep -q '"experiment": "star"' "$work/exp.json"; then ok; else ko "experiment star: $(cat "$work/exp.json")"; fi
# Without --format: a short readable summary (what ran, the headline numbers, the files written).
if "$redist" experiment star --out "$work/exp" --seed 3 --instances 10 >"$work/exp.txt" &&
   [ "$(wc -l <"$work/exp.txt")" -le 30 ] && [ "$(wc -c <"$work/exp.txt")" -le 3000 ] &&
   head -1 "$work/exp.txt" | grep -qx 'redist experiment star' &&
   grep -q '^seed        3$' "$work/exp.txt" &&
   grep -q '^instances   10 per configuration$' "$work/exp.txt" &&
   grep -Eq '^MBBSA       1\.[0-9]{4} x the best of the three \(paper 1\.[0-9]{4}; mean of 12 rows\)' "$work/exp.txt" &&
   grep -Eq '^best of 3   optimal on [0-9.]+% of 24 small platforms' "$work/exp.txt" &&
   grep -q '^  table1  *12 rows$' "$work/exp.txt" &&
   grep -q "^files (20 written in $work/exp)\$" "$work/exp.txt" &&
   grep -q '^  figure22a.svg ' "$work/exp.txt" && grep -q ' table1.json table1.md' "$work/exp.txt" &&
   ! grep -q '{' "$work/exp.txt"; then ok; else ko "experiment star text: $(cat "$work/exp.txt")"; fi

finish
