#!/bin/bash
# Transcript tests of redist-platform (docs/ring-sim.md): the summary, the files it writes, and
# its refusals: exit 2, nothing on standard output, one line `error: ... (at <where>)`.
# platform_cli_test.sh REDIST_PLATFORM CLI_TEST_LIB DRAWING: CLI_TEST_LIB is
# apps/redist/cli_test_lib.sh, DRAWING the default platform's drawing shown in docs/ring-sim.md.
redist=$1 drawing=$3
# shellcheck source=../apps/redist/cli_test_lib.sh
. "$2"

expect_output defaults '"total": 185' '"total": 192' '"hosts": 88' '"diameter_hops": 21' \
  '"man-wan": 10' '"tiers": "1 5 5 10 10 5 2 1 1 2 1"' '"seed": 2' --
expect_output other_seed '"total": 193' '"seed": 1' -- --seed 1
expect_output wan_only '"total": 30' '"hosts": 0' -- --tiers "1 0 0 30 0 0 3 1 1 1 1"
expect_output all_hosts '"hosts": 125' -- --host-probability 1
expect_output files '"total": 185' -- --platform "$work/p.xml" --svg "$work/p.svg"
if grep -q 'routing="Floyd"' "$work/p.xml" && grep -q '</svg>' "$work/p.svg"; then ok; else
  ko "files: platform or drawing missing"
fi
# The same options give the same bytes.
"$redist" --platform "$work/q.xml" --svg "$work/q.svg" >/dev/null
if cmp -s "$work/p.xml" "$work/q.xml" && cmp -s "$work/p.svg" "$work/q.svg"; then ok; else
  ko "determinism: two runs differ"
fi
# The drawing in the documentation is the default platform's, with the ring of 8 hosts circled.
"$redist" --ring 8 --svg "$work/ring8.svg" >/dev/null
if cmp -s "$work/ring8.svg" "$drawing"; then ok; else
  ko "$drawing is not the default platform's drawing: redist-platform --ring 8 --svg $drawing"
fi
if [ "$(grep -c 'stroke="#000" stroke-width="2.2"' "$work/ring8.svg")" = 8 ]; then ok; else
  ko "ring8: the 8 ring hosts are not circled"
fi
expect_error ring_too_large "a ring needs 2..88 hosts (the platform's), got 89 (at --ring)" -- \
  --ring 89 --svg "$work/r.svg"

expect_error nw "NW must be 1 (Tiers builds a single WAN), got 2 (at --tiers)" -- \
  --tiers "2 5 5 10 10 5 2 1 1 2 1"
expect_error count "needs 11 integers" -- --tiers "1 5 5"
expect_error not_integer "'x' is not an integer (at --tiers)" -- --tiers "1 5 5 10 10 5 2 1 1 2 x"
expect_error too_many_nodes "the platform would have 1010010 nodes, over the limit of 10000" -- \
  --tiers "1 1000 100 10 10 10 2 1 1 2 1"
expect_error network_size "SW (nodes per WAN) must be in 1..1000" -- \
  --tiers "1 0 0 1000000000 0 0 1 1 1 1 1"
expect_error redundancy "RW (redundancy inside the WAN) must be in 0..10" -- \
  --tiers "1 5 5 10 10 5 1000 1 1 2 1"
expect_error attachments "RMW (edges from a MAN to the WAN) must be in 1..10" -- \
  --tiers "1 5 5 10 10 5 2 1 1 0 1"
expect_error probability "must be in [0, 1], got 1.5 (at --host-probability)" -- \
  --host-probability 1.5
expect_error probability_nan "(at --host-probability)" -- --host-probability nan
expect_error negative_seed "'-1' is not an integer in 0..2^64-1 (at --seed)" -- --seed -1
expect_error seed_overflow "is not an integer in 0..2^64-1 (at --seed)" -- \
  --seed 18446744073709551616
expect_output largest_seed '"seed": 18446744073709551615' -- --seed 18446744073709551615
expect_error unknown_option "(at command line)" -- --nodes 10
expect_error unwritable "cannot write file" -- --platform /nonexistent/dir/p.xml
expect_error unwritable_svg "(at --svg)" -- --svg /nonexistent/dir/p.svg
finish
