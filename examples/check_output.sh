#!/usr/bin/env bash
# Runs an example and compares its standard output, byte for byte, with the expected text
# (the ctest entries example_*, examples/CMakeLists.txt).
# Usage: check_output.sh EXPECTED.out COMMAND [ARGS...]
# Passes when COMMAND exits 0 and prints exactly EXPECTED.out; otherwise shows the exit status,
# the unified diff (expected, then actual) and the command's standard error.
# OpenMPI's bundled libevent may print "[warn] Epoll ..." lines when ranks exit together on a
# loaded machine: the runtime's words, not the example's, so they are left out.
set -uo pipefail
expected=$1
shift
out=$(mktemp) err=$(mktemp) filtered=$(mktemp)
trap 'rm -f "$out" "$err" "$filtered"' EXIT
"$@" >"$out" 2>"$err"
rc=$?
grep -v '^\[warn\] Epoll ' "$out" >"$filtered"
status=0
if [ $rc -ne 0 ]; then
  echo "FAIL: exit status $rc"
  status=1
fi
if ! diff -u --label expected --label actual "$expected" "$filtered"; then
  echo "FAIL: output differs from $expected"
  status=1
fi
if [ $status -ne 0 ]; then
  if [ -s "$err" ]; then echo "--- standard error:"; cat "$err"; fi
  exit 1
fi
cat "$filtered"
echo "PASS"
