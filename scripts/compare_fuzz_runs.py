#!/usr/bin/env python3
"""Compares the final statistics of the fuzz tests of two runs (docs/fuzzing.md).

Each argument is a build directory (its ctest log, Testing/Temporary/LastTest.log, is read) or a
log file: that ctest log, or the output of fuzz/run_fuzzer.sh (one test, named after its fuzzer)
or of a fuzzer run by hand (one test). For every fuzz test the script takes the numbers that a
seeded run of a fixed number of inputs must reproduce: libFuzzer's last `DONE` line (inputs run,
coverage, features, corpus size and bytes, length limit), `stat::number_of_executed_units` and
`stat::new_units_added`; speed and memory (exec/s, rss) are left out. It prints one line per test
and exits with 0 when both runs hold the same tests with the same numbers, 1 otherwise, 2 on bad
arguments.

Usage: scripts/compare_fuzz_runs.py BUILD_OR_LOG_A BUILD_OR_LOG_B
"""

import pathlib
import re
import sys

DONE = re.compile(r"^#(\d+)\s+DONE\s+cov: (\d+) ft: (\d+) corp: (\d+)/(\S+) lim: (\d+)")
STATS = ("number_of_executed_units", "new_units_added")
STAT = re.compile(r"^stat::(" + "|".join(STATS) + r"):\s+(\d+)")
# ctest's log: each test's part starts at "N/M Testing: NAME", its output at "Output:", and ends
# at "<end of output>".
CTEST_TEST = re.compile(r"^\d+/\d+ Testing: (\S+)")
# fuzz/run_fuzzer.sh names the fuzzer it starts.
RUNNER = re.compile(r"^run_fuzzer\.sh: (\S+) in ")


def statistics(lines):
    """The reproducible numbers in one fuzzer's output, or None without a DONE line."""
    done = None
    stats = {}
    for line in lines:
        match = DONE.match(line)
        if match:
            runs, cov, ft, corp, corp_bytes, lim = match.groups()
            done = f"runs {runs} cov {cov} ft {ft} corp {corp}/{corp_bytes} lim {lim}"
        match = STAT.match(line)
        if match:
            stats[match.group(1)] = match.group(2)
    if done is None:
        return None
    return done + "".join(f" {name} {stats.get(name, '?')}" for name in STATS)


def split_ctest_log(lines):
    """{test name: its output lines} of the fuzz tests in a ctest log."""
    tests = {}
    name = None
    in_output = False
    for line in lines:
        match = CTEST_TEST.match(line)
        if match:
            name = match.group(1)
            tests[name] = []
            in_output = False
        elif line.startswith("Output:"):
            in_output = name is not None
        elif line.startswith("<end of output>"):
            name = None
            in_output = False
        elif in_output:
            tests[name].append(line)
    return {name: output for name, output in tests.items() if name.startswith("fuzz_")}


def read_run(argument):
    """{fuzz test: statistics (None when its output has no final statistics)}."""
    path = pathlib.Path(argument)
    if path.is_dir():
        path = path / "Testing" / "Temporary" / "LastTest.log"
    if not path.is_file():
        print(f"compare_fuzz_runs: no ctest log or fuzzer output at {path}", file=sys.stderr)
        sys.exit(2)
    lines = path.read_text(errors="replace").splitlines()
    outputs = split_ctest_log(lines)
    if not outputs:
        runner = next(filter(None, map(RUNNER.match, lines)), None)
        outputs = {runner.group(1) if runner else "fuzzer output": lines}
    return {name: statistics(output) for name, output in outputs.items()}


def main(argv):
    if len(argv) != 3:
        print(__doc__.strip().splitlines()[-1], file=sys.stderr)
        return 2
    runs = [read_run(argument) for argument in argv[1:]]
    names = sorted(set(runs[0]) | set(runs[1]))
    same = 0
    for name in names:
        a, b = (run.get(name, "(not run)") or "(no final statistics)" for run in runs)
        if a == b and name in runs[0] and name in runs[1] and runs[0][name] is not None:
            same += 1
            print(f"same    {name}: {a}")
        else:
            print(f"differs {name}:\n  {argv[1]}: {a}\n  {argv[2]}: {b}")
    print(f"{same} of {len(names)} fuzz tests with the same statistics")
    return 0 if names and same == len(names) else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv))
