#!/usr/bin/env python3
"""Exchange plans executed on MPI (redist::mpi::Exchange) against MPI_Alltoallv and the
caterpillar, under SimGrid SMPI (docs/exchange.md, "Execution on MPI").

Usage: apps/redist-mpi/smpi_exchange.py BUILD_DIR [--seed S] [--quick] [--out FILE.md]
                                          [--json FILE.json] [--no-crosstraffic]
                                          [--hosts N ...] [--platforms NAME ...]
                                          [--instances FILE.json ...]

Platforms (N hosts, 8 by default, --hosts runs each given N in turn; one-port NICs: every host
has a send link and a receive link that carry one flow at a time, SimGrid's concurrency limit
applied by redist-smpi-oneport.so, as redist-smpi-platform --one-port does; latency 0;
--platforms keeps the named ones):
  heterogeneous  a switch; each NIC's bandwidth (the same both ways) log-uniform in
                 [125 MB/s, 1.25 GB/s] (seeded)
  clusters       two clusters of N/2 hosts (NICs 1 GB/s) joined by a backbone link of N/4 GB/s,
                 shared by the flows that cross it; the instance says `transfers: N/4`
  homogeneous    a switch, every NIC 1 GB/s (the control)
Patterns (bytes moved per node in the MB range; at N = 8 the names read bc-8-8-r1-s3, ...):
  bc-N-N-r1-s3, bc-N-(3N/4)-r4-s5, bc-(N/2)-N-r2-s7   CYCLIC(r) on P -> CYCLIC(s) on Q,
                 2^18 N / 8 elements of 32 bytes (`redist exchange block-cyclic`)
  random         every node sends to 3 random others, bytes log-uniform in [64 KiB, 4 MiB]
  skewed         2 heavy senders send 2 MiB to every other node; the others 128 KiB to 2 others
  rcb-migration  5,000 N particles of 512 bytes repartitioned by recursive coordinate bisection
                 (N parts of equal work) after they drift and their hot spot of work moves
                 (`redist exchange migration` of the two owner maps)
Each instance's bandwidths (and backbone) are the platform's, times the share of its bandwidth a
host gets when it sends and receives at once, measured first (two hosts exchanging 64 MiB each
way: 1/1.05 with acknowledgement traffic, 1 without), as a user calibrates a model with a
bidirectional bandwidth test. Runs: redist (plan `auto`, executed
by mpi::Exchange), alltoallv (one MPI_Alltoallv), caterpillar (n MPI_Sendrecv steps), posted
(Zoltan_Migrate's pattern: every receive posted, then blocking sends in rank order), each once
(SMPI is deterministic), every byte verified. Prints a Markdown table: the times, redist's
measured time over its plan's model makespan, and each baseline's time over redist's; --json writes
the same rows as objects (times in seconds) with the calibrated share. Exit 1 if a
run fails or is not verified. --quick (ctest): the random pattern on the heterogeneous platform
only, smaller messages; passes when every run is verified and redist is within 5% of its model.
--instances: instead of the table, run the given exchange instances (no backbone, latency 0) on a
one-port switch whose NICs are each instance's bandwidths over the calibrated share, by redist,
posted and MPI_Alltoallv; --json writes their rows (same fields, "instance" the file's path).
SMPI settings: smpirun_redist.sh (SMPIRUN overrides the smpirun in PATH). SimGrid models TCP
acknowledgements by default (network/crosstraffic): every flow also loads its reverse route (the
receiver's send link, the sender's receive link) with a small share, so a host that sends while it
receives sends about 5% slower than its NIC; the one-port model (full-duplex NICs) has no such
cost. --no-crosstraffic turns it off (--cfg=network/crosstraffic:0).
"""
import argparse
import json
import math
import os
import random
import subprocess
import sys
import tempfile
import time

HOSTS = 8
KIB, MIB = 1024, 1024 * 1024


def redist_exchange(build, args, stdin=None):
    """(nodes, messages) of an instance printed by `redist exchange ARGS...`."""
    p = subprocess.run([os.path.join(build, "redist"), "exchange", *args], input=stdin,
                       capture_output=True, text=True, check=True)
    doc = json.loads(p.stdout)["exchange"]
    return doc["nodes"], doc["messages"]


def block_cyclic(build, n, b, r, p, s, q):
    """Messages of CYCLIC(r) on p -> CYCLIC(s) on q, as `redist exchange block-cyclic` counts them."""
    return redist_exchange(build, ["block-cyclic", "--elements", str(n), "--element-bytes", str(b),
                                   "--from-block", str(r), "--from-procs", str(p),
                                   "--to-block", str(s), "--to-procs", str(q)])


def rcb(points, weights, ids, parts, first, owner):
    """Recursive coordinate bisection: ids split across the longer extent, at the point where the
    weight on each side is proportional to the parts it gets."""
    if parts == 1:
        for i in ids:
            owner[i] = first
        return
    extent = [max(points[i][a] for i in ids) - min(points[i][a] for i in ids) for a in (0, 1)]
    axis = 0 if extent[0] >= extent[1] else 1
    ids = sorted(ids, key=lambda i: points[i][axis])
    left = parts // 2
    goal, acc, cut = sum(weights[i] for i in ids) * left / parts, 0.0, 0
    while cut < len(ids) - 1 and acc + weights[ids[cut]] <= goal:
        acc += weights[ids[cut]]
        cut += 1
    rcb(points, weights, ids[:cut], left, first, owner)
    rcb(points, weights, ids[cut:], parts - left, first + left, owner)


def migration(build, rng, scale):
    """The migration of a geometric partitioner between two time steps: particles in the unit
    square whose work grows near a hot spot, partitioned by RCB into 8 parts of equal work; between
    the steps the particles drift and the hot spot moves, and the new RCB partition is computed
    from scratch (as a partitioner without incremental mode does). Each particle carries 512
    bytes; `redist exchange migration` turns the two owner maps into the messages."""
    n = int(5000 * HOSTS * scale)
    points = [[rng.random(), rng.random()] for _ in range(n)]
    def owners(spot):
        weights = [1 + 9 * math.exp(-((x - spot[0]) ** 2 + (y - spot[1]) ** 2) / 0.02)
                   for x, y in points]
        owner = [0] * n
        rcb(points, weights, list(range(n)), HOSTS, 0, owner)
        return owner
    before = owners([0.3, 0.3])
    for pt in points:
        pt[0] = min(1.0, max(0.0, pt[0] + rng.gauss(0, 0.01)))
        pt[1] = min(1.0, max(0.0, pt[1] + rng.gauss(0, 0.01)))
    after = owners([0.45, 0.35])
    doc = json.dumps({"old": before, "new": after, "item_bytes": 512})
    return redist_exchange(build, ["migration", "--nodes", str(HOSTS), "-"], stdin=doc)


def random_sparse(rng, scale):
    msgs = []
    for i in range(HOSTS):
        for j in rng.sample([k for k in range(HOSTS) if k != i], 3):
            size = math.exp(rng.uniform(math.log(64 * KIB), math.log(4 * MIB))) * scale
            msgs.append([i, j, max(1, int(size))])
    return HOSTS, msgs


def skewed(rng, scale):
    heavy = rng.sample(range(HOSTS), 2)
    msgs = []
    for i in range(HOSTS):
        others = [k for k in range(HOSTS) if k != i]
        targets = others if i in heavy else rng.sample(others, 2)
        size = 2 * MIB if i in heavy else 128 * KIB
        msgs += [[i, j, int(size * scale)] for j in targets]
    return HOSTS, msgs


def platform(kind, rng):
    """(send bandwidths, receive bandwidths, backbone or None) of the 8 hosts."""
    if kind == "heterogeneous":
        nic = [math.exp(rng.uniform(math.log(125e6), math.log(1.25e9))) for _ in range(HOSTS)]
        return nic, list(nic), None
    half = HOSTS // 2
    backbone = None
    if kind == "clusters":
        backbone = {"clusters": [list(range(half)), list(range(half, HOSTS))],
                    "transfers": HOSTS // 4, "bandwidth": HOSTS / 4 * 1e9}
    return [1e9] * HOSTS, [1e9] * HOSTS, backbone


def write_platform(path, hosts_path, send, recv, backbone):
    n = len(send)
    out = ["<?xml version='1.0'?>",
           '<!DOCTYPE platform SYSTEM "https://simgrid.org/simgrid.dtd">',
           '<platform version="4.1">', '  <zone id="switch" routing="Full">']
    out += [f'    <host id="p{i}" speed="1Gf"/>' for i in range(n)]
    for i in range(n):
        for port, bw in (("send", send[i]), ("recv", recv[i])):
            out.append(f'    <link id="{port}{i}" bandwidth="{bw!r}Bps" latency="0s">'
                       '<prop id="concurrency_limit" value="1"/></link>')
    cluster = [0] * n
    if backbone:
        out.append(f'    <link id="backbone" bandwidth="{backbone["bandwidth"]!r}Bps" latency="0s"/>')
        for node in backbone["clusters"][1]:
            cluster[node] = 1
    for i in range(n):
        for j in range(n):
            if i == j:
                continue
            via = '<link_ctn id="backbone"/>' if backbone and cluster[i] != cluster[j] else ""
            out.append(f'    <route src="p{i}" dst="p{j}" symmetrical="NO"><link_ctn id="send{i}"/>'
                       f'{via}<link_ctn id="recv{j}"/></route>')
    out += ["  </zone>", "</platform>"]
    with open(path, "w") as f:
        f.write("\n".join(out) + "\n")
    with open(hosts_path, "w") as f:
        f.write("".join(f"p{i}\n" for i in range(n)))


def write_instance(path, nodes, msgs, send, recv, backbone):
    doc = {"nodes": nodes, "messages": msgs, "send_bandwidth": send[:nodes],
           "recv_bandwidth": recv[:nodes], "latency": 0}
    if backbone:
        doc["backbone"] = {"clusters": backbone["clusters"], "transfers": backbone["transfers"]}
    with open(path, "w") as f:
        json.dump({"exchange": doc}, f)


def run(build, here, xml, hosts, instance, strategy, cfg):
    env = dict(os.environ, REDIST_SMPI_PROGRAM=os.path.join(build, "redist-smpi-exchange"),
               REDIST_SMPI_CFG=cfg)
    cmd = [os.path.join(here, "smpirun_redist.sh"), build, xml, hosts, "--one-port-platform",
           "--instance", instance, "--strategy", strategy]
    p = subprocess.run(cmd, env=env, capture_output=True, text=True, timeout=600)
    for line in p.stdout.splitlines():
        if line.startswith("{"):
            result = json.loads(line)
            if result.get("verified"):
                return result
    raise RuntimeError(f"{strategy} failed: {p.stdout[-300:]} {p.stderr[-600:]}")


def calibrate(build, here, tmp, cfg):
    """The share of a NIC's bandwidth a host gets when it sends and receives at once: two hosts of
    1 GB/s exchange 64 MiB each way (one MPI_Alltoallv), bandwidth = bytes / time / 1 GB/s."""
    size = 64 * MIB
    xml, hosts, inst = (os.path.join(tmp, f) for f in ("pair.xml", "pair.txt", "pair.json"))
    write_platform(xml, hosts, [1e9, 1e9], [1e9, 1e9], None)
    write_instance(inst, 2, [[0, 1, size], [1, 0, size]], [1e9, 1e9], [1e9, 1e9], None)
    seconds = run(build, here, xml, hosts, inst, "alltoallv", cfg)["measured_seconds"]
    return size / seconds / 1e9


def row(kind, name, msgs, r):
    """The table's fields for one platform and pattern (times in seconds)."""
    red = r["redist"]
    t = {s: r[s]["measured_seconds"] for s in r}
    return {"ranks": HOSTS, "platform": kind, "pattern": name,
            "megabytes": sum(m[2] for m in msgs) / 1e6,
            "lower_bound": red["lower_bound"], "algorithm": red["algorithm"],
            "pieces": red["pieces"], "model": red["model_makespan"], "redist": t["redist"],
            "alltoallv": t["alltoallv"], "caterpillar": t["caterpillar"], "posted": t["posted"],
            "redist_over_model": t["redist"] / red["model_makespan"],
            "alltoallv_over_redist": t["alltoallv"] / t["redist"],
            "caterpillar_over_redist": t["caterpillar"] / t["redist"],
            "posted_over_redist": t["posted"] / t["redist"]}


def markdown(f):
    """One Markdown table line of row() `f` (milliseconds)."""
    return (f"| {f.get('ranks', 8)} | {f['platform']} | {f['pattern']} | {f['megabytes']:.1f} "
            f"| {f['lower_bound'] * 1e3:.3f} | {f['algorithm']} ({f['pieces']} pieces) "
            f"| {f['model'] * 1e3:.3f} | {f['redist'] * 1e3:.3f} | {f['redist_over_model']:.4f} "
            f"| {f['alltoallv'] * 1e3:.3f} | {f['caterpillar'] * 1e3:.3f} "
            f"| {f['posted'] * 1e3:.3f} | {f['alltoallv_over_redist']:.3f} "
            f"| {f['caterpillar_over_redist']:.3f} | {f['posted_over_redist']:.3f} |")


def patterns(build, rng, quick):
    if quick:
        return [("random", random_sparse(rng, 1 / 16))]
    n, elements = HOSTS, (1 << 18) * HOSTS // 8
    return [(f"bc-{n}-{n}-r1-s3", block_cyclic(build, elements, 32, 1, n, 3, n)),
            (f"bc-{n}-{3 * n // 4}-r4-s5", block_cyclic(build, elements, 32, 4, n, 5, 3 * n // 4)),
            (f"bc-{n // 2}-{n}-r2-s7", block_cyclic(build, elements, 32, 2, n // 2, 7, n)),
            ("random", random_sparse(rng, 1.0)),
            ("skewed", skewed(rng, 1.0)),
            ("rcb-migration", migration(build, rng, 1.0))]


def run_instances(build, here, tmp, cfg, share, paths):
    """Rows of the given instances (the NICs: their bandwidths / share)."""
    rows = []
    for path in paths:
        with open(path) as f:
            doc = json.load(f)["exchange"]
        if doc.get("backbone") or doc.get("latency", 0) != 0:
            raise RuntimeError(f"{path}: only instances without backbone or latency are run")
        nodes, msgs = doc["nodes"], doc["messages"]
        band = lambda key: [b / share for b in doc[key]] if isinstance(doc[key], list) \
            else [doc[key] / share] * nodes
        xml, hosts = os.path.join(tmp, "given.xml"), os.path.join(tmp, "given.txt")
        write_platform(xml, hosts, band("send_bandwidth"), band("recv_bandwidth"), None)
        r = {s: run(build, here, xml, hosts, path, s, cfg)
             for s in ("redist", "alltoallv", "posted")}
        r["caterpillar"] = r["posted"]  # not run: row() needs a value
        f = row("given", os.path.basename(path), msgs, r)
        del f["caterpillar"], f["caterpillar_over_redist"]
        f["instance"] = path
        rows.append(f)
        print(f"{path}: redist / model {f['redist_over_model']:.4f}, "
              f"posted / redist {f['posted_over_redist']:.3f}", file=sys.stderr, flush=True)
    return rows


def main():
    global HOSTS
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("build")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--quick", action="store_true")
    ap.add_argument("--out")
    ap.add_argument("--json")
    ap.add_argument("--instances", nargs="+")
    ap.add_argument("--no-crosstraffic", action="store_true")
    ap.add_argument("--hosts", type=int, nargs="+", default=[HOSTS])
    ap.add_argument("--platforms", nargs="+",
                    choices=["heterogeneous", "clusters", "homogeneous"])
    a = ap.parse_args()
    if any(h < 8 or h % 8 for h in a.hosts):
        ap.error("--hosts: multiples of 8, at least 8")
    cfg = "--cfg=network/crosstraffic:0" if a.no_crosstraffic else ""
    build, here = os.path.realpath(a.build), os.path.dirname(os.path.realpath(__file__))
    rows = ["| ranks | platform | pattern | MB moved | bound (ms) | redist plan | model (ms) | redist (ms) "
            "| redist / model | MPI_Alltoallv (ms) | caterpillar (ms) | posted (ms) "
            "| Alltoallv / redist | caterpillar / redist | posted / redist |",
            "|---:|---|---|---:|---:|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|"]
    status, worst, fields = 0, 0.0, []
    kinds = ["heterogeneous"] if a.quick else ["heterogeneous", "clusters", "homogeneous"]
    if a.platforms:
        kinds = [k for k in kinds if k in a.platforms]
    with tempfile.TemporaryDirectory() as tmp:
        share = calibrate(build, here, tmp, cfg)
        print(f"bandwidth when sending and receiving at once: {share:.4f} of the NIC's",
              file=sys.stderr)
        if a.instances:
            fields = run_instances(build, here, tmp, cfg, share, a.instances)
            if a.json:
                with open(a.json, "w") as f:
                    json.dump({"crosstraffic": not a.no_crosstraffic, "bandwidth_share": share,
                               "rows": fields}, f, indent=1)
                    f.write("\n")
            return 0
        for HOSTS, kind in [(h, k) for h in a.hosts for k in kinds]:
            rng = random.Random(a.seed)
            send, recv, backbone = platform(kind, rng)
            xml, hosts = os.path.join(tmp, f"{kind}.xml"), os.path.join(tmp, "hosts.txt")
            for name, (nodes, msgs) in patterns(build, random.Random(a.seed * 1000 + 7), a.quick):
                inst = os.path.join(tmp, f"{kind}-{name}.json")
                write_platform(xml, hosts, send[:nodes], recv[:nodes], backbone)
                write_instance(inst, nodes, msgs, [b * share for b in send],
                               [b * share for b in recv], backbone)
                started = time.monotonic()
                try:
                    r = {s: run(build, here, xml, hosts, inst, s, cfg)
                         for s in ("redist", "alltoallv", "caterpillar", "posted")}
                except (RuntimeError, subprocess.TimeoutExpired) as e:
                    rows.append(f"| {HOSTS} | {kind} | {name} | FAILED: {e} |")
                    status = 1
                    continue
                f = row(kind, name, msgs, r)
                f["wall_seconds"] = time.monotonic() - started
                worst = max(worst, abs(f["redist_over_model"] - 1))
                fields.append(f)
                line = markdown(f)
                rows.append(line)
                print(line, file=sys.stderr, flush=True)
    table = "\n".join(rows) + "\n"
    print(table, end="")
    if a.out:
        with open(a.out, "w") as f:
            f.write(table)
    if a.json:
        with open(a.json, "w") as f:
            json.dump({"crosstraffic": not a.no_crosstraffic, "seed": a.seed,
                       "bandwidth_share": share, "rows": fields}, f, indent=1)
            f.write("\n")
    print(f"largest |redist / model - 1|: {worst:.4f}")
    if status == 0 and a.quick and worst <= 0.05:
        print("quick: all runs verified, redist within 5% of its model")
    return status


if __name__ == "__main__":
    sys.exit(main())
