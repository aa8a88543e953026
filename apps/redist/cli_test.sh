#!/usr/bin/env bash
# Transcript tests of the redist command line (docs/formats.md): exit codes, the single `error:` line on
# standard error with nothing on standard output, and plan -> check round trips.
# Usage: cli_test.sh path/to/redist path/to/data
set -u
redist=$1
data=$2
# shellcheck source=cli_test_lib.sh
source "$(dirname "$0")/cli_test_lib.sh"

# --- plan, check and bound on the bundled examples -------------------------------------------
for example in demo-ring unidirectional homogeneous-bidirectional relay above-system6; do
  if "$redist" ring plan "$data/examples/$example.json" --gantt "$work/$example.svg" >"$work/plan.json"; then ok; else ko "plan $example"; fi
  if grep -q '"optimal": true' "$work/plan.json"; then ok; else ko "plan $example not optimal"; fi
  if head -c 4 "$work/$example.svg" | grep -q '<svg'; then ok; else ko "gantt $example"; fi
  if "$redist" ring check "$data/examples/$example.json" "$work/plan.json" >"$work/check.json"; then ok; else ko "check $example: $(cat "$work/check.json")"; fi
  if grep -q '"valid": true' "$work/check.json"; then ok; else ko "check output $example"; fi
  if "$redist" ring bound "$data/examples/$example.json" | grep -q '"system6"'; then ok; else ko "bound $example"; fi
done

# Heterogeneous bidirectional rings: every algorithm, both solvers, re-checked.
for args in "" "-a light" "-a light --solver lp" "-a light-enforced" "-a light-enforced --solver lp" "-a heuristic" "-a exact"; do
  # shellcheck disable=SC2086
  if "$redist" ring plan $args "$data/examples/spec-example.json" >"$work/plan.json" &&
     "$redist" ring check "$data/examples/spec-example.json" "$work/plan.json" | grep -q '"valid": true' &&
     grep -q '"makespan": 3.5,' "$work/plan.json"; then ok; else ko "spec example with '$args': $(cat "$work/plan.json")"; fi
done
# The example schedule of docs/formats.md, exactly.
"$redist" ring plan "$data/examples/spec-example.json" >"$work/plan.json"
if grep -q '"light": true' "$work/plan.json" && grep -q '"flows": \[3,0,-1,2\]' "$work/plan.json" &&
   grep -q '{"from":3,"dir":"prev","start":2.0,"count":1}' "$work/plan.json"; then ok; else ko "spec example schedule: $(cat "$work/plan.json")"; fi
# An instance whose optimum (22, proven by exact) exceeds System 6's bound (20).
"$redist" ring plan "$data/examples/above-system6.json" >"$work/plan.json"
if grep -q '"algorithm": "exact"' "$work/plan.json" && grep -q '"makespan": 22.0' "$work/plan.json" &&
   grep -q '"lower_bound": 22.0' "$work/plan.json"; then ok; else ko "above-system6: $(cat "$work/plan.json")"; fi
if "$redist" ring bound "$data/examples/above-system6.json" | grep -q '"lower_bound": 20.0'; then ok; else ko "above-system6 bound"; fi

# The instance can come from standard input.
if "$redist" ring plan - <"$data/examples/unidirectional.json" | grep -q '"algorithm": "unidirectional"'; then ok; else ko "plan from stdin"; fi

# A tampered schedule is invalid: exit 1 with a reason.
"$redist" ring plan "$data/examples/demo-ring.json" >"$work/plan.json"
sed 's/"makespan": [0-9.e+-]*/"makespan": 1234.5/' "$work/plan.json" >"$work/bad.json"
"$redist" ring check "$data/examples/demo-ring.json" "$work/bad.json" >"$work/out" 2>"$work/err"
code=$?
if [ "$code" -eq 1 ] && grep -q '"valid": false' "$work/out" && grep -q '"reason"' "$work/out"; then ok; else ko "tampered makespan: exit $code $(cat "$work/out")"; fi

# --- bad input: exit 2, one error line naming the field -------------------------------------
f=$(write_json '{"ring": {"loads": [1, 2], "targets": [2, 2], "cost_next": 1}}' sums.json)
expect_error "sums differ" '(at $.ring.targets)' -- ring plan "$f"
f=$(write_json '{"ring": {"loads": [1, -2], "targets": [2, -3], "cost_next": 1}}' neg.json)
expect_error "negative load" '(at $.ring.loads[1])' -- ring plan "$f"
f=$(write_json '{"ring": {"loads": [1, 2.5], "targets": [2, 1.5], "cost_next": 1}}' frac.json)
expect_error "non-integer" '(at $.ring.loads[1])' -- ring plan "$f"
f=$(write_json '{"ring": {"loads": [9223372036854775807, 9], "targets": [9, 9223372036854775807], "cost_next": 1}}' big.json)
expect_error "sum overflow" 'overflows 64 bits' -- ring bound "$f"
f=$(write_json '{"ring": {"loads": [1, 1], "targets": [1, 1], "cost_next": [1, 0]}}' zero.json)
expect_error "zero cost" '(at $.ring.cost_next[1])' -- ring plan "$f"
f=$(write_json '{"ring": {"loads": [1, 1], "targets": [1, 1], "cost_next": [1, 1e400]}}' inf.json)
expect_error "infinite cost" '(at $.ring.cost_next[1])' -- ring plan "$f"
f=$(write_json '{"ring": {"bidirectional": true, "loads": [1, 1], "targets": [1, 1], "cost_next": 1}}' noprev.json)
expect_error "cost_prev missing" '(at $.ring.cost_prev)' -- ring plan "$f"
# An error at a field of the instance says what the field means.
expect_error "field meaning" 'missing field; cost_prev: the time to send one item from processor i to processor i-1 (at $.ring.cost_prev)' -- ring plan "$f"
f=$(write_json '{"ring": {"loads": [1, 1], "targets": [1, 1], "cost_next": 1, "cost_prev": 1}}' uniprev.json)
expect_error "cost_prev on unidirectional" '(at $.ring.cost_prev)' -- ring plan "$f"
f=$(write_json '{"ring": {"loads": [3], "targets": [3], "cost_next": 1}}' one.json)
expect_error "n < 2" '(at $.ring.loads)' -- ring plan "$f"
f=$(write_json '{"ring": {"loads": [3, 1], "targets": [2, 2], "cost_next": 1' malformed.json)
expect_error "malformed JSON" 'malformed JSON' -- ring plan "$f"
expect_error "missing file" "cannot read file" -- ring plan "$work/does-not-exist.json"
expect_error "unknown algorithm" '(at --algorithm)' -- ring plan --algorithm fastest "$data/examples/demo-ring.json"
expect_error "inapplicable algorithm" '(at --algorithm)' -- ring plan --algorithm bidirectional-homogeneous "$data/examples/demo-ring.json"
expect_error "exact over its limits" '(at $.ring.loads)' -- ring plan --algorithm exact "$data/examples/demo-ring.json"
expect_error "unknown solver" '(at --solver)' -- ring plan --solver magic "$data/examples/demo-ring.json"
expect_error "unknown option" '(at command line)' -- ring plan --frobnicate "$data/examples/demo-ring.json"
expect_error "no subcommand" '(at command line)' --
expect_error "check without schedule" '(at command line)' -- ring check "$data/examples/demo-ring.json"
s=$(write_json '{"transfers": [{"from": 0, "dir": "next", "start": "soon", "count": 1}]}' sched.json)
expect_error "schedule wrong type" '(at $.transfers[0].start)' -- ring check "$data/examples/demo-ring.json" "$s"
expect_error "gantt unwritable" '(at --gantt)' -- ring plan --gantt "$work/no/such/dir/x.svg" "$data/examples/demo-ring.json"

# A well-formed schedule that breaks the model is invalid (exit 1), not an input error.
s=$(write_json '{"transfers": [{"from": 9, "dir": "next", "start": 0, "count": 1}]}' unknown.json)
"$redist" ring check "$data/examples/demo-ring.json" "$s" >"$work/out" 2>"$work/err"
code=$?
if [ "$code" -eq 1 ] && grep -q '"valid": false' "$work/out"; then ok; else ko "unknown processor: exit $code"; fi

# --- hostile input: extreme values, strict schedules, size limits ---------------------------------
# A directory given as the input: one error line that says so, at the command line (it said
# `read error (at $./dir)`, a path glued onto a JSON path).
mkdir -p "$work/a-directory"
expect_error "a directory as input" "cannot read '$work/a-directory': it is a directory (at command line)" -- \
  ring plan "$work/a-directory"
# `auto` plans homogeneous rings beyond Algorithm 3's round limit (it used to refuse them).
f=$(write_json '{"ring":{"bidirectional":true,"loads":[3000000000,0,0],"targets":[1000000000,1000000000,1000000000],"cost_next":1,"cost_prev":1}}' big-homogeneous.json)
if "$redist" ring plan "$f" >"$work/plan.json" && grep -q '"optimal": true' "$work/plan.json" &&
   "$redist" ring check "$f" "$work/plan.json" | grep -q '"valid": true'; then ok; else ko "auto beyond Algorithm 3's limit: $(cat "$work/plan.json")"; fi
expect_error "Algorithm 3 over its limit" 'exceed its limit of 2000000000 steps' -- ring plan -a bidirectional-homogeneous "$f"
# Times that overflow a double are refused up front, naming the cost (they printed inf or null).
f=$(write_json '{"ring":{"bidirectional":true,"loads":[3,0,0],"targets":[1,1,1],"cost_next":1e308,"cost_prev":1}}' huge-cost.json)
for a in auto light light-enforced heuristic exact bidirectional-homogeneous; do
  expect_error "cost 1e308, $a" '(at $.ring.cost_next[0])' -- ring plan -a "$a" "$f"
done
expect_error "cost 1e308, lp" '(at $.ring.cost_next[0])' -- ring plan --solver lp "$f"
expect_error "cost 1e308, bound" '(at $.ring.cost_next[0])' -- ring bound "$f"
f=$(write_json '{"ring":{"loads":[3,0,0],"targets":[1,1,1],"cost_next":[1e300,1e-300,1]}}' spread.json)
expect_error "costs 1e300 and 1e-300" '(at $.ring.cost_next[1])' -- ring plan "$f"
# Tiny and huge but representable numbers: finite, valid plans.
f=$(write_json '{"ring":{"bidirectional":true,"loads":[4611686018427387904,1,0],"targets":[1,0,4611686018427387904],"cost_next":[1e-300,2e-300,1e-300],"cost_prev":[3e-300,1e-300,1e-300]}}' tiny.json)
g=$(write_json '{"ring":{"bidirectional":true,"loads":[5,1,0,0],"targets":[1,0,2,3],"cost_next":[1e-300,2e-300,1e-300,4e-300],"cost_prev":[3e-300,1e-300,1e-300,5e-300]}}' tiny-lp.json)
for args in "$f" "-a heuristic $f" "-a light-enforced $f" "--solver lp $g" "-a light-enforced --solver lp $g"; do
  inst=${args##* }
  # shellcheck disable=SC2086
  if "$redist" ring plan $args >"$work/plan.json" && ! grep -qwE 'inf|nan|null' "$work/plan.json" &&
     "$redist" ring check "$inst" "$work/plan.json" | grep -q '"valid": true'; then ok; else ko "tiny costs, '$args': $(cat "$work/plan.json")"; fi
done
# The LP cannot solve counts near 2^62 exactly: refused, pointing to the exact solver.
expect_error "LP on counts near 2^62" '(at --solver)' -- ring plan --solver lp "$f"

# `ring check` compares every stated field and rejects unknown ones.
"$redist" ring plan "$data/examples/demo-ring.json" >"$work/plan.json"
sed 's/"makespan": [0-9.e+-]*/"makespan": -1.0/' "$work/plan.json" >"$work/bad.json"
"$redist" ring check "$data/examples/demo-ring.json" "$work/bad.json" >"$work/out" 2>&1
if [ $? -eq 1 ] && grep -q 'makespan -1 differs' "$work/out"; then ok; else ko "negative makespan: $(cat "$work/out")"; fi
sed 's/"flows": \[[-0-9,]*\]/"flows": []/' "$work/plan.json" >"$work/bad.json"
"$redist" ring check "$data/examples/demo-ring.json" "$work/bad.json" >"$work/out" 2>&1
if [ $? -eq 1 ] && grep -q 'flows has 0 entries' "$work/out"; then ok; else ko "empty flows: $(cat "$work/out")"; fi
s=$(write_json '{"transfers": [{"from": 0, "dir": "next", "start": 0, "count": 1, "perod": 2}]}' perod.json)
expect_error "misspelt run field" '(at $.transfers[0].perod)' -- ring check "$data/examples/demo-ring.json" "$s"
s=$(write_json '{"transfers": [], "makespam": 2}' makespam.json)
expect_error "unknown schedule field" '(at $.makespam)' -- ring check "$data/examples/demo-ring.json" "$s"
# Gantt charts nobody could read are not drawn; the result is printed all the same.
ones=$(printf '1,%.0s' $(seq 1000))1
printf '{"ring": {"loads": [%s], "targets": [%s], "cost_next": 1}}' "$ones" "$ones" >"$work/wide.json"
expect_no_chart "gantt of 1001 processors" 'at most 1000 processors' "$work/wide.svg" -- ring plan --gantt "$work/wide.svg" "$work/wide.json"
echo '{"transfers": []}' >"$work/empty.json"
expect_no_chart "check gantt of 1001 processors" 'at most 1000 processors' "$work/wide.svg" -- ring check --gantt "$work/wide.svg" "$work/wide.json" "$work/empty.json"
expect_error "demo of 1001 processors" '(at --instance)' -- demo --gantt "$work/wide.svg" --instance "$work/wide.json"

# --- demo --------------------------------------------------------------------------------------
if (cd "$work" && "$redist" demo >"$work/demo.txt"); then ok; else ko "demo"; fi
if grep -q 'makespan' "$work/demo.txt" && grep -q 'lower bound' "$work/demo.txt" && grep -q 'P0 -> P1' "$work/demo.txt"; then ok; else ko "demo summary"; fi
if [ -s "$work/redist-demo.svg" ]; then ok; else ko "demo gantt"; fi

# --- numbers on the command line are read strictly: never wrapped, clamped, rounded or hex ----
slice="$data/slicering/small.json"
expect_error "q beyond int64" "'9223372036854775808' is out of range (-9223372036854775808..9223372036854775807) (at --q)" -- slicering plan --q 9223372036854775808 "$slice"
expect_error "q hexadecimal" "'0x3' is not a decimal integer (at --q)" -- slicering plan --q 0x3 "$slice"
expect_error "q exponent" "'1e1' is not a decimal integer (at --q)" -- slicering plan --q 1e1 "$slice"
expect_error "seed negative" "'-5' is not a decimal integer >= 0 (at --seed)" -- experiment balance --seed -5
expect_error "policy rounds" "more than 17 significant digits: a double would round it (at --policy)" -- balance simulate "$data/balance/rrv04-8.json" --policy threshold:1.0000000000000000001
expect_error "policy subnormal" "below 2.2e-308 in magnitude a double loses precision (at --policy)" -- balance simulate "$data/balance/rrv04-8.json" --policy stable-horizon:1e-320

# --- every result states its seconds; --time-limit on the planners that search -----------------
"$redist" ring plan "$data/examples/demo-ring.json" >"$work/plan.json"
if tail -2 "$work/plan.json" | head -1 | grep -Eq '^  "seconds": [0-9.e-]+$'; then ok; else ko "plan seconds: $(tail -3 "$work/plan.json")"; fi
for command in "ring plan --format text" "ring bound --format text" "lau plan --format text"; do
  file=$data/examples/demo-ring.json
  [ "${command%% *}" = lau ] && file=$data/examples/lau-ring.json
  # shellcheck disable=SC2086
  if "$redist" $command "$file" | tail -1 | grep -Eq '^seconds +[0-9.e-]+$'; then ok; else ko "$command: no seconds line"; fi
done
if "$redist" ring check "$data/examples/demo-ring.json" "$work/plan.json" | grep -q '"seconds": '; then ok; else ko "check seconds"; fi
for bad in 0 -1 inf nan abc 1e400 0x10 ""; do
  expect_error "time limit '$bad'" '(at --time-limit)' -- ring plan --time-limit "$bad" "$data/examples/demo-ring.json"
done
expect_error "slicering time limit" '(at --time-limit)' -- slicering plan --time-limit 0 "$slice"
expect_error "star time limit" '(at --time-limit)' -- star plan --time-limit -2 "$data/examples/star-platform.json"
expect_error "exchange time limit" '(at --time-limit)' -- exchange plan --time-limit nan "$data/exchange/latency-cut.json"
expect_error "no time limit on a bound" '(at command line)' -- ring bound --time-limit 1 "$data/examples/demo-ring.json"
# A limit already passed at the search's first look at the clock: exact's best schedule, valid,
# with a note, not proven optimal (the optimum is 22).
"$redist" ring plan -a exact --time-limit 1e-9 "$data/examples/above-system6.json" >"$work/stopped.json"
if grep -q '"optimal": false' "$work/stopped.json" && grep -q 'time limit of 1e-09 s reached' "$work/stopped.json" &&
   "$redist" ring check "$data/examples/above-system6.json" "$work/stopped.json" >/dev/null; then ok; else ko "stopped exact: $(cat "$work/stopped.json")"; fi
for family_file in "slicering $slice" "star $data/examples/star-trace.json" "exchange $data/exchange/latency-cut.json"; do
  # shellcheck disable=SC2086
  set -- $family_file
  if "$redist" "$1" plan -a exact --time-limit 1e-9 "$2" >"$work/limited.json" &&
     "$redist" "$1" check "$2" "$work/limited.json" >/dev/null; then ok; else ko "$1 exact with a time limit: $(cat "$work/limited.json")"; fi
done

finish
