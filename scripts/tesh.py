#!/usr/bin/env python3
"""Runs transcript files in the manner of SimGrid's tesh: each command is followed by the output
it must print, so a transcript is both documentation and a test.

    # a comment
    $ redist lau plan --format text data/examples/lau-ring.json
    > redist lau plan: ring of 8 nodes
    > ...
    ! expect return 2
    $ redist lau plan --format yaml data/examples/lau-ring.json

`$` lines are commands, split like a shell would (no pipes or redirections); a leading `redist`
is the program under test. `>` lines are the command's standard output, all of it, byte for
byte, except that `<number>` in an expected line matches any number (`12`, `0.000431`, `-1.5`,
`2e-05`): the wall time every result states (`"seconds": <number>` in a JSON document, the last
line `seconds     <number>` of a text summary) differs from run to run. `! expect return N`
sets the exit status the next command must end with (0 otherwise). Commands run in SOURCE_DIR,
so that bundled files are found by their relative paths.

Usage: tesh.py [--update] REDIST SOURCE_DIR TRANSCRIPT...
Prints a unified diff for each failing command and exits 1 when one fails. With --update, writes
each command's actual output into the transcript instead (then read the diff before committing),
with `<number>` in place of the seconds of each result, and keeping every expected line that
still matches (so placeholders written by hand stay).
"""
import difflib
import re
import shlex
import subprocess
import sys

PLACEHOLDER = "<number>"
NUMBER = r"-?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?"
# The seconds of a result: a JSON document's member, or a text summary's line.
SECONDS = re.compile(r'^(  "seconds": |seconds +)' + NUMBER + r"$")


def matches(expected, actual):
    """Whether an actual output line is the expected one, `<number>` matching any number."""
    if PLACEHOLDER not in expected:
        return expected == actual
    pattern = NUMBER.join(re.escape(part) for part in expected.split(PLACEHOLDER))
    return re.fullmatch(pattern, actual) is not None


def same_output(expected, actual):
    return len(expected) == len(actual) and all(map(matches, expected, actual))


def with_placeholders(actual, previous):
    """The lines `--update` writes: the previous expected line where it still matches, the
    seconds of a result as `<number>`, anything else as printed."""
    out = []
    for k, line in enumerate(actual):
        if k < len(previous) and matches(previous[k], line):
            out.append(previous[k])
        else:
            out.append(SECONDS.sub(lambda m: m.group(1) + PLACEHOLDER, line))
    return out


def parse(path):
    """Yields (line number, argv, expected stdout, expected status) for each command."""
    command, expected, status, line_no, want = None, [], 0, 0, 0
    for number, line in enumerate(open(path, encoding="utf-8").read().splitlines(), 1):
        if line.startswith("$ "):
            if command is not None:
                yield line_no, command, expected, want
            command, expected, line_no, want, status = shlex.split(line[2:]), [], number, status, 0
        elif line.startswith("> ") or line == ">":
            expected.append(line[2:])
        elif line.startswith("! expect return "):
            status = int(line.split()[-1])
        elif line.strip() and not line.startswith("#"):
            raise SystemExit(f"{path}:{number}: not a command, output or directive: {line}")
    if command is not None:
        yield line_no, command, expected, want


def run(redist, source_dir, path):
    failures = 0
    for number, argv, expected, status in parse(path):
        if argv[0] == "redist":
            argv = [redist] + argv[1:]
        result = subprocess.run(argv, cwd=source_dir, capture_output=True, text=True, timeout=600)
        actual = result.stdout.splitlines()
        where = f"{path}:{number}: {shlex.join(argv)}"
        if result.returncode != status:
            print(f"FAIL {where}: exit {result.returncode}, expected {status}\n{result.stderr}")
            failures += 1
        elif not same_output(expected, actual):
            diff = difflib.unified_diff(expected, actual, "expected", "actual", lineterm="")
            print(f"FAIL {where}: output differs\n" + "\n".join(diff))
            failures += 1
        else:
            print(f"ok   {where}")
    return failures


def update(redist, source_dir, path):
    """Rewrites the `>` lines of each command with what it prints now."""
    previous = {number: expected for number, _, expected, _ in parse(path)}
    out = []
    for number, line in enumerate(open(path, encoding="utf-8").read().splitlines(), 1):
        if line.startswith("> ") or line == ">":
            continue
        out.append(line)
        if line.startswith("$ "):
            argv = shlex.split(line[2:])
            argv = [redist] + argv[1:] if argv[0] == "redist" else argv
            result = subprocess.run(argv, cwd=source_dir, capture_output=True, text=True)
            lines = with_placeholders(result.stdout.splitlines(), previous.get(number, []))
            out += [f"> {l}" if l else ">" for l in lines]
    open(path, "w", encoding="utf-8").write("\n".join(out) + "\n")
    return 0


def main():
    arguments = sys.argv[1:]
    action = run
    if arguments and arguments[0] == "--update":
        action, arguments = update, arguments[1:]
    if len(arguments) < 3:
        raise SystemExit(__doc__)
    redist, source_dir = arguments[0], arguments[1]
    failures = sum(action(redist, source_dir, path) for path in arguments[2:])
    print(f"{failures} failing command(s)")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
