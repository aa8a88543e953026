#!/usr/bin/env bash
# Transcript tests of the mistakes a newcomer makes, and what the command line answers
# (docs/formats.md, "Exit codes and errors"): a mistyped command, option value or field gets the
# nearest known name; a document of another kind (another family's instance, an instance outside
# its object, a schedule where an instance goes, the files of `check` swapped) is named; a field
# of another of the family's documents is "not allowed here". Each is exit 2, nothing on stdout,
# one `error:` line naming the field or option. Also: the hint of a command that reads a terminal.
# Usage: mistakes_cli_test.sh path/to/redist path/to/data
set -u
redist=$1
data=$2
# shellcheck source=cli_test_lib.sh
source "$(dirname "$0")/cli_test_lib.sh"
ring=$data/examples/demo-ring.json
star=$data/examples/star-platform.json

# Commands and subcommands.
expect_error "mistyped family" "unknown command 'redist rign' (did you mean 'redist ring'?) (at command line)" -- rign plan "$ring"
expect_error "mistyped command" "unknown command 'redist ring paln' (did you mean 'redist ring plan'?) (at command line)" -- ring paln "$ring"
expect_error "mistyped star command" "(did you mean 'redist star order'?)" -- star oder "$star"
expect_error "unknown command" "unknown command 'redist ring frobnicate' (expected one of: plan, check, bound)" -- ring frobnicate
expect_error "no command" "'redist ring' needs a command: plan, check, bound (at command line)" -- ring
expect_error "no family" "'redist' needs a command: ring, lau, star" --
expect_error "unknown option" "unknown option '--bogus' of 'redist ring' (expected a command: plan, check, bound)" -- ring --bogus
expect_error "mistyped experiment" "unknown experiment 'slicring' (did you mean 'slicering'?)" -- experiment slicring

# Option values.
expect_error "mistyped ring algorithm" "did you mean 'light'? (at --algorithm)" -- ring plan -a ligth "$ring"
expect_error "unrelated ring algorithm" "unknown algorithm 'fastest'" -- ring plan -a fastest "$ring"
if grep -q "did you mean" "$work/err"; then ko "unrelated algorithm: a wild guess"; else ok; fi
expect_error "mistyped ring solver" "did you mean 'lp'? (at --solver)" -- ring plan --solver lpp "$ring"
expect_error "mistyped star algorithm" "did you mean 'mbbsa'? (at --algorithm)" -- star plan -a mbsa "$star"
expect_error "mistyped lau mode" "did you mean 'multi'? (at --mode)" -- lau plan --mode mutli "$data/examples/lau-ring.json"
expect_error "mistyped slicering algorithm" "did you mean 'greedy'? (at --algorithm)" -- slicering plan -a greedi "$data/slicering/small.json"
expect_error "mistyped exchange algorithm" "did you mean 'whole'? (at --algorithm)" -- exchange plan -a hole "$data/exchange/skewed-8.json"
expect_error "mistyped dlt solver" "did you mean 'fast'? (at --solver)" -- dlt plan --solver fats "$data/examples/dlt-switch.json"

# Fields.
typo=$(write_json '{"ring": {"loads": [3, 1], "cost_nxt": 1}}' typo.json)
expect_error "mistyped field" "unknown field (did you mean 'cost_next'?) (at \$.ring.cost_nxt)" -- ring plan "$typo"
flows=$(write_json '{"ring": {"loads": [3, 1], "cost_next": 1, "flows": [1, 0]}}' flows.json)
expect_error "schedule field in an instance" "not allowed here: flows belongs to a ring schedule (what \`redist ring plan\` prints) (at \$.ring.flows)" -- ring plan "$flows"
expect_error "star plan instance to star order" "not allowed here: loads belongs to the instance of \`redist star plan\`" -- star order "$star"
if grep -q "tasks each worker holds" "$work/err"; then ko "star order: describes the refused field"; else ok; fi
order=$(write_json '{"star": {"c": [1, 2], "delta": [1, -1]}}' order.json)
expect_error "star order instance to star plan" "not allowed here: delta belongs to the instance of \`redist star order\`" -- star plan "$order"
laueval=$(write_json '{"lau": {"loads": [3, 1], "flows": [1, 0]}}' laueval.json)
expect_error "lau eval instance to lau plan" "not allowed here: flows belongs to the instance of \`redist lau eval\`" -- lau plan "$laueval"

# Documents of another kind.
expect_error "star instance to ring plan" "this is a star instance, not a ring one: use \`redist star plan\` (at \$)" -- ring plan "$star"
expect_error "ring instance to exchange bound" "this is a ring instance, not an exchange one: use \`redist ring bound\`" -- exchange bound "$ring"
expect_error "ring instance to star order" "use \`redist ring plan\`" -- star order "$ring"
expect_error "ring instance to balance simulate" "this is a ring instance, not a balance one" -- balance simulate --policy never "$ring"
expect_error "star instance to lau eval" "this is a star instance, not a lau one: use \`redist star plan\`" -- lau eval "$star"
bare=$(write_json '{"loads": [3, 1], "cost_next": [1, 2]}' bare.json)
expect_error "missing wrapper" 'the fields of a ring instance must be inside {"ring": {...}} (at $)' -- ring plan "$bare"
expect_error "missing wrapper, bound" 'the fields of a ring instance must be inside {"ring": {...}}' -- ring bound "$bare"
barestar=$(write_json '{"c": [1, 2], "w": [1, 1], "loads": [2, 0]}' barestar.json)
expect_error "another family's bare fields" "these look like the fields of a star instance: put them inside {\"star\": {...}} and use \`redist star plan\`" -- ring plan "$barestar"

"$redist" ring plan "$ring" >"$work/ring-schedule.json"
"$redist" star plan "$star" >"$work/star-schedule.json"
"$redist" lau plan "$data/examples/lau-ring.json" >"$work/lau-plan.json"
expect_error "schedule to ring plan" "this is a ring schedule (what \`redist ring plan\` prints), not a ring instance (at \$)" -- ring plan "$work/ring-schedule.json"
expect_error "swapped ring check" "the first file is a schedule and the second an instance: swapped? (redist ring check INSTANCE SCHEDULE) (at command line)" -- ring check "$work/ring-schedule.json" "$ring"
expect_error "swapped star check" "swapped? (redist star check INSTANCE SCHEDULE)" -- star check "$work/star-schedule.json" "$star"
expect_error "swapped lau check" "the first file is a plan and the second an instance: swapped? (redist lau check INSTANCE PLAN)" -- lau check "$work/lau-plan.json" "$data/examples/lau-ring.json"
expect_error "instance twice to ring check" "this is a ring instance, not a ring schedule: give what \`redist ring plan\` prints (at \$)" -- ring check "$ring" "$ring"
expect_error "star schedule to ring check" "this is a star schedule (what \`redist star plan\` prints), not a ring schedule" -- ring check "$ring" "$work/star-schedule.json"
expect_error "schedule of the other family as instance" "this is a star schedule (what \`redist star plan\` prints), not a ring instance" -- ring check "$work/star-schedule.json" "$ring"

# Errors that are not about the kind of document stay as they were.
expect_error "bad load" "load must be >= 0" -- ring plan "$(write_json '{"ring": {"loads": [-1, 1], "cost_next": 1}}' neg.json)"
expect_error "malformed" "malformed JSON" -- ring check "$(write_json '{"ring": ' bad.json)" "$ring"
# The family's own object or fields with a bad value: the reader's error, never a guess at another
# family ({"ring": 3} is not a balance instance; {"ring": [0, 9]} is a SliceRing solution without alpha).
expect_error "ring object not an object" "must be an object, got an integer (at \$.ring)" -- ring plan "$(write_json '{"ring": 3}' ring3.json)"
expect_error "solution without alpha" "missing field (at \$.alpha)" -- slicering check "$data/slicering/lyon.json" "$(write_json '{"ring": [0, 9]}' sol.json)"

# A command that reads a terminal says so on stderr (and nothing when stdin is a file or a pipe).
if command -v python3 >/dev/null; then
  hint=$(python3 - "$redist" <<'PY'
import os, pty, subprocess, sys
master, slave = pty.openpty()
p = subprocess.Popen([sys.argv[1], "ring", "plan"], stdin=slave, stdout=subprocess.PIPE,
                     stderr=subprocess.PIPE)
os.close(slave)
os.write(master, b"\x04")  # Ctrl-D: the end of the (empty) input
out, err = p.communicate(timeout=60)
print(p.returncode, err.decode().replace("\n", "|"))
PY
)
  case "$hint" in
    "2 redist: reading the instance from standard input (Ctrl-D to end; give a file to read it instead)|error: "*) ok ;;
    *) ko "terminal hint: $hint" ;;
  esac
fi
STDIN=/dev/null expect_error "no hint from a file" "malformed JSON" -- ring plan

finish
