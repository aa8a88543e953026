#!/usr/bin/env python3
"""One real mpirun run of redist-calibrate on loopback (ctest entry, apps/redist-mpi/CMakeLists.txt).

Usage: calibrate_run_test.py MPIRUN CALIBRATE SCHEMA NP ARGS...

Runs `mpirun -np NP CALIBRATE ARGS... --out FILE` and passes when it exits 0 with nothing on
standard output or error, and FILE holds one platform document (docs/formats.md, "Platform
file") of NP ranks: bandwidths > 0 (one number, or one per rank), a latency > 0, no backbone
(one host), the calibration info of --bytes and --repetitions, and valid against SCHEMA when the
jsonschema module is there. The same run without --out must print such a document on standard
output, once (rank 0 only).
"""
import json
import os
import pathlib
import subprocess
import sys
import tempfile


def strict_object(pairs):
    keys = [k for k, _ in pairs]
    if len(keys) != len(set(keys)):
        raise ValueError("duplicate key")
    return dict(pairs)


def option(arguments, name, default):
    return int(arguments[arguments.index(name) + 1]) if name in arguments else default


def check(text, np, arguments, schema):
    """The reasons the document is not the expected platform (none: it is)."""
    try:
        document = json.loads(text, object_pairs_hook=strict_object)
    except ValueError as e:
        return [f"not one JSON document ({e}): {text[:300]!r}"]
    problems = []
    platform = document.get("platform", {})
    if set(document) != {"platform"}:
        problems.append(f"top-level members {sorted(document)}")
    if platform.get("ranks") != np:
        problems.append(f"ranks {platform.get('ranks')}, expected {np}")
    for key in ("send_bandwidth", "recv_bandwidth"):
        value = platform.get(key)
        values = value if isinstance(value, list) else [value] * np
        if len(values) != np or not all(isinstance(v, (int, float)) and v > 0 for v in values):
            problems.append(f"{key} {value}")
    if not (isinstance(platform.get("latency"), float) and platform["latency"] > 0):
        problems.append(f"latency {platform.get('latency')}")
    if "backbone" in platform:
        problems.append("a backbone on one host")
    calibration = platform.get("calibration", {})
    want = {"bytes": option(arguments, "--bytes", 1 << 20),
            "repetitions": option(arguments, "--repetitions", 3)}
    if {k: calibration.get(k) for k in want} != want or not calibration.get("seconds", 0) > 0:
        problems.append(f"calibration {calibration}, expected {want} and seconds > 0")
    if schema is not None:
        import jsonschema
        problems += [f"schema: {e.message}" for e in
                     jsonschema.Draft202012Validator(schema).iter_errors(document)]
    return problems


def run(mpirun, calibrate, np, arguments):
    env = dict(os.environ, OMPI_ALLOW_RUN_AS_ROOT="1", OMPI_ALLOW_RUN_AS_ROOT_CONFIRM="1",
               OMPI_MCA_btl="self,vader,tcp", OMPI_MCA_rmaps_base_oversubscribe="1",
               OMPI_MCA_odls_base_sigkill_timeout="0")
    return subprocess.run([mpirun, "-q", "--oversubscribe", "-np", str(np), calibrate]
                          + arguments, capture_output=True, text=True, env=env, timeout=50)


def main():
    mpirun, calibrate, schema_file, np = sys.argv[1:5]
    np, arguments = int(np), sys.argv[5:]
    try:
        import jsonschema  # noqa: F401 (only to know whether it is there)
        schema = json.loads(pathlib.Path(schema_file).read_text())
    except ImportError:
        schema = None
    failures = []
    with tempfile.TemporaryDirectory() as scratch:
        out = pathlib.Path(scratch) / "platform.json"
        done = run(mpirun, calibrate, np, arguments + ["--out", str(out)])
        if done.returncode != 0 or done.stdout or done.stderr:
            failures.append(f"--out: exit {done.returncode}, stdout {done.stdout[:200]!r}, "
                            f"stderr {done.stderr[:500]!r}")
        else:
            print(out.read_text(), end="")
            failures += [f"--out: {p}" for p in check(out.read_text(), np, arguments, schema)]
    done = run(mpirun, calibrate, np, arguments)
    if done.returncode != 0:
        failures.append(f"stdout: exit {done.returncode}, stderr {done.stderr[:500]!r}")
    else:
        failures += [f"stdout: {p}" for p in check(done.stdout, np, arguments, schema)]
    for line in failures:
        print("FAIL", line)
    print("PASS" if not failures else f"{len(failures)} failures")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
