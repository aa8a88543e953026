#!/usr/bin/env python3
"""An adversarial pass over the redist command line.

Generates instances of every family (valid ones with extreme values, and hostile mutations of
them: wrong types, huge and tiny numbers, empty and resized arrays, unknown and duplicated keys,
truncated text), runs the commands on them and checks the contract of every command:

- exit 0: standard output is strict JSON whose numbers are all finite; a plan passes the family's
  `check` (exit 0, valid); stderr is empty;
- exit 1: only from `check`, with {"valid": false, "reason": ...};
- exit 2: nothing on stdout and exactly one line `error: ... (at ...)` on stderr;
- anything else (a crash, a sanitizer report, exit 3, a time-out) is a finding.

Usage: scripts/adversarial_cli.py BUILD/redist [--per-family N] [--seed S] [--jobs J]
           [--families ring,lau,star,dlt,slicering] [--timeout SECONDS]
Prints one line per finding and a closing line 'N passed, N failed'; exits 1 on any finding.
"""
import argparse
import concurrent.futures
import json
import math
import os
import random
import re
import subprocess
import sys
import tempfile

EXTREME_FLOATS = [1e308, 1.7976931348623157e308, 1e300, 1e154, 1e-300, 2.2250738585072014e-308,
                  5e-324, 1e-310, 0.0, -0.0, -1.0, 1e-9, 0.5, 3.0, 1e9, 1e18]
EXTREME_INTS = [0, 1, 2, -1, 2**31, 2**53 + 1, 2**62, 2**63 - 1, -2**63, 2**63, 2**64,
                10**18, 3 * 10**9]
HOSTILE_VALUES = [None, True, "3", "", [], {}, [[1]], {"a": 1}, 1.5, "x\ny"]


def magnitude(rng):
    """A positive float anywhere from 1e-300 to 1e300, usually moderate."""
    if rng.random() < 0.2:
        return rng.choice([1e300, 1e-300, 1e154, 1e-154, 1e308, 2.2250738585072014e-308])
    return 10 ** rng.uniform(-3, 3)


def count(rng, heavy=False):
    if heavy and rng.random() < 0.3:
        return rng.choice([10**9, 3 * 10**9, 2**40, 2**62])
    return rng.choice([0, 0, 1, 2, 5, rng.randint(0, 1000)])


def valid_ring(rng):
    n = rng.choice([2, 2, 3, 4, 5, 8, rng.randint(2, 40)])
    loads = [count(rng, heavy=True) for _ in range(n)]
    total = sum(loads)
    if total >= 2**62:
        loads = [min(x, 2**62 // n) for x in loads]
        total = sum(loads)
    cuts = sorted(rng.randint(0, total) for _ in range(n - 1))
    targets = [b - a for a, b in zip([0] + cuts, cuts + [total])]
    bidirectional = rng.random() < 0.6
    one_cost = rng.random() < 0.3
    ring = {"bidirectional": bidirectional, "loads": loads, "targets": targets,
            "cost_next": magnitude(rng) if one_cost else [magnitude(rng) for _ in range(n)]}
    if bidirectional:
        ring["cost_prev"] = magnitude(rng) if one_cost else [magnitude(rng) for _ in range(n)]
    return {"ring": ring}


def valid_lau(rng):
    n = rng.choice([2, 3, 4, 7, rng.randint(2, 60)])
    loads = [count(rng, heavy=True) for _ in range(n)]
    loads[0] += (-sum(loads)) % n
    return {"lau": {"loads": loads}}


def valid_star(rng):
    m = rng.choice([1, 2, 3, 4, rng.randint(1, 12)])
    return {"star": {"c": [magnitude(rng) for _ in range(m)],
                     "w": [magnitude(rng) for _ in range(m)],
                     "loads": [rng.choice([0, 1, 3, rng.randint(0, 40)]) for _ in range(m)]}}


def valid_dlt(rng):
    m = rng.choice([1, 2, 3, 5, rng.randint(1, 30)])
    return {"dlt": {"b": [magnitude(rng) for _ in range(m)],
                    "s": [magnitude(rng) for _ in range(m)],
                    "alpha": [rng.choice([0.0, magnitude(rng)]) for _ in range(m)]}}


def valid_cluster(rng):
    p = rng.choice([1, 2, 3, 4, rng.randint(1, 9)])
    c = [[0.0 if i == j else magnitude(rng) for j in range(p)] for i in range(p)]
    return {"cluster": {"w": [magnitude(rng) for _ in range(p)], "c": c,
                        "W": magnitude(rng), "H": magnitude(rng)}}


FAMILIES = {
    "ring": (valid_ring, [["ring", "plan"], ["ring", "plan", "-a", "heuristic"],
                          ["ring", "plan", "-a", "light", "--solver", "lp"], ["ring", "bound"]],
             ["ring", "check"]),
    "lau": (valid_lau, [["lau", "plan", "-a", "optimal", "--mode", "single"],
                        ["lau", "plan", "-a", "optimal-window", "--mode", "multi"],
                        ["lau", "plan", "-a", "traffic"]], None),
    "star": (valid_star, [["star", "plan"], ["star", "plan", "-a", "bba"],
                          ["star", "plan", "-a", "rbsa"]], ["star", "check"]),
    "dlt": (valid_dlt, [["dlt", "plan"], ["dlt", "plan", "--solver", "lp"]], ["dlt", "check"]),
    "slicering": (valid_cluster, [["slicering", "plan"], ["slicering", "plan", "-a", "tsp"],
                                  ["slicering", "plan", "-a", "homogeneous"]],
                  ["slicering", "check"]),
}


def leaf_paths(value, path=()):
    if isinstance(value, dict):
        yield path
        for k, v in value.items():
            yield from leaf_paths(v, path + (k,))
    elif isinstance(value, list):
        yield path
        for i, v in enumerate(value):
            yield from leaf_paths(v, path + (i,))
    else:
        yield path


def set_at(doc, path, value):
    if not path:
        return value
    node = doc
    for key in path[:-1]:
        node = node[key]
    node[path[-1]] = value
    return doc


def mutate(rng, doc):
    """A hostile variant of a valid document, as JSON text."""
    doc = json.loads(json.dumps(doc))
    kind = rng.randrange(8)
    paths = list(leaf_paths(doc))
    path = rng.choice(paths)
    if kind == 0:
        doc = set_at(doc, path, rng.choice(EXTREME_INTS))
    elif kind == 1:
        doc = set_at(doc, path, rng.choice(EXTREME_FLOATS))
    elif kind == 2:
        doc = set_at(doc, path, rng.choice(HOSTILE_VALUES))
    elif kind == 3:  # resize an array
        arrays = [p for p in paths if isinstance(get_at(doc, p), list)]
        if arrays:
            p = rng.choice(arrays)
            a = get_at(doc, p)
            doc = set_at(doc, p, rng.choice([[], a[:1], a + a, a[:-1]]))
    elif kind == 4:  # an unknown key
        objects = [p for p in paths if isinstance(get_at(doc, p), dict)]
        get_at(doc, rng.choice(objects))[rng.choice(["perod", "x\ny", "k" * 300, "é"])] = 1
    elif kind == 5:  # a duplicated key, in the text
        text = json.dumps(doc)
        m = list(re.finditer(r'"([a-zA-Z_]+)": ', text))
        if m:
            hit = rng.choice(m)
            return text[:hit.start()] + hit.group(0) + "0, " + text[hit.start():]
        return text
    elif kind == 6:  # truncated or corrupted text
        text = json.dumps(doc)
        if rng.random() < 0.5:
            return text[:rng.randrange(len(text))]
        i = rng.randrange(len(text))
        return text[:i] + rng.choice("[]{},:\"\\0e-+.\x00\n") + text[i + 1:]
    else:  # delete a member
        objects = [p for p in paths if isinstance(get_at(doc, p), dict) and get_at(doc, p)]
        if objects:
            obj = get_at(doc, rng.choice(objects))
            del obj[rng.choice(list(obj))]
    return json.dumps(doc)


def get_at(doc, path):
    for key in path:
        doc = doc[key]
    return doc


def finite_numbers(value):
    if isinstance(value, float):
        return math.isfinite(value)
    if isinstance(value, list):
        return all(finite_numbers(v) for v in value)
    if isinstance(value, dict):
        return all(finite_numbers(v) for v in value.values())
    return True


def strict_json(text):
    def refuse(token):
        raise ValueError("non-JSON token " + token)
    return json.loads(text, parse_constant=refuse)


def run(redist, args, timeout):
    try:
        p = subprocess.run([redist] + args, capture_output=True, timeout=timeout)
    except subprocess.TimeoutExpired:
        return None
    return p.returncode, p.stdout.decode("utf-8", "replace"), p.stderr.decode("utf-8", "replace")


def verdict(redist, family, command, check, text, workdir, timeout):
    """'' when the command kept its contract on this document, else the finding."""
    fd, instance = tempfile.mkstemp(dir=workdir, suffix=".json")
    with os.fdopen(fd, "w") as f:
        f.write(text)
    try:
        r = run(redist, command + [instance], timeout)
        if r is None:
            return "time-out"
        code, out, err = r
        if code == 2:
            lines = err.splitlines()
            if out or len(lines) != 1 or not re.match(r"^error: .* \(at .*\)$", lines[0]):
                return f"bad exit-2 output: stdout {out[:80]!r} stderr {err[:300]!r}"
            return ""
        if code != 0:
            return f"exit {code}: {err[-400:]!r}"
        if err.strip():
            return f"stderr on success: {err[:300]!r}"
        try:
            doc = strict_json(out)
        except ValueError as e:
            return f"stdout is not strict JSON ({e}): {out[:200]!r}"
        if not finite_numbers(doc):
            return f"non-finite number in output: {out[:300]!r}"
        if check and command[1] == "plan":
            fd, schedule = tempfile.mkstemp(dir=workdir, suffix=".json")
            with os.fdopen(fd, "w") as f:
                f.write(out)
            try:
                c = run(redist, check + [instance, schedule], timeout)
            finally:
                os.unlink(schedule)
            if c is None:
                return "check time-out"
            if c[0] != 0 or '"valid": true' not in c[1]:
                return f"plan fails its check: exit {c[0]}: {c[1][:300]!r} {c[2][:300]!r}"
        return ""
    finally:
        os.unlink(instance)


def one_case(args):
    redist, family, seed, timeout, workdir = args
    rng = random.Random(seed)
    make, commands, check = FAMILIES[family]
    doc = make(rng)
    text = json.dumps(doc) if rng.random() < 0.5 else mutate(rng, doc)
    command = rng.choice(commands)
    finding = verdict(redist, family, command, check, text, workdir, timeout)
    return family, seed, command, text, finding


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("redist")
    parser.add_argument("--per-family", type=int, default=1000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    parser.add_argument("--families", default=",".join(FAMILIES))
    parser.add_argument("--timeout", type=float, default=60.0)
    a = parser.parse_args()
    families = a.families.split(",")
    passed = failed = 0
    with tempfile.TemporaryDirectory() as workdir:
        cases = [(a.redist, f, a.seed * 1_000_003 + k * 7919 + i, a.timeout, workdir)
                 for i, f in enumerate(families) for k in range(a.per_family)]
        with concurrent.futures.ThreadPoolExecutor(a.jobs) as pool:
            for family, seed, command, text, finding in pool.map(one_case, cases):
                if finding:
                    failed += 1
                    print(f"FAIL {family} seed {seed}: {' '.join(command)}: {finding}\n"
                          f"  input: {text[:400]}", flush=True)
                else:
                    passed += 1
    print(f"{passed} passed, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
