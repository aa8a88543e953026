#!/usr/bin/env bash
# Transcript tests of `redist slicering` (docs/formats.md, docs/slicering.md): plan -> check round trips on the SLICE
# platforms, tsp == exact with all processors, homogeneous == exact on a homogeneous network, and
# input errors (exit 2, one `error: ... (at <JSON path>)` line, nothing on standard output).
# Usage: slicering_cli_test.sh path/to/redist path/to/data
set -u
redist=$1
data=$2
# shellcheck source=cli_test_lib.sh
source "$(dirname "$0")/cli_test_lib.sh"
# The value of a top-level numeric member of a JSON output.
field() { sed -n "s/^  \"$1\": \([-0-9.eE+]*\),\{0,1\}\$/\1/p" "$2"; }
# same A B: relative difference <= 1e-9.
same() { awk -v a="$1" -v b="$2" 'BEGIN { d = a - b; if (d < 0) d = -d; m = (a < 0 ? -a : a); exit !(a != "" && d <= 1e-9 * m) }'; }

# --- plan -> check on every platform and algorithm --------------------------------------------
for platform in lyon strasbourg small; do
  for algorithm in greedy tsp exact; do
    if "$redist" slicering plan -a "$algorithm" "$data/slicering/$platform.json" >"$work/plan.json"; then ok; else ko "plan $algorithm $platform"; continue; fi
    if grep -q "\"algorithm\": \"$algorithm\"" "$work/plan.json"; then ok; else ko "algorithm name $algorithm"; fi
    "$redist" slicering check "$data/slicering/$platform.json" "$work/plan.json" >"$work/check.json"
    if grep -q '"valid": true' "$work/check.json"; then ok; else ko "check $algorithm $platform: $(cat "$work/check.json")"; fi
    cp "$work/plan.json" "$work/$algorithm-$platform.json"
  done
  # tsp uses all processors, as exact does with --q p; LKH found the optimum in the paper, so must we.
  p=$(grep -o '"w": \[[^]]*\]' "$data/slicering/$platform.json" | tr ',' '\n' | wc -l)
  "$redist" slicering plan -a exact --q "$p" "$data/slicering/$platform.json" >"$work/exact-all.json"
  if same "$(field t_step "$work/tsp-$platform.json")" "$(field t_step "$work/exact-all.json")"; then ok; else ko "tsp != exact --q $p on $platform"; fi
  # exact is optimal over all q: never above greedy.
  if awk -v e="$(field t_step "$work/exact-$platform.json")" -v g="$(field t_step "$work/greedy-$platform.json")" 'BEGIN { exit !(e <= g * (1 + 1e-12)) }'; then ok; else ko "exact above greedy on $platform"; fi
  if grep -q '"optimal": true' "$work/exact-$platform.json"; then ok; else ko "exact not optimal on $platform"; fi
done

# --- the default, auto: exact when p <= 16 (proven, gap 0), else greedy or tsp with a bound -----
for platform in lyon strasbourg small; do
  "$redist" slicering plan "$data/slicering/$platform.json" >"$work/auto.json"
  if grep -q '"algorithm": "exact"' "$work/auto.json" && grep -q '"optimal": true' "$work/auto.json" && grep -q '"gap": 0.0,' "$work/auto.json"; then ok; else ko "auto on $platform: $(cat "$work/auto.json")"; fi
  if same "$(field t_step "$work/auto.json")" "$(field t_step "$work/exact-$platform.json")"; then ok; else ko "auto != exact on $platform"; fi
  if "$redist" slicering check "$data/slicering/$platform.json" "$work/auto.json" >/dev/null; then ok; else ko "auto on $platform rejected by check"; fi
done
# 17 processors (above the exact limit): greedy or tsp, a lower bound, accepted by check.
big=$(awk 'BEGIN { p = 17; srand(3); printf "{\"cluster\": {\"W\": 1000, \"H\": 1, \"w\": [";
  for (i = 0; i < p; i++) printf "%s%.3f", (i ? ", " : ""), 0.5 + 4.5 * rand(); printf "], \"c\": [";
  for (i = 0; i < p; i++) { printf "%s[", (i ? ", " : ""); for (j = 0; j < p; j++) printf "%s%.3f", (j ? ", " : ""), (i == j ? 0 : 0.1 + 9.9 * rand()); printf "]" }
  print "]}}" }')
f=$(write_json "$big" big.json)
"$redist" slicering plan "$f" >"$work/auto.json"
if grep -qE '"algorithm": "(greedy|tsp)"' "$work/auto.json" && [ -n "$(field lower_bound "$work/auto.json")" ] && grep -q 'auto: ' "$work/auto.json"; then ok; else ko "auto on p = 17: $(cat "$work/auto.json")"; fi
if "$redist" slicering check "$f" "$work/auto.json" >/dev/null; then ok; else ko "auto on p = 17 rejected by check"; fi
# The help lists every algorithm and the default.
"$redist" slicering plan --help >"$work/help.txt"
for algorithm in homogeneous greedy tsp exact; do
  if grep -q "$algorithm:" "$work/help.txt"; then ok; else ko "help lacks $algorithm"; fi
done
if grep -q 'auto: .*(the default)' "$work/help.txt"; then ok; else ko "help lacks the default: $(cat "$work/help.txt")"; fi

# The small cluster from standard input, forced ring sizes.
for q in 1 2 3 4; do
  "$redist" slicering plan -a exact --q "$q" - <"$data/slicering/small.json" >"$work/plan.json"
  n=$(grep -o '"ring": \[[^]]*\]' "$work/plan.json" | tr ',' '\n' | wc -l)
  if [ "$n" -eq "$q" ]; then ok; else ko "exact --q $q gave $n processors"; fi
  "$redist" slicering plan -a greedy --q "$q" "$data/slicering/small.json" >"$work/plan.json"
  if "$redist" slicering check "$data/slicering/small.json" "$work/plan.json" >/dev/null; then ok; else ko "greedy --q $q invalid"; fi
done

# Homogeneous network: Proposition 1 equals the exact optimum.
f=$(write_json '{"cluster": {"w": [1, 2, 3, 0.5], "c": [[0, 0.3, 0.3, 0.3], [0.3, 0, 0.3, 0.3], [0.3, 0.3, 0, 0.3], [0.3, 0.3, 0.3, 0]], "W": 10, "H": 1}}' homogeneous.json)
"$redist" slicering plan -a homogeneous "$f" >"$work/h.json"
"$redist" slicering plan -a exact "$f" >"$work/e.json"
if same "$(field t_step "$work/h.json")" "$(field t_step "$work/e.json")"; then ok; else ko "homogeneous != exact"; fi

# A tampered solution is invalid: exit 1 with a reason.
sed 's/"t_step": [0-9.eE+-]*/"t_step": 1234.5/' "$work/greedy-small.json" >"$work/bad.json"
"$redist" slicering check "$data/slicering/small.json" "$work/bad.json" >"$work/out" 2>"$work/err"
code=$?
if [ "$code" -eq 1 ] && grep -q '"valid": false' "$work/out" && grep -q '"reason"' "$work/out"; then ok; else ko "tampered t_step: exit $code $(cat "$work/out")"; fi
f=$(write_json '{"ring": [0, 0], "alpha": [0.5, 0.5]}' dup.json)
"$redist" slicering check "$data/slicering/small.json" "$f" >"$work/out"
if [ $? -eq 1 ] && grep -q 'twice' "$work/out"; then ok; else ko "duplicate processor: $(cat "$work/out")"; fi

# --- --gantt: the chosen ring of a plan, and of a checked solution, valid or not ----------------
for platform in small lyon; do
  if "$redist" slicering plan -a exact --gantt "$work/$platform.svg" "$data/slicering/$platform.json" >"$work/plan.json" &&
    well_formed "$work/$platform.svg" && grep -qF 'exact: makespan (T_step)' "$work/$platform.svg" &&
    grep -qF 'optimal: yes' "$work/$platform.svg"; then ok; else ko "plan --gantt $platform"; fi
  if "$redist" slicering check --gantt "$work/check-$platform.svg" "$data/slicering/$platform.json" "$work/plan.json" >/dev/null &&
    well_formed "$work/check-$platform.svg" && grep -qF 'redist slicering check' "$work/check-$platform.svg"; then ok; else
    ko "check --gantt $platform"; fi
done
"$redist" slicering plan -a greedy --q 2 --gantt "$work/q2.svg" "$data/slicering/small.json" >/dev/null
if well_formed "$work/q2.svg" && grep -qF 'q = 2 of 4' "$work/q2.svg" && grep -qF 'not in the ring (2 processors' "$work/q2.svg"; then ok; else
  ko "plan --q 2 --gantt"; fi
# An invalid solution is drawn with the validator's first violation in red: its reason under the
# title and the ring members it names (the typed verdict's entries) outlined; a ring that cannot be
# drawn is left out with a note.
invalid_picture() {  # NAME SOLUTION_FILE REASON OUTLINED_MEMBERS
  local svg="$work/invalid-$1.svg" got code
  "$redist" slicering check --gantt "$svg" "$data/slicering/small.json" "$2" >/dev/null 2>&1
  code=$?
  got=$(outlined "$svg" 2>/dev/null | cut -d' ' -f1 | tr '\n' ' ')
  if [ $code -eq 1 ] && well_formed "$svg" && grep -qF ">invalid: $3" "$svg" && [ "$got" = "$4" ]; then
    ok; else ko "check --gantt $1: exit $code, outlined '$got'"; fi
}
invalid_picture claim "$work/bad.json" 't_step is 1234.5 but the ring and shares give' ''
if grep -qF '<circle class="node' "$work/invalid-claim.svg"; then ok; else ko "claim: the ring is not drawn"; fi
invalid_picture twice "$(write_json '{"ring": [2, 0, 2], "alpha": [0.3, 0.4, 0.3]}' twice.json)" \
  'processor 2 appears twice in the ring' 'P2 P2 '
invalid_picture share "$(write_json '{"ring": [1, 3, 0], "alpha": [0.5, -0.25, 0.75]}' share.json)" \
  'alpha[1] = -0.25 is not a finite share' 'P3 '
invalid_picture unknown "$(write_json '{"ring": [1, 7], "alpha": [0.5, 0.5]}' unknown.json)" \
  'ring[1] = 7 is not a processor (p = 4)' ''
if grep -qF 'the ring is not drawn: a ring member is no processor of the cluster' "$work/invalid-unknown.svg"; then ok; else
  ko "unknown processor: no note"; fi
# 501 processors (a homogeneous network, so that the cluster itself is cheap to write).
wide=$(python3 -c 'import json; p = 501; print(json.dumps({"cluster": {"w": [1] * p, "c": [[0 if i == j else 1 for j in range(p)] for i in range(p)], "W": 1000, "H": 1}}))' 2>/dev/null)
if [ -n "$wide" ]; then
  expect_no_chart "gantt of 501 processors" 'at most 500 processors with 60 in the ring' "$work/wide.svg" -- \
    slicering plan --gantt "$work/wide.svg" "$(write_json "$wide" wide.json)"
  if [ ! -e "$work/wide.svg" ]; then ok; else ko "wide picture written"; fi
fi
many=$(python3 -c 'import json; p = 61; print(json.dumps({"cluster": {"w": [1] * p, "c": [[0 if i == j else 1 for j in range(p)] for i in range(p)], "W": 1000, "H": 1}}))' 2>/dev/null)
if [ -n "$many" ]; then
  expect_no_chart "gantt of a ring of 61" '61 in the ring' "$work/many.svg" -- \
    slicering plan -a homogeneous --q 61 --gantt "$work/many.svg" "$(write_json "$many" many.json)"
fi
expect_error "gantt unwritable" '(at --gantt)' -- slicering plan --gantt "$work/no/such/dir/x.svg" "$data/slicering/small.json"

# --- bad input: exit 2, one error line naming the JSON path -----------------------------------
ok_c='"c": [[0, 1], [1, 0]]'
f=$(write_json '{"cluster": {"w": [1, 1], "c": [[0, 1]], "W": 1, "H": 1}}' rows.json)
expect_error "not square" '(at $.cluster.c)' -- slicering plan "$f"
f=$(write_json '{"cluster": {"w": [1, 1], "c": [[0, 1], [1]], "W": 1, "H": 1}}' ragged.json)
expect_error "ragged" '(at $.cluster.c[1])' -- slicering plan "$f"
f=$(write_json '{"cluster": {"w": [1, 1, 1], "c": [[0, 1, 1], [1, 0, 1], [1, 2, 0]], "W": 1, "H": 1}}' c21.json)
sed -i 's/\[1, 2, 0\]/[1, -2, 0]/' "$f"
expect_error "negative c" '(at $.cluster.c[2][1])' -- slicering plan "$f"
f=$(write_json "{\"cluster\": {\"w\": [1, 0], $ok_c, \"W\": 1, \"H\": 1}}" w0.json)
expect_error "zero w" '(at $.cluster.w[1])' -- slicering plan "$f"
f=$(write_json "{\"cluster\": {\"w\": [1, -1], $ok_c, \"W\": 1, \"H\": 1}}" wneg.json)
expect_error "negative w" '(at $.cluster.w[1])' -- slicering plan "$f"
f=$(write_json "{\"cluster\": {\"w\": [1, 1], $ok_c, \"W\": 0, \"H\": 1}}" W0.json)
expect_error "zero W" '(at $.cluster.W)' -- slicering plan "$f"
f=$(write_json "{\"cluster\": {\"w\": [1, 1], $ok_c, \"W\": 1, \"H\": -3}}" Hneg.json)
expect_error "negative H" '(at $.cluster.H)' -- slicering plan "$f"
f=$(write_json "{\"cluster\": {\"w\": [1, NaN], $ok_c, \"W\": 1, \"H\": 1}}" nan.json)
expect_error "NaN" 'malformed JSON' -- slicering plan "$f"
f=$(write_json "{\"cluster\": {\"w\": [1, 1e999], $ok_c, \"W\": 1, \"H\": 1}}" huge.json)
expect_error "1e999" '$.cluster.w[1]' -- slicering plan "$f"
f=$(write_json "{\"cluster\": {\"w\": [1, \"2\"], $ok_c, \"W\": 1, \"H\": 1}}" str.json)
expect_error "string w" '(at $.cluster.w[1])' -- slicering plan "$f"
f=$(write_json "{\"cluster\": {\"w\": [1, 1], $ok_c, \"W\": 1}}" noH.json)
expect_error "missing H" '(at $.cluster.H)' -- slicering plan "$f"
f=$(write_json "{\"cluster\": {\"w\": [1, 1], $ok_c, \"W\": 1, \"H\": 1, \"cc\": 2}}" typo.json)
expect_error "unknown field" '(at $.cluster.cc)' -- slicering plan "$f"
f=$(write_json '{"cluster": {"w": [], "c": [], "W": 1, "H": 1}}' empty.json)
expect_error "no processor" '(at $.cluster.w)' -- slicering plan "$f"
expect_error "unknown algorithm" '(at --algorithm)' -- slicering plan -a lkh "$data/slicering/small.json"
expect_error "q too large" '(at --q)' -- slicering plan -a greedy --q 5 "$data/slicering/small.json"
expect_error "q zero" '(at --q)' -- slicering plan -a exact --q 0 "$data/slicering/small.json"
expect_error "tsp with fewer" '(at --q)' -- slicering plan -a tsp --q 2 "$data/slicering/small.json"
expect_error "homogeneous on heterogeneous" '(at $.cluster.c)' -- slicering plan -a homogeneous "$data/slicering/small.json"
big=$(awk 'BEGIN { n = 21; printf "{\"cluster\": {\"w\": ["; for (i = 0; i < n; i++) printf "%s1", (i ? "," : ""); printf "], \"c\": ["; for (i = 0; i < n; i++) { printf "%s[", (i ? "," : ""); for (j = 0; j < n; j++) printf "%s1", (j ? "," : ""); printf "]" } printf "], \"W\": 1, \"H\": 1}}" }')
f=$(write_json "$big" big.json)
expect_error "exact too large" 'at most 20 processors' -- slicering plan -a exact "$f"
f=$(write_json '{"ring": [0, 1.5], "alpha": [0.5, 0.5]}' badring.json)
expect_error "non-integer ring" '(at $.ring[1])' -- slicering check "$data/slicering/small.json" "$f"
f=$(write_json '{"ring": [0, 1], "alpha": "x"}' badalpha.json)
expect_error "alpha not an array" '(at $.alpha)' -- slicering check "$data/slicering/small.json" "$f"

# --- extreme values, claims and strict checks --------------------------------------------------
# Every candidate time of greedy was infinite (H c overflows): heap overflow, exit 134. Now refused.
f=$(write_json '{"cluster":{"w":[1,1,2],"c":[[0,1,1],[1,0,1],[1,1,0]],"W":1,"H":1e308}}' hinf.json)
for algorithm in auto greedy tsp exact homogeneous; do
  expect_error "H c overflows ($algorithm)" 'overflows a double' -- slicering plan -a "$algorithm" "$f"
done
expect_error "H c overflows (check)" '(at $.cluster.c[0][1])' -- slicering check "$f" "$work/greedy-small.json"
f=$(write_json '{"cluster":{"w":[1e-307,1e-307],"c":[[0,1],[1,0]],"W":1,"H":1}}' winv.json)
expect_error "sum of 1/w overflows" '(at $.cluster.w[1])' -- slicering plan "$f"
f=$(write_json '{"cluster":{"w":[1e-300,1],"c":[[0,1],[1,0]],"W":1e-10,"H":1}}' wunder.json)
expect_error "W w underflows" '(at $.cluster.w[0])' -- slicering plan -a exact "$f"
f=$(write_json '{"cluster":{"w":[1e-200,1],"c":[[0,1e200],[1e200,0]],"W":1e200,"H":1}}' tour.json)
expect_error "tour cost overflows" '(at $.cluster.c[0][1])' -- slicering plan -a tsp "$f"
# Large but representable: every number finite, and the plan checks.
f=$(write_json '{"cluster":{"w":[1e300,2e300],"c":[[0,1e300],[1e300,0]],"W":10,"H":1e-300}}' far.json)
for algorithm in auto greedy tsp exact; do
  "$redist" slicering plan -a "$algorithm" "$f" >"$work/far-plan.json"
  if ! grep -qiE 'null|inf|nan' "$work/far-plan.json" && "$redist" slicering check "$f" "$work/far-plan.json" >/dev/null; then ok; else ko "far $algorithm: $(cat "$work/far-plan.json")"; fi
done

# tsp puts every processor on the ring; one processor alone is faster here (T 1 vs 7/3), so the
# full ring is not optimal over every ring size, only over rings of all three (--q 3).
f=$(write_json '{"cluster":{"w":[1,1,1],"c":[[0,1,1],[1,0,1],[1,1,0]],"W":1,"H":1}}' small-wins.json)
expect_output "tsp does not claim beyond its bound" '"optimal": false' -- slicering plan -a tsp "$f"
expect_output "tsp --q p claims over full rings" '"optimal": true' -- slicering plan -a tsp --q 3 "$f"
expect_output "exact finds the single processor" '"ring": [' '"t_step": 1.0' -- slicering plan -a exact "$f"

# check compares makespan too, and refuses members plan never writes.
sed 's/"makespan": [0-9.eE+-]*/"makespan": 1234.5/' "$work/greedy-small.json" >"$work/bad.json"
"$redist" slicering check "$data/slicering/small.json" "$work/bad.json" >"$work/out" 2>"$work/err"
if [ $? -eq 1 ] && grep -q 'makespan is 1234.5' "$work/out"; then ok; else ko "tampered makespan: $(cat "$work/out")"; fi
sed 's/"t_step": \([0-9.eE+-]*\)/"t_step": \1, "lower_bound": 1e9/' "$work/greedy-small.json" >"$work/bad.json"
"$redist" slicering check "$data/slicering/small.json" "$work/bad.json" >"$work/out"
if [ $? -eq 1 ] && grep -q 'lower_bound' "$work/out"; then ok; else ko "lower_bound above t_step: $(cat "$work/out")"; fi
sed 's/"t_step"/"t_stpe"/' "$work/greedy-small.json" >"$work/bad.json"
expect_error "unknown solution field" '(at $.t_stpe)' -- slicering check "$data/slicering/small.json" "$work/bad.json"
for algorithm in greedy tsp exact; do
  if "$redist" slicering check "$data/slicering/small.json" "$work/$algorithm-small.json" >/dev/null; then ok; else ko "plan output of $algorithm rejected by check"; fi
done
f=$(write_json '{"cluster": {"w": [1], "c": [[0]], "W": 1, "H": 1}, "clusterr": 1}' toplevel.json)
expect_error "unknown top-level field" '(at $.clusterr)' -- slicering plan "$f"

finish
