#!/usr/bin/env python3
"""redist-smpi-calibrate on a simulated platform of two clusters (ctest entry, SMPI).

Usage: smpi_calibrate_test.py BUILD_DIR

Runs redist-smpi-calibrate --clusters host under smpirun_redist.sh (SimGrid's CM02 model,
crosstraffic off, so that a link carries its full bandwidth each way) on
testdata/two-clusters-4.xml: NICs of 125 MB/s and 10 us, a backbone of 100 MB/s and 50 us. Passes
when the platform it prints has 4 ranks, every bandwidth within 2% of 125e6 B/s, the latency
within 2% of 70 us (the typical pair crosses the backbone: 10 + 50 + 10 us), and a backbone of
the clusters [[0, 1], [2, 3]] within 2% of 100e6 B/s.
"""
import json
import os
import pathlib
import subprocess
import sys

HERE = pathlib.Path(__file__).resolve().parent


def close(value, want, tolerance=0.02):
    return isinstance(value, (int, float)) and abs(value - want) <= tolerance * want


def problems(platform):
    found = []
    if platform.get("ranks") != 4:
        found.append(f"ranks {platform.get('ranks')}")
    for key in ("send_bandwidth", "recv_bandwidth"):
        value = platform.get(key)
        if not all(close(v, 125e6) for v in (value if isinstance(value, list) else [value])):
            found.append(f"{key} {value}, expected 125e6")
    if not close(platform.get("latency"), 70e-6):
        found.append(f"latency {platform.get('latency')}, expected 7e-05")
    backbone = platform.get("backbone", {})
    if backbone.get("clusters") != [[0, 1], [2, 3]] or not close(backbone.get("bandwidth"), 100e6):
        found.append(f"backbone {backbone}, expected clusters [[0, 1], [2, 3]] and 100e6")
    return found


def main():
    build = pathlib.Path(sys.argv[1]).resolve()
    env = dict(os.environ, REDIST_SMPI_PROGRAM=str(build / "redist-smpi-calibrate"),
               REDIST_SMPI_CFG="--cfg=network/crosstraffic:0")
    done = subprocess.run([str(HERE / "smpirun_redist.sh"), str(build),
                           str(HERE / "testdata/two-clusters-4.xml"),
                           str(HERE / "testdata/two-clusters-4.hosts"), "--clusters", "host"],
                          capture_output=True, text=True, env=env, timeout=100)
    print(done.stdout, end="")
    if done.returncode != 0:
        print(f"FAIL: exit {done.returncode}\n{done.stderr}")
        return 1
    found = problems(json.loads(done.stdout).get("platform", {}))
    for line in found:
        print("FAIL", line)
    print("PASS" if not found else f"{len(found)} failures")
    return 1 if found else 0


if __name__ == "__main__":
    sys.exit(main())
