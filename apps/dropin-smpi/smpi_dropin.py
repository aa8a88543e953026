#!/usr/bin/env python3
"""redist_alltoallv (the drop-in, redist/mpi/dropin.h) against every MPI_Alltoallv algorithm of
SimGrid 3.32 SMPI, on simulated one-port platforms of 16, 64 and 256 ranks (docs/dropin-smpi.md).

Usage: smpi_dropin.py BUILD_DIR [--out DIR] [--quick] [--seed S] [--ranks P ...]
                      [--platforms NAME ...] [--patterns NAME ...] [--algorithms NAME ...]
                      [--calls N] [--large-algorithms NAME ...] [--large-patterns NAME ...]
                      [--large-calls N] [--datatype byte|double] [--native-only]
                      [--no-crosstraffic] [--simulate-computation] [--no-lookup] [--jobs J]
       smpi_dropin.py --figure JSON [--out DIR]

BUILD_DIR holds redist, redist-smpi-dropin, redist-smpi-oneport.so and smpirun_redist.sh (the
SMPI settings of every run, SMPIRUN overrides the smpirun in PATH). Every rank is a host with a
one-port NIC: a send link and a receive link that carry one flow at a time (SimGrid's concurrency
limit, applied by redist-smpi-oneport.so), latency 0. Platforms, for P ranks:
  heterogeneous  a switch; every NIC's bandwidth (the same both ways) log-uniform in
                 [125 MB/s, 1.25 GB/s], seeded
  clusters       two clusters of P/2 hosts (NICs 1 GB/s) joined by one backbone link of P/8 GB/s,
                 shared by the flows crossing it in either direction
  homogeneous    a switch, every NIC 1 GB/s
Patterns (every size a multiple of 8 bytes; a few MB per rank, so a call takes milliseconds):
  fft-transpose  an N x N array of 8-byte elements, N^2 = P x 2^19, rows in uneven blocks
                 (weights log-uniform in [1, 4]) transposed to uneven column blocks (other
                 weights): rank i sends rows_i x cols_j x 8 bytes to rank j, its own block too
  rcb-migration  P x 256 particles of 16 KiB in the unit square, partitioned into P parts of equal
                 work by recursive coordinate bisection (work ten times higher near a hot spot);
                 they drift, the hot spot moves a little, the partition is recomputed from
                 scratch: each particle that changes part moves from its old owner to its new one
  bc-cyclic      CYCLIC(2) on P -> CYCLIC(3) on P ranks, P x 2^19 elements of 8 bytes
  bc-shrink      CYCLIC(4) on P -> CYCLIC(5) on 3P/4 ranks (the last P/4 ranks end empty)
                 (block-cyclic sizes from `redist exchange block-cyclic`)
  random         every rank sends to 4 random others, sizes log-uniform in [64 KiB, 4 MiB]
Runs: one smpirun per (ranks, platform, algorithm) runs every pattern, each as --calls N calls
(default 10) of MPI_Alltoallv with --cfg=smpi/alltoallv:ALGORITHM, every received element verified;
and one smpirun per (ranks, platform) with --alltoallv redist (SimGrid's default algorithm for its
native calls), REDIST_PLATFORM the platform file (docs/formats.md) of the simulated platform: its
NICs and backbone times the share of a NIC a host gets when it sends and receives at once
(measured first: two hosts exchanging 64 MiB each way). At 256 ranks and more (LARGE), fewer
algorithms, patterns and calls (--large-*): SMPI takes about 20 s of this machine per call of the
default algorithm there. Below 256 ranks, a control run per (ranks, platform): the default
algorithm with --lookup (an MPI_Allreduce of 4 integers before each call, as a replacement that
looks its pattern up does; --no-lookup leaves it out). Computation is not simulated (every time
repeatable); redist's time adds the planning_seconds of the drop-in's report (--report).
--simulate-computation charges the computation in simulated time instead (bursts over 100 us, at
1 Gflop/s, the hosts' speed), which makes times vary between runs by a few percent.
--native-only skips the redist runs; they are skipped too when the program was built without the
drop-in (BUILD_DIR/smpi_dropin_features.json says {"redist": false}).
Writes into --out (default dropin-smpi-out): dropin_smpi.json (every run, every time, the
summaries), dropin_smpi.md (the tables), dropin_smpi.svg (the figure). Exit 1 when a run fails or
is not verified. --quick: 16 ranks, algorithms default, pair and bruck, patterns fft-transpose,
bc-cyclic and random at a quarter of the size, 3 calls (about 5 s); prints "quick: all runs
verified" when they are.
--figure JSON runs nothing: it draws dropin_smpi.svg into --out again from the rows of a
dropin_smpi.json (docs/figures/data/ keeps the rows of the documented runs), without SimGrid.
"""
import argparse
import bisect
import concurrent.futures
import itertools
import json
import math
import os
import random
import subprocess
import sys
import tempfile
import time

KIB, MIB = 1024, 1024 * 1024
# SimGrid 3.32's MPI_Alltoallv algorithms (smpi/alltoallv); `automatic` (which tries them all)
# is left out.
ALGORITHMS = ["default", "pair", "pair_light_barrier", "pair_mpi_barrier", "pair_one_barrier",
              "ring", "ring_light_barrier", "ring_mpi_barrier", "ring_one_barrier", "bruck",
              "ompi_basic_linear", "mpich", "ompi", "mvapich2", "impi"]
QUICK_ALGORITHMS = ["default", "pair", "bruck"]
AUTO = "redist-auto"  # the drop-in in its default mode (REDIST_ALLTOALLV=auto)
PLATFORMS = ["heterogeneous", "clusters", "homogeneous"]
HETEROGENEOUS = ["heterogeneous", "clusters"]  # the goal's platforms
RANKS = [16, 64, 256]
PATTERNS = ["fft-transpose", "rcb-migration", "bc-cyclic", "bc-shrink", "random"]
QUICK_PATTERNS = ["fft-transpose", "bc-cyclic", "random"]
# At LARGE ranks and more, SMPI's cost limits the sweep (docs/dropin-smpi.md: a call of the default
# algorithm takes about 20 s of this machine at 256 ranks, whatever its sizes).
LARGE = 256
LARGE_ALGORITHMS = ["default", "pair", "ring", "bruck"]
LARGE_PATTERNS = ["fft-transpose", "rcb-migration", "random"]
LARGE_CALLS = 3
# The control run: the default algorithm with an MPI_Allreduce of 4 integers before each call (what
# a replacement that looks its pattern up at every call adds to the native call it falls back
# to); below LARGE ranks only.
LOOKUP = "default+lookup"


def log(*args):
    print(*args, file=sys.stderr, flush=True)


# --- platforms -------------------------------------------------------------------------------

def platform(kind, ranks, seed):
    """(send bandwidths, receive bandwidths, backbone or None) of `ranks` hosts, bytes/s."""
    if kind == "heterogeneous":
        rng = random.Random(seed * 1000003 + ranks)
        nic = [math.exp(rng.uniform(math.log(125e6), math.log(1.25e9))) for _ in range(ranks)]
        return nic, list(nic), None
    backbone = None
    if kind == "clusters":
        half = ranks // 2
        backbone = {"clusters": [list(range(half)), list(range(half, ranks))],
                    "bandwidth": ranks / 8 * 1e9}
    return [1e9] * ranks, [1e9] * ranks, backbone


def write_platform(path, hosts_path, send, recv, backbone):
    """A SimGrid XML platform (Full routing: route i -> j = send_i [backbone] recv_j) whose port
    links carry one flow at a time once redist-smpi-oneport.so applies `concurrency_limit`, and
    its hostfile (host pI is rank I)."""
    n = len(send)
    out = ["<?xml version='1.0'?>",
           '<!DOCTYPE platform SYSTEM "https://simgrid.org/simgrid.dtd">',
           '<platform version="4.1">', '  <zone id="switch" routing="Full">']
    out += [f'    <host id="p{i}" speed="1Gf"/>' for i in range(n)]
    for i in range(n):
        for port, bw in (("send", send[i]), ("recv", recv[i])):
            out.append(f'    <link id="{port}{i}" bandwidth="{bw!r}Bps" latency="0s">'
                       '<prop id="concurrency_limit" value="1"/></link>')
    side = [0] * n
    if backbone:
        out.append(f'    <link id="backbone" bandwidth="{backbone["bandwidth"]!r}Bps" '
                   'latency="0s"/>')
        for node in backbone["clusters"][1]:
            side[node] = 1
    for i in range(n):
        for j in range(n):
            if i == j:
                continue
            via = '<link_ctn id="backbone"/>' if backbone and side[i] != side[j] else ""
            out.append(f'    <route src="p{i}" dst="p{j}" symmetrical="NO"><link_ctn id="send{i}"/>'
                       f'{via}<link_ctn id="recv{j}"/></route>')
    out += ["  </zone>", "</platform>"]
    with open(path, "w") as f:
        f.write("\n".join(out) + "\n")
    with open(hosts_path, "w") as f:
        f.write("".join(f"p{i}\n" for i in range(n)))


def write_redist_platform(path, send, recv, backbone, share):
    """The drop-in's platform file (REDIST_PLATFORM): what a host gets of its NIC and of the
    backbone when it sends and receives at once."""
    doc = {"ranks": len(send), "send_bandwidth": [b * share for b in send],
           "recv_bandwidth": [b * share for b in recv], "latency": 0}
    if backbone:
        doc["backbone"] = {"clusters": backbone["clusters"],
                           "bandwidth": backbone["bandwidth"] * share}
    with open(path, "w") as f:
        json.dump({"platform": doc}, f)


# --- patterns --------------------------------------------------------------------------------

def apportion(total, weights):
    """`total` split in proportion to `weights` (largest remainders), every part >= 1."""
    s = sum(weights)
    exact = [total * w / s for w in weights]
    parts = [max(1, int(x)) for x in exact]
    order = sorted(range(len(weights)), key=lambda i: exact[i] - int(exact[i]), reverse=True)
    k = 0
    while sum(parts) < total:
        parts[order[k % len(order)]] += 1
        k += 1
    return parts


def fft_transpose(ranks, rng, scale):
    n = int(math.sqrt(ranks * (1 << 19) * scale))
    weight = lambda: math.exp(rng.uniform(0, math.log(4)))
    rows = apportion(n, [weight() for _ in range(ranks)])
    cols = apportion(n, [weight() for _ in range(ranks)])
    return [[rows[i] * cols[j] * 8 for j in range(ranks)] for i in range(ranks)]


def rcb(coords, weights, ids, parts, first, owner):
    """Recursive coordinate bisection: `ids` cut across their longer extent (coords[0] holds the
    x coordinates, coords[1] the y) where the weight on each side is proportional to the parts it
    gets."""
    if parts == 1:
        for i in ids:
            owner[i] = first
        return
    extent = [max(map(c.__getitem__, ids)) - min(map(c.__getitem__, ids)) for c in coords]
    ids = sorted(ids, key=coords[0 if extent[0] >= extent[1] else 1].__getitem__)
    left = parts // 2
    prefix = list(itertools.accumulate(map(weights.__getitem__, ids)))
    cut = bisect.bisect_right(prefix, prefix[-1] * left / parts)
    cut = min(max(cut, 1), len(ids) - 1)
    rcb(coords, weights, ids[:cut], left, first, owner)
    rcb(coords, weights, ids[cut:], parts - left, first + left, owner)


def rcb_migration(ranks, rng, scale):
    n = int(ranks * 256 * scale)
    item = 16 * KIB
    xs = [rng.random() for _ in range(n)]
    ys = [rng.random() for _ in range(n)]

    def owners(spot):
        weights = [1 + 9 * math.exp(-((x - spot[0]) ** 2 + (y - spot[1]) ** 2) / 0.02)
                   for x, y in zip(xs, ys)]
        owner = [0] * n
        rcb([xs, ys], weights, list(range(n)), ranks, 0, owner)
        return owner
    before = owners([0.3, 0.3])
    for c in (xs, ys):
        for i in range(n):
            c[i] = min(1.0, max(0.0, c[i] + rng.gauss(0, 0.01)))
    after = owners([0.35, 0.32])
    m = [[0] * ranks for _ in range(ranks)]
    for a, b in zip(before, after):
        if a != b:  # a particle that keeps its owner stays in place
            m[a][b] += item
    return m


def block_cyclic(build, ranks, elements, r, s, q):
    """CYCLIC(r) on `ranks` -> CYCLIC(s) on q ranks of 8-byte elements (`redist exchange
    block-cyclic`); elements that keep their owner are not sent."""
    p = subprocess.run([os.path.join(build, "redist"), "exchange", "block-cyclic",
                        "--elements", str(elements), "--element-bytes", "8",
                        "--from-block", str(r), "--from-procs", str(ranks),
                        "--to-block", str(s), "--to-procs", str(q)],
                       capture_output=True, text=True, check=True)
    m = [[0] * ranks for _ in range(ranks)]
    for i, j, b in json.loads(p.stdout)["exchange"]["messages"]:
        m[i][j] += b
    return m


def random_sparse(ranks, rng, scale):
    m = [[0] * ranks for _ in range(ranks)]
    for i in range(ranks):
        for j in rng.sample([k for k in range(ranks) if k != i], min(4, ranks - 1)):
            size = math.exp(rng.uniform(math.log(64 * KIB), math.log(4 * MIB))) * scale
            m[i][j] = max(8, int(size) // 8 * 8)
    return m


def make_pattern(build, name, ranks, seed, scale):
    rng = random.Random(seed * 7919 + ranks * 131 + PATTERNS.index(name))
    elements = int(ranks * (1 << 19) * scale)
    if name == "fft-transpose":
        return fft_transpose(ranks, rng, scale)
    if name == "rcb-migration":
        return rcb_migration(ranks, rng, scale)
    if name == "bc-cyclic":
        return block_cyclic(build, ranks, elements, 2, 3, ranks)
    if name == "bc-shrink":
        return block_cyclic(build, ranks, elements, 4, 5, max(1, 3 * ranks // 4))
    return random_sparse(ranks, rng, scale)


# --- runs ------------------------------------------------------------------------------------

def smpirun(build, xml, hosts, args, cfg, env_extra=None):
    """Rows (one per pattern) of one run of redist-smpi-dropin, and its wall-clock seconds."""
    env = dict(os.environ, REDIST_SMPI_PROGRAM=os.path.join(build, "redist-smpi-dropin"),
               REDIST_SMPI_CFG=cfg, **(env_extra or {}))
    cmd = [os.path.join(build, "smpirun_redist.sh"), build, xml, hosts, "--one-port-platform",
           *args]
    start = time.monotonic()
    p = subprocess.run(cmd, env=env, capture_output=True, text=True, timeout=3600)
    wall = time.monotonic() - start
    rows = [json.loads(line) for line in p.stdout.splitlines() if line.startswith("{")]
    if p.returncode != 0 or not rows or not all(r["verified"] for r in rows):
        raise RuntimeError(f"exit {p.returncode}: {p.stdout[-400:]} {p.stderr[-800:]}")
    return rows, wall


def calibrate(build, tmp, cfg):
    """The share of a NIC's bandwidth a host gets when it sends and receives at once: two hosts
    of 1 GB/s exchange 64 MiB each way (one MPI_Alltoallv)."""
    xml, hosts, pat = (os.path.join(tmp, f) for f in ("pair.xml", "pair.txt", "pair.json"))
    write_platform(xml, hosts, [1e9, 1e9], [1e9, 1e9], None)
    size = 64 * MIB
    with open(pat, "w") as f:
        json.dump({"dropin_patterns": {"ranks": 2, "patterns": [
            {"name": "pair", "bytes": [[0, size], [size, 0]]}]}}, f)
    rows, _ = smpirun(build, xml, hosts, ["--patterns", pat, "--calls", "1"], cfg)
    return size / rows[0]["seconds"] / 1e9


def add_planning(rows, report):
    """Each redist row's planning_seconds, from the drop-in's report (`plan_s` of its patterns,
    in the order the run met them), or None when the report does not say. Shown only: the
    drop-in charges its planning on rank 0 in simulated time itself (smpi_execute), so the other
    ranks wait for it as they would on a real machine, and it is in the measured time already."""
    patterns = None
    try:
        with open(report) as f:
            patterns = json.load(f)["report"]["patterns"]
    except (OSError, ValueError, KeyError, TypeError):
        pass
    for k, r in enumerate(rows):
        ok = patterns is not None and len(patterns) == len(rows)
        r["planning_seconds"] = float(patterns[k]["plan_s"]) if ok else None
        r["choice"] = patterns[k]["choice"] if ok else None
        bound = float(patterns[k]["lower_bound_s"]) if ok else -1.0
        r["lower_bound_seconds"] = bound if bound >= 0 else None


# --- tables and figure ------------------------------------------------------------------------

def geomean(xs):
    return math.exp(sum(math.log(x) for x in xs) / len(xs)) if xs else float("nan")


def summarize(results, algorithms, with_redist):
    """Per (ranks, platform, pattern): every algorithm's time, the best, redist's and the ratios;
    per platform and over the goal's platforms: geometric means and the worst fallback ratio."""
    rows = []
    for key, cell in results.items():
        ranks, kind, name = key
        times = {a: cell[a]["seconds"] for a in algorithms if a in cell}
        if not times:
            continue
        best = min(times, key=times.get)
        row = {"ranks": ranks, "platform": kind, "pattern": name, "megabytes":
               cell[best]["bytes"] / 1e6, "calls": cell[best]["calls"], "seconds": times,
               "best": best, "best_seconds": times[best],
               "default_seconds": times.get("default")}
        if LOOKUP in cell and "default" in times:
            row["lookup_seconds"] = cell[LOOKUP]["seconds"]
            row["lookup_over_default"] = cell[LOOKUP]["seconds"] / times["default"]
        if with_redist and "redist" in cell:
            # REDIST_ALLTOALLV=always: redist's schedules, planned at the pattern's first call;
            # the simulated time includes the planning (charged by the drop-in on rank 0).
            red = cell["redist"]["seconds"]
            # The exchange bound of one call on the platform file's model (the drop-in's report),
            # times the calls: no schedule of these calls can take less, so best / bound is the
            # most any schedule could gain over the best native algorithm.
            bound = cell["redist"].get("lower_bound_seconds")
            if bound:
                row["bound_seconds"] = bound * cell["redist"]["calls"]
                row["best_over_bound"] = times[best] / row["bound_seconds"]
            row.update({"redist_seconds": red,
                        "planning_seconds": cell["redist"].get("planning_seconds"),
                        "redist_call_seconds": cell["redist"]["call_seconds"],
                        "best_over_redist": times[best] / red})
            if "default" in times:
                row["default_over_redist"] = times["default"] / red
        if with_redist and AUTO in cell and "default" in times:
            # REDIST_ALLTOALLV=auto, the drop-in as a user gets it: its native calls are
            # SimGrid's default algorithm, the call it replaces.
            row["auto_seconds"] = cell[AUTO]["seconds"]
            row["auto_choice"] = cell[AUTO].get("choice")
            row["auto_over_default"] = cell[AUTO]["seconds"] / times["default"]
        rows.append(row)
    summary = {}
    groups = {kind: [r for r in rows if r["platform"] == kind] for kind in PLATFORMS}
    groups["heterogeneous+clusters"] = [r for r in rows if r["platform"] in HETEROGENEOUS]
    for name, rs in groups.items():
        rs = [r for r in rs if "redist_seconds" in r]
        if not rs:
            continue
        fallback = [r["auto_over_default"] for r in rs if "auto_over_default" in r]
        ceiling = [r["best_over_bound"] for r in rs if "best_over_bound" in r]
        summary[name] = {"cells": len(rs),
                         "geomean_best_over_bound":
                             geomean(ceiling) if len(ceiling) == len(rs) else None,
                         "geomean_best_over_redist": geomean([r["best_over_redist"] for r in rs]),
                         "geomean_default_over_redist": geomean(
                             [r["default_over_redist"] for r in rs if "default_over_redist" in r]),
                         "max_auto_over_default": max(fallback) if fallback else None}
    if "heterogeneous+clusters" in summary:
        s = summary["heterogeneous+clusters"]
        every = [r["auto_over_default"] for r in rows if "auto_over_default" in r]
        summary["goals"] = {
            "geomean_best_over_redist_heterogeneous": s["geomean_best_over_redist"],
            "geomean_goal": 1.3,
            "max_auto_over_default_all_platforms": max(every) if every else None,
            "fallback_goal": 1.03,
            "met": s["geomean_best_over_redist"] >= 1.3 and bool(every) and max(every) <= 1.03}
        if not every:
            summary["goals"]["max_auto_over_default_all_platforms"] = float("nan")
    return rows, summary


def markdown(rows, summary, algorithms, with_redist, meta):
    ms = lambda s: f"{s * 1e3:.3f}" if s is not None else "-"
    out = [f"# redist_alltoallv against SimGrid {meta['simgrid']}'s MPI_Alltoallv algorithms",
           "",
           f"Times in milliseconds of `calls` calls per pattern ({meta['datatype']}), "
           f"seed {meta['seed']}, {'with' if meta['crosstraffic'] else 'without'} SimGrid's",
           f"acknowledgement traffic; a host gets {meta['bandwidth_share']:.4f} of its NIC when it "
           "sends and receives at once",
           "(the drop-in's platform file says so).", ""]
    lookup = any("lookup_seconds" in r for r in rows)
    head = ["ranks", "platform", "pattern", "MB/call", "calls"] + algorithms + ["best native"]
    if lookup:
        head += ["default + lookup", "lookup / default"]
    if with_redist:
        head += ["bound", "best / bound", "redist (always)", "planning", "best / redist",
                 "default / redist", "redist (auto)", "auto / default"]
    out += ["| " + " | ".join(head) + " |", "|" + "---|" * 3 + "---:|" * (len(head) - 3)]
    for r in rows:
        cells = [str(r["ranks"]), r["platform"], r["pattern"], f"{r['megabytes']:.1f}",
                 str(r["calls"])]
        cells += [ms(r["seconds"][a]) if a in r["seconds"] else "-" for a in algorithms]
        cells.append(f"{r['best']} {ms(r['best_seconds'])}")
        if lookup:
            cells += [ms(r["lookup_seconds"]), f"{r['lookup_over_default']:.3f}"] \
                if "lookup_seconds" in r else ["-", "-"]
        if with_redist:
            cells += [ms(r["bound_seconds"]), f"{r['best_over_bound']:.3f}"] \
                if "bound_seconds" in r else ["-", "-"]
            if "redist_seconds" in r:
                planning = r["planning_seconds"]
                cells += [ms(r["redist_seconds"]), "?" if planning is None else ms(planning),
                          f"{r['best_over_redist']:.3f}",
                          f"{r.get('default_over_redist', float('nan')):.3f}"]
            else:
                cells += ["failed", "-", "-", "-"]
            if "auto_seconds" in r:
                cells += [f"{ms(r['auto_seconds'])} ({r.get('auto_choice') or '?'})",
                          f"{r['auto_over_default']:.3f}"]
            else:
                cells += ["-", "-"]
        out.append("| " + " | ".join(cells) + " |")
    if with_redist and summary:
        out += ["", "| platforms | cells | geomean best native / bound "
                "| geomean best native / redist | geomean default / redist "
                "| worst auto / default |",
                "|---|---:|---:|---:|---:|---:|"]
        for name, s in summary.items():
            if name == "goals":
                continue
            worst = s["max_auto_over_default"]
            worst = f"{worst:.3f}" if worst is not None else "-"
            ceiling = s.get("geomean_best_over_bound")
            ceiling = f"{ceiling:.3f}" if ceiling is not None else "-"
            out.append(f"| {name} | {s['cells']} | {ceiling} | {s['geomean_best_over_redist']:.3f} "
                       f"| {s['geomean_default_over_redist']:.3f} | {worst} |")
        g = summary.get("goals")
        if g:
            out += ["", f"Goals: geometric mean of best native / redist over heterogeneous and "
                    f"clusters {g['geomean_best_over_redist_heterogeneous']:.3f} (goal >= 1.3); "
                    f"worst auto / default {g['max_auto_over_default_all_platforms']:.3f} "
                    f"(goal <= 1.03): {'met' if g['met'] else 'not met'}."]
    if with_redist:
        out += ["", "redist (always) against each algorithm, over the cells where both ran: in how "
                "many redist is faster, and the geometric mean of the algorithm's time over "
                "redist's (above 1: redist faster).", "",
                "| algorithm | cells | redist faster | geomean algorithm / redist |",
                "|---|---:|---:|---:|"]
        for alg in algorithms:
            pairs = [(r["seconds"][alg], r["redist_seconds"]) for r in rows
                     if alg in r["seconds"] and "redist_seconds" in r]
            if pairs:
                faster = sum(1 for t, red in pairs if red < t)
                out.append(f"| {alg} | {len(pairs)} | {faster} | "
                           f"{geomean([t / red for t, red in pairs]):.3f} |")
    wins = {}
    for r in rows:
        wins[r["best"]] = wins.get(r["best"], 0) + 1
    out += ["", "Best native algorithm (cells won): " +
            ", ".join(f"{a} {n}" for a, n in sorted(wins.items(), key=lambda x: -x[1])) + "."]
    return "\n".join(out) + "\n"


def svg_figure(rows, algorithms, with_redist):
    """Per platform a panel; per (ranks, pattern) a group: the best native algorithm's speedup
    over SimGrid's default (grey bar), redist's (blue bar), every other algorithm a dot; log
    scale."""
    panels = [k for k in PLATFORMS if any(r["platform"] == k for r in rows)]
    groups = sorted({(r["ranks"], r["pattern"]) for r in rows},
                    key=lambda g: (g[0], PATTERNS.index(g[1]) if g[1] in PATTERNS else 99))
    values = []
    for r in rows:
        d = r["default_seconds"]
        if d:
            values += [d / s for s in r["seconds"].values()]
            if "redist_seconds" in r:
                values.append(d / r["redist_seconds"])
    lo = min([0.5] + values) * 0.9
    hi = max([2.0] + values) * 1.1
    gw, left, top, ph, gap = 34, 70, 50, 220, 150  # gap: room for the vertical labels
    width = max(640, left + gw * len(groups) + 200)
    height = top + len(panels) * (ph + gap) + 40
    y_of = lambda v, y0: y0 + ph - (math.log(v) - math.log(lo)) / (math.log(hi) - math.log(lo)) * ph
    s = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
         f'font-family="sans-serif" font-size="11">',
         f'<rect width="{width}" height="{height}" fill="white"/>',
         f'<text x="{left}" y="22" font-size="14">Speedup over SimGrid\'s default '
         'MPI_Alltoallv (log scale; above 1: faster)</text>']
    ticks = [t for t in (0.01, 0.02, 0.05, 0.1, 0.15, 0.25, 0.5, 0.75, 1, 1.5, 2, 3, 4, 6, 8, 12, 16)
             if lo <= t <= hi]
    for k, kind in enumerate(panels):
        y0 = top + k * (ph + gap)
        s.append(f'<text x="{left}" y="{y0 - 8}" font-size="12" font-weight="bold">{kind}</text>')
        for t in ticks:
            y = y_of(t, y0)
            s.append(f'<line x1="{left}" x2="{left + gw * len(groups)}" y1="{y:.1f}" y2="{y:.1f}" '
                     f'stroke="{"#444" if t == 1 else "#ddd"}"/>')
            s.append(f'<text x="{left - 5}" y="{y + 4:.1f}" text-anchor="end">{t:g}</text>')
        for g, (ranks, name) in enumerate(groups):
            x = left + g * gw
            r = next((r for r in rows if r["platform"] == kind and r["ranks"] == ranks
                      and r["pattern"] == name), None)
            label_y = y0 + ph + 8
            s.append(f'<text transform="translate({x + gw / 2 + 3:.1f},{label_y}) rotate(90)" '
                     f'font-size="11">{name}/{ranks}</text>')
            if not r or not r["default_seconds"]:
                continue
            d = r["default_seconds"]
            base = y_of(1, y0)
            bars = [(d / r["best_seconds"], "#999")]
            if "redist_seconds" in r:
                bars.append((d / r["redist_seconds"], "#1f5fbf"))
            for b, (v, color) in enumerate(bars):
                y = y_of(v, y0)
                bx = x + 5 + b * 12
                s.append(f'<rect x="{bx}" y="{min(y, base):.1f}" width="11" '
                         f'height="{abs(base - y):.1f}" fill="{color}"/>')
            for a, t in r["seconds"].items():
                if a != r["best"]:
                    s.append(f'<circle cx="{x + 10.5:.1f}" cy="{y_of(d / t, y0):.1f}" r="1.8" '
                             'fill="none" stroke="#c0392b"/>')
        s.append(f'<text transform="translate({left - 45},{y0 + ph / 2}) rotate(-90)" '
                 'text-anchor="middle">default time / time</text>')
    lx, ly = left + gw * len(groups) + 15, top + 10
    legend = [("#999", "best native algorithm")]
    if with_redist:
        legend.append(("#1f5fbf", "redist_alltoallv"))
    for k, (color, text) in enumerate(legend):
        s.append(f'<rect x="{lx}" y="{ly + k * 18}" width="11" height="11" fill="{color}"/>'
                 f'<text x="{lx + 16}" y="{ly + k * 18 + 10}">{text}</text>')
    k = len(legend)
    s.append(f'<circle cx="{lx + 5.5}" cy="{ly + k * 18 + 5}" r="2" fill="none" stroke="#c0392b"/>'
             f'<text x="{lx + 16}" y="{ly + k * 18 + 10}">other algorithms</text>')
    s.append("</svg>")
    return "\n".join(s) + "\n"


# --- main ------------------------------------------------------------------------------------

def features(build):
    """What redist-smpi-dropin was built with (apps/dropin-smpi/CMakeLists.txt writes it)."""
    try:
        with open(os.path.join(build, "smpi_dropin_features.json")) as f:
            return json.load(f)
    except (OSError, ValueError):
        return {}


def simgrid_version():
    try:
        p = subprocess.run([os.environ.get("SMPIRUN", "smpirun"), "--version"],
                           capture_output=True, text=True, timeout=30)
        return p.stdout.split()[2] if p.stdout.startswith("SimGrid version") else "?"
    except (OSError, subprocess.SubprocessError, IndexError):
        return "?"


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("build", nargs="?")
    ap.add_argument("--out", default="dropin-smpi-out")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--quick", action="store_true")
    ap.add_argument("--ranks", type=int, nargs="+")
    ap.add_argument("--platforms", nargs="+", choices=PLATFORMS)
    ap.add_argument("--patterns", nargs="+", choices=PATTERNS)
    ap.add_argument("--algorithms", nargs="+", choices=ALGORITHMS)
    ap.add_argument("--calls", type=int)
    ap.add_argument("--large-algorithms", nargs="+", choices=ALGORITHMS,
                    help=f"algorithms at {LARGE} ranks and more "
                         f"(default: {' '.join(LARGE_ALGORITHMS)})")
    ap.add_argument("--large-patterns", nargs="+", choices=PATTERNS,
                    help=f"patterns at {LARGE} ranks and more "
                         f"(default: {' '.join(LARGE_PATTERNS)})")
    ap.add_argument("--large-calls", type=int,
                    help=f"calls at {LARGE} ranks and more (default: {LARGE_CALLS})")
    ap.add_argument("--datatype", choices=["byte", "double"], default="byte")
    ap.add_argument("--native-only", action="store_true")
    ap.add_argument("--no-lookup", action="store_true",
                    help=f"leave out the control run '{LOOKUP}'")
    ap.add_argument("--no-crosstraffic", action="store_true")
    ap.add_argument("--simulate-computation", action="store_true",
                    help="charge computation in simulated time (times then vary between runs)")
    ap.add_argument("--jobs", type=int, default=1, help="smpiruns at once")
    ap.add_argument("--only", choices=["redist", "redist-auto"],
                    help="run only this drop-in mode (merge with a run of the rest: --merge)")
    ap.add_argument("--merge", nargs="+", metavar="JSON",
                    help="no run: the tables and figure of earlier runs' dropin_smpi.json files "
                         "together (a cell of a later file replaces the same cell's algorithms)")
    ap.add_argument("--figure", metavar="JSON",
                    help="no run: the figure again from a dropin_smpi.json's rows")
    a = ap.parse_args()
    if a.figure:
        return redraw(a.figure, a.out)
    if a.merge:
        return merge(a.merge, a.out)
    if a.build is None:
        ap.error("BUILD_DIR is required to run (--figure and --merge run nothing)")
    build = os.path.realpath(a.build)
    ranks_list = a.ranks or ([16] if a.quick else RANKS)
    algorithms = a.algorithms or (QUICK_ALGORITHMS if a.quick else ALGORITHMS)
    names = a.patterns or (QUICK_PATTERNS if a.quick else PATTERNS)
    kinds = a.platforms or PLATFORMS
    calls = a.calls or (3 if a.quick else 10)
    scale = 0.25 if a.quick else 1.0
    with_redist = not a.native_only and features(build).get("redist", False)
    if not with_redist and not a.native_only:
        log("redist-smpi-dropin was built without the drop-in: native algorithms only")
    cfg = "--cfg=network/crosstraffic:0" if a.no_crosstraffic else ""
    if a.simulate_computation:
        # After smpirun_redist.sh's smpi/simulate-computation:no, so these win. Bursts under
        # 100 us are not charged (the loop between the calls); longer ones, such as the
        # drop-in's planning, take simulated time (and so do preemptions of this process).
        cfg += (" --cfg=smpi/simulate-computation:yes --cfg=smpi/host-speed:1Gf"
                " --cfg=smpi/cpu-threshold:1e-4")
    os.makedirs(a.out, exist_ok=True)
    results, runs, failures = {}, [], []
    with tempfile.TemporaryDirectory() as tmp:
        share = calibrate(build, tmp, cfg)
        log(f"bandwidth when sending and receiving at once: {share:.4f} of the NIC's")
        jobs = []  # (ranks, kind, mode/algorithm, xml, hosts, patterns file, redist platform)
        for ranks in ranks_list:
            pats = []
            large = ranks >= LARGE and not a.quick
            for name in ((a.large_patterns or LARGE_PATTERNS) if large else names):
                start = time.monotonic()
                matrix = make_pattern(build, name, ranks, a.seed, scale)
                pats.append({"name": name, "bytes": matrix})
                log(f"{ranks} ranks: pattern {name} "
                    f"({sum(map(sum, pats[-1]['bytes'])) / 1e6:.1f} MB, "
                    f"{time.monotonic() - start:.1f} s to generate)")
            pat_file = os.path.join(tmp, f"patterns-{ranks}.json")
            with open(pat_file, "w") as f:
                json.dump({"dropin_patterns": {"ranks": ranks, "patterns": pats}}, f)
            algs = (a.large_algorithms or LARGE_ALGORITHMS) if large else algorithms
            run_calls = (a.large_calls or LARGE_CALLS) if large else calls
            for kind in kinds:
                send, recv, backbone = platform(kind, ranks, a.seed)
                xml = os.path.join(tmp, f"{kind}-{ranks}.xml")
                hosts = os.path.join(tmp, f"hosts-{ranks}.txt")
                write_platform(xml, hosts, send, recv, backbone)
                plat = os.path.join(tmp, f"{kind}-{ranks}-redist.json")
                write_redist_platform(plat, send, recv, backbone, share)
                for alg in ([] if a.only else algs):
                    jobs.append((ranks, kind, alg, xml, hosts, pat_file, plat, run_calls))
                if not large and not a.no_lookup and not a.only:
                    jobs.append((ranks, kind, LOOKUP, xml, hosts, pat_file, plat, run_calls))
                for mode in ("redist", AUTO) if with_redist else ():
                    if a.only in (None, mode):
                        jobs.append((ranks, kind, mode, xml, hosts, pat_file, plat, run_calls))

        def report_path(kind, ranks, mode):
            return os.path.realpath(os.path.join(a.out,
                                                 f"dropin_report_{kind}_{ranks}_{mode}.json"))

        def run_job(job):
            ranks, kind, alg, xml, hosts, pat_file, plat, run_calls = job
            args = ["--patterns", pat_file, "--calls", str(run_calls), "--datatype", a.datatype]
            env = None
            if alg in ("redist", AUTO):
                mode = "always" if alg == "redist" else "auto"
                args += ["--alltoallv", "redist", "--report", report_path(kind, ranks, mode)]
                env = {"REDIST_PLATFORM": plat, "REDIST_ALLTOALLV": mode}
                run_cfg = cfg + " --cfg=smpi/alltoallv:default"
            elif alg == LOOKUP:
                args.append("--lookup")
                run_cfg = cfg + " --cfg=smpi/alltoallv:default"
            else:
                run_cfg = cfg + f" --cfg=smpi/alltoallv:{alg}"
            return smpirun(build, xml, hosts, args, run_cfg, env)

        with concurrent.futures.ThreadPoolExecutor(max_workers=max(1, a.jobs)) as pool:
            futures = {pool.submit(run_job, job): job for job in jobs}
            for fut in concurrent.futures.as_completed(futures):
                ranks, kind, alg = futures[fut][:3]
                try:
                    rows, wall = fut.result()
                except (RuntimeError, subprocess.TimeoutExpired) as e:
                    failures.append({"ranks": ranks, "platform": kind, "algorithm": alg,
                                     "error": str(e)[-600:]})
                    log(f"{ranks} {kind} {alg}: FAILED {str(e)[-300:]}")
                    continue
                runs.append({"ranks": ranks, "platform": kind, "algorithm": alg,
                             "wall_seconds": round(wall, 2)})
                if alg in ("redist", AUTO):
                    add_planning(rows, report_path(kind, ranks,
                                                   "always" if alg == "redist" else "auto"))
                for r in rows:
                    results.setdefault((ranks, kind, r["pattern"]), {})[alg] = r
                log(f"{ranks} {kind} {alg}: {wall:.1f} s wall, "
                    + ", ".join(f"{r['pattern']} {r['seconds'] * 1e3:.2f} ms" for r in rows))
    order = lambda k: (k[0], PLATFORMS.index(k[1]), PATTERNS.index(k[2]))
    results = {k: results[k] for k in sorted(results, key=order)}
    every = list(dict.fromkeys(algorithms + (a.large_algorithms or LARGE_ALGORITHMS)))
    rows, summary = summarize(results, every, with_redist)
    meta = {"simgrid": simgrid_version(), "seed": a.seed, "calls": calls,
            "large": {"ranks": LARGE, "calls": a.large_calls or LARGE_CALLS,
                      "algorithms": a.large_algorithms or LARGE_ALGORITHMS,
                      "patterns": a.large_patterns or LARGE_PATTERNS},
            "datatype": a.datatype, "crosstraffic": not a.no_crosstraffic,
            "computation_simulated": a.simulate_computation, "bandwidth_share": share,
            "quick": a.quick}
    shown = [alg for alg in every if any(alg in r["seconds"] for r in rows)]
    # Every measurement as it came (cells of a run of one mode only, --only, have no row): what
    # --merge reads.
    cells = [{"ranks": k[0], "platform": k[1], "pattern": k[2], "runs": v}
             for k, v in results.items()]
    files = write_outputs(a.out, {**meta, "rows": rows, "summary": summary, "runs": sorted(
        runs, key=lambda r: (r["ranks"], r["platform"], r["algorithm"])), "failures": failures,
        "cells": cells}, shown, with_redist)
    print(json.dumps({"files": files}))
    if failures:
        print(f"{len(failures)} runs failed", file=sys.stderr)
        return 1
    if a.quick:
        print("quick: all runs verified")
    return 0


def write_outputs(out, doc, shown, with_redist):
    """Writes dropin_smpi.json (`doc`), .md (its table, also printed) and .svg into `out`; returns
    their paths."""
    os.makedirs(out, exist_ok=True)
    files = [os.path.join(out, f) for f in ("dropin_smpi.json", "dropin_smpi.md",
                                             "dropin_smpi.svg")]
    meta = {k: v for k, v in doc.items() if k not in ("rows", "summary", "runs", "failures",
                                                      "merged_from", "cells")}
    with open(files[0], "w") as f:
        json.dump(doc, f, indent=1)
        f.write("\n")
    table = markdown(doc["rows"], doc["summary"], shown, with_redist, meta)
    with open(files[1], "w") as f:
        f.write(table)
    with open(files[2], "w") as f:
        f.write(svg_figure(doc["rows"], shown, with_redist))
    print(table, end="")
    return files


def cells_of_rows(rows):
    """The cells summarize() reads, from a dropin_smpi.json's rows."""
    cells = {}
    for r in rows:
        cell = cells.setdefault((r["ranks"], r["platform"], r["pattern"]), {})
        for alg, t in r["seconds"].items():
            cell[alg] = {"seconds": t, "bytes": r["megabytes"] * 1e6, "calls": r["calls"]}
        if "lookup_seconds" in r:
            cell[LOOKUP] = {"seconds": r["lookup_seconds"]}
        if "redist_seconds" in r:
            cell["redist"] = {"seconds": r["redist_seconds"], "calls": r["calls"],
                              "planning_seconds": r.get("planning_seconds"),
                              "call_seconds": r.get("redist_call_seconds")}
            if "bound_seconds" in r:
                cell["redist"]["lower_bound_seconds"] = r["bound_seconds"] / r["calls"]
        if "auto_seconds" in r:
            cell[AUTO] = {"seconds": r["auto_seconds"], "choice": r.get("auto_choice")}
    return cells


def redraw(path, out):
    """Writes dropin_smpi.svg into `out` from the rows of the dropin_smpi.json at `path`."""
    with open(path) as f:
        rows = json.load(f)["rows"]
    with_redist = any("redist_seconds" in r for r in rows)
    os.makedirs(out, exist_ok=True)
    with open(os.path.join(out, "dropin_smpi.svg"), "w") as f:
        f.write(svg_figure(rows, ALGORITHMS, with_redist))
    return 0


def merge(files, out):
    results, meta, runs = {}, None, []
    for path in files:
        with open(path) as f:
            doc = json.load(f)
        meta = meta or {k: v for k, v in doc.items() if k not in ("rows", "summary", "runs",
                                                                   "failures", "cells")}
        runs += doc.get("runs", [])
        if "cells" in doc:
            measured = {(c["ranks"], c["platform"], c["pattern"]): c["runs"] for c in doc["cells"]}
        else:  # a file written before the cells were kept: what its rows say
            measured = cells_of_rows(doc["rows"])
        for key, cell in measured.items():
            results.setdefault(key, {}).update(cell)
    order = lambda k: (k[0], PLATFORMS.index(k[1]), PATTERNS.index(k[2]))
    results = {k: results[k] for k in sorted(results, key=order)}
    every = list(dict.fromkeys(ALGORITHMS))
    with_redist = any("redist" in c for c in results.values())
    rows, summary = summarize(results, every, with_redist)
    shown = [alg for alg in every if any(alg in r["seconds"] for r in rows)]
    cells = [{"ranks": k[0], "platform": k[1], "pattern": k[2], "runs": v}
             for k, v in results.items()]
    write_outputs(out, {**meta, "merged_from": [os.path.basename(p) for p in files],
                        "rows": rows, "summary": summary, "runs": runs, "failures": [],
                        "cells": cells}, shown, with_redist)
    return 0


if __name__ == "__main__":
    sys.exit(main())
