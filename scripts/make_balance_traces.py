#!/usr/bin/env python3
"""Writes the bundled rebalancing examples of data/balance/ (fixed seed, reproducible).

rrv04-8.json: a trace in the style of RRV04 section 8: 8 processors, 100 iterations, 1000 items
(columns) balanced for the first speeds; each processor's speed changes twice, once at an
iteration drawn in 20..40 and once in 60..80, speeds drawn from twelve machine speeds between 22
and 172. Link costs: about 0.05 time units per item (a redistribution costs a few iterations).
advise-8.json: the same ring after iteration 50 of that trace, loads still balanced for the first
speeds, 50 iterations to go.
"""
import json
import pathlib
import random

MACHINES = [22, 28, 35, 44, 52, 63, 75, 88, 104, 121, 145, 172]


def balanced(items, speeds):
    """D'Hondt order, ties to the lower index (as redist's balanced targets)."""
    from fractions import Fraction
    counts = [0] * len(speeds)
    for _ in range(items):
        best = min(range(len(speeds)), key=lambda i: (Fraction(counts[i] + 1) / Fraction(speeds[i]), i))
        counts[best] += 1
    return counts


def main():
    rng = random.Random(2004)
    p, k, items = 8, 100, 1000
    rows = [[0] * p for _ in range(k)]
    for i in range(p):
        first, second = rng.randint(20, 40), rng.randint(60, 80)
        levels = [rng.choice(MACHINES) for _ in range(3)]
        for t in range(k):
            rows[t][i] = levels[(t >= first) + (t >= second)]
    ring = {"bidirectional": True,
            "cost_next": [round(rng.uniform(0.03, 0.07), 4) for _ in range(p)],
            "cost_prev": [round(rng.uniform(0.03, 0.07), 4) for _ in range(p)]}
    out = pathlib.Path(__file__).resolve().parent.parent / "data" / "balance"
    out.mkdir(parents=True, exist_ok=True)
    trace = {"balance": {"ring": ring, "speeds": rows, "items": items}}
    (out / "rrv04-8.json").write_text(json.dumps(trace) + "\n")
    advise = {"balance": {"ring": ring, "loads": balanced(items, rows[0]), "speeds": rows[50],
                          "remaining_iterations": 50}}
    (out / "advise-8.json").write_text(json.dumps(advise, indent=1) + "\n")


if __name__ == "__main__":
    main()
