# Shared by the command-line transcript tests (cli_test.sh and the families' *_cli_test.sh):
# a scratch directory, pass/fail counters and the checks of docs/formats.md. Source it after setting
# $redist (the program under test); end the script with `finish`.
# With REDIST_TEST_SVG_DIR set, every .svg file the script leaves in its scratch directory is
# copied to $REDIST_TEST_SVG_DIR/<script name>/ on exit (its subdirectories flattened into the file
# name), for the `cli_svg_well_formed` test to parse.
work=$(mktemp -d)
svg_keep=""
if [ -n "${REDIST_TEST_SVG_DIR:-}" ]; then
  svg_keep="$REDIST_TEST_SVG_DIR/$(basename "$0" .sh)"
  rm -rf "$svg_keep" && mkdir -p "$svg_keep"
fi
keep_svgs() {
  [ -n "$svg_keep" ] || return 0
  local f rel
  while IFS= read -r -d '' f; do
    rel=${f#"$work"/}
    cp "$f" "$svg_keep/${rel//\//_}"
  done < <(find "$work" -type f -name '*.svg' -print0)
}
trap 'keep_svgs; rm -rf "$work"' EXIT
passed=0
failed=0

ok() { passed=$((passed + 1)); }
ko() { failed=$((failed + 1)); echo "FAIL: $*"; }

# expect_error NAME EXPECTED_STDERR_SUBSTRING -- ARGS... (stdin from $STDIN if set): exit 2,
# nothing on stdout, exactly one line `error: ... (at ...)` on stderr containing the substring.
expect_error() {
  local name=$1 want=$2
  shift 3
  local code
  "$redist" "$@" <"${STDIN:-/dev/null}" >"$work/out" 2>"$work/err"
  code=$?
  if [ "$code" -ne 2 ]; then ko "$name: exit $code, expected 2"; return; fi
  if [ -s "$work/out" ]; then ko "$name: stdout not empty"; return; fi
  if [ "$(wc -l <"$work/err")" -ne 1 ]; then ko "$name: stderr has $(wc -l <"$work/err") lines"; return; fi
  if ! grep -q '^error: .* (at .*)$' "$work/err"; then ko "$name: bad error line: $(cat "$work/err")"; return; fi
  if ! grep -qF -- "$want" "$work/err"; then ko "$name: '$want' not in: $(cat "$work/err")"; return; fi
  ok
}

# expect_no_chart NAME EXPECTED_WARNING_SUBSTRING SVG -- ARGS...: a chart over its size limits is
# not drawn but the command prints its result: exit 0 (or 1, an invalid schedule's verdict),
# something on stdout, exactly one line `warning: no chart written to SVG: ...` on stderr
# containing the substring, and no SVG file.
expect_no_chart() {
  local name=$1 want=$2 svg=$3
  shift 4
  rm -f "$svg"
  "$redist" "$@" <"${STDIN:-/dev/null}" >"$work/out" 2>"$work/err"
  local code=$?
  if [ "$code" -gt 1 ]; then ko "$name: exit $code: $(cat "$work/err")"; return; fi
  if [ ! -s "$work/out" ]; then ko "$name: no result printed"; return; fi
  if [ "$(wc -l <"$work/err")" -ne 1 ]; then ko "$name: stderr has $(wc -l <"$work/err") lines"; return; fi
  if ! grep -qF -- "warning: no chart written to $svg: " "$work/err"; then ko "$name: bad warning: $(cat "$work/err")"; return; fi
  if ! grep -qF -- "$want" "$work/err"; then ko "$name: '$want' not in: $(cat "$work/err")"; return; fi
  if [ -e "$svg" ]; then ko "$name: $svg written"; return; fi
  ok
}

# expect_output NAME SUBSTRING... -- ARGS...: exit 0 and every substring in the output.
expect_output() {
  local name=$1
  shift
  local wants=()
  while [ "$1" != "--" ]; do wants+=("$1"); shift; done
  shift
  "$redist" "$@" <"${STDIN:-/dev/null}" >"$work/out" 2>"$work/err"
  local code=$?
  if [ "$code" -ne 0 ]; then ko "$name: exit $code: $(cat "$work/err")"; return; fi
  for w in "${wants[@]}"; do
    if ! grep -qF -- "$w" "$work/out"; then ko "$name: '$w' not in: $(cat "$work/out")"; return; fi
  done
  ok
}

# well_formed FILE: FILE exists and parses as XML with an <svg> root (python3's xml.etree; without
# python3, that it ends with </svg>).
well_formed() {
  [ -s "$1" ] || return 1
  if command -v python3 >/dev/null; then
    python3 -c 'import sys, xml.etree.ElementTree as E; r = E.parse(sys.argv[1]).getroot(); sys.exit(r.tag != "{http://www.w3.org/2000/svg}svg")' "$1" 2>/dev/null
  else
    tail -c 7 "$1" | grep -q '</svg>'
  fi
}

# write_json CONTENT NAME: writes $work/NAME and prints its path.
write_json() { printf '%s' "$1" >"$work/$2"; echo "$work/$2"; }

# The closing line ("N passed, N failed") and the script's exit status.
finish() {
  echo "$passed passed, $failed failed"
  [ "$failed" -eq 0 ]
}

# outlined FILE: what the red outlines of a `check --gantt` picture (class "conflict", legends
# left out) mark, one line each: the hover text of the bar an outline belongs to (Gantt charts),
# else the texts whose anchor lies inside the outline (a node's label, a ring member's name).
outlined() {
  python3 - "$1" <<'PY'
import sys, xml.etree.ElementTree as E
ns = "{http://www.w3.org/2000/svg}"
root = E.parse(sys.argv[1]).getroot()
parent = {c: p for p in root.iter() for c in p}
texts = [t for t in root.iter(ns + "text")]
def box(e):
    f = lambda k: float(e.get(k, 0))
    if e.tag == ns + "circle":
        return f("cx") - f("r"), f("cy") - f("r"), f("cx") + f("r"), f("cy") + f("r")
    return f("x"), f("y"), f("x") + f("width"), f("y") + f("height")
for e in root.iter():
    if "conflict" not in e.get("class", "").split() or "legend" in parent[e].get("class", ""):
        continue
    title = parent[e].find(ns + "title")
    if title is not None:
        print(title.text)
        continue
    x0, y0, x1, y1 = box(e)
    inside = [t.text for t in texts if x0 <= float(t.get("x", -1)) <= x1 and y0 <= float(t.get("y", -1)) <= y1]
    if inside:
        print(" ".join(inside))
PY
}
