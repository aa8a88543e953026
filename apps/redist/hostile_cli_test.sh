#!/usr/bin/env bash
# Transcript tests of what every command does with hostile documents, whatever the family: deep
# nesting, duplicate keys, keys holding control characters, oversized keys, and an output that
# cannot be written. Each gets exit 2 and one short `error:` line, never a crash or a hang.
# Usage: hostile_cli_test.sh path/to/redist
set -u
redist=$1
# shellcheck source=cli_test_lib.sh
source "$(dirname "$0")/cli_test_lib.sh"

ring='{"ring": {"loads": [3, 1], "targets": [2, 2], "cost_next": 1}}'
lau='{"lau": {"loads": [3, 1]}}'
star='{"star": {"c": [1, 1], "w": [1, 1], "loads": [2, 0]}}'
dlt='{"dlt": {"b": [1, 1], "s": [1, 1], "alpha": [2, 0]}}'
cluster='{"cluster": {"w": [1, 2], "c": [[0, 1], [1, 0]], "W": 10, "H": 1}}'
commands=("ring plan" "ring bound" "lau plan" "star plan" "dlt plan" "slicering plan")
documents=("$ring" "$ring" "$lau" "$star" "$dlt" "$cluster")

# A 400 KB unterminated nesting: refused at the depth limit, with a short path.
head -c 400000 /dev/zero | tr '\0' '[' >"$work/deep.json"
for command in "${commands[@]}"; do
  # shellcheck disable=SC2086
  expect_error "deep nesting: $command" "nested deeper than 64 levels" -- $command "$work/deep.json"
  if [ "$(wc -c <"$work/err")" -lt 400 ]; then ok; else ko "deep nesting: long error line"; fi
done

# A NUL byte ends nothing: the document after it is not silently ignored.
for k in "${!commands[@]}"; do
  printf '%s\0{"x":' "${documents[$k]}" >"$work/nul.json"
  # shellcheck disable=SC2086
  expect_error "NUL byte: ${commands[$k]}" "NUL byte at offset" -- ${commands[$k]} "$work/nul.json"
done

for k in "${!commands[@]}"; do
  command=${commands[$k]}
  document=${documents[$k]}
  family=${document:2}
  family=${family%%\"*}
  # A duplicate key anywhere is an error, not a silent choice of one value.
  dup="{\"$family\": ${document#*: }"
  dup="${dup%\}}, \"$family\": {}}"
  # shellcheck disable=SC2086
  STDIN=$(write_json "$dup" dup.json) expect_error "duplicate key: $command" "duplicate key (at \$.$family)" -- $command
  # An unknown key holding a newline stays on one line, escaped.
  bad="{\"$family\": ${document#*: }"
  bad="${bad%\}}, \"x\\ny\": 1}"
  # shellcheck disable=SC2086
  STDIN=$(write_json "$bad" newline.json) expect_error "newline in key: $command" 'unknown field (at $["x\\ny"])' -- $command
  # A key of 1 MB is cut in the error line.
  head -c 1000000 /dev/zero | tr '\0' 'k' >"$work/key"
  printf '{"%s": 1, %s' "$(cat "$work/key")" "${document:1}" >"$work/long.json"
  # shellcheck disable=SC2086
  expect_error "long key: $command" "unknown field" -- $command "$work/long.json"
  if [ "$(wc -c <"$work/err")" -lt 400 ]; then ok; else ko "long key: $command: long error line"; fi
  # A failed write of the output is an error, not a success.
  if [ -w /dev/full ]; then
    printf '%s' "$document" >"$work/in.json"
    # shellcheck disable=SC2086
    "$redist" $command "$work/in.json" >/dev/full 2>"$work/err"
    code=$?
    if [ "$code" -eq 2 ] && grep -q '^error: cannot write the output (at standard output)$' "$work/err"; then
      ok
    else
      ko "/dev/full: $command: exit $code: $(cat "$work/err")"
    fi
  fi
done

# A duplicated array in a schedule is refused, not concatenated.
printf '%s' "$ring" >"$work/ring.json"
"$redist" ring plan "$work/ring.json" >"$work/plan.json"
sed 's/"transfers": \[/"transfers": [], "transfers": [/' "$work/plan.json" >"$work/twice.json"
expect_error "duplicate transfers" 'duplicate key (at $.transfers)' -- ring check "$work/ring.json" "$work/twice.json"

# A command-line value holding a newline stays on one line.
expect_error "newline in option" "unknown solver" -- ring plan "$work/ring.json" --solver "$(printf 'a\nb')"

finish
