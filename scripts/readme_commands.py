#!/usr/bin/env python3
"""Runs every command the README shows for the built programs, as written, as a user would from a
fresh checkout: each line of the README's ```sh blocks that starts with `build/` or `mpirun` runs
in bash, in a scratch directory that holds the checkout's files (links to them) and `build/` (a
link to BUILD_DIR), so that the files the commands write land there. A command passes when it
exits 0. The lines that run scripts/ are the README's two commands, run by CI itself, and the
SMPI scripts are tests of their own (apps/redist-mpi/, examples/): they are not run again here. A
command of a program the build does not have (SimGrid programs without SimGrid) is reported as
skipped.

Usage: readme_commands.py SOURCE_DIR BUILD_DIR
"""
import os
import pathlib
import re
import subprocess
import sys
import tempfile

# OpenMPI refuses root, and more ranks than cores, unless told otherwise: the README says so and
# its mpirun lines carry the flags; these variables only keep the runtime quiet in containers.
MPI_ENVIRONMENT = {"OMPI_MCA_btl": "self,vader,tcp"}


def readme_commands(readme):
    """The runnable lines of the README's sh blocks, with their line numbers."""
    inside = False
    for number, line in enumerate(readme.read_text().splitlines(), 1):
        if line.startswith("```"):
            inside = line.strip() == "```sh"
            continue
        if inside and (line.startswith("build/") or line.startswith("mpirun ")):
            yield number, line


def program_of(command):
    """The build/ program a command runs (after mpirun's options when there are some)."""
    match = re.search(r"(build/[\w./-]+)", command)
    return match.group(1) if match else None


def scratch_checkout(source, build, where):
    for entry in source.iterdir():
        if entry.name.startswith("build") or entry.name == ".git":
            continue
        (where / entry.name).symlink_to(entry)
    (where / "build").symlink_to(build)


def main():
    if len(sys.argv) != 3:
        raise SystemExit(__doc__)
    source, build = pathlib.Path(sys.argv[1]).resolve(), pathlib.Path(sys.argv[2]).resolve()
    failures = 0
    with tempfile.TemporaryDirectory() as scratch:
        where = pathlib.Path(scratch)
        scratch_checkout(source, build, where)
        environment = dict(os.environ, **MPI_ENVIRONMENT)
        for number, command in readme_commands(source / "README.md"):
            program = program_of(command)
            if program and not (where / program).exists():
                print(f"skip README.md:{number}: {program} is not built")
                continue
            result = subprocess.run(["bash", "-o", "pipefail", "-c", command], cwd=where,
                                    env=environment, capture_output=True, text=True,
                                    timeout=900)
            status = "ok  " if result.returncode == 0 else "FAIL"
            print(f"{status} README.md:{number}: {command}")
            if result.returncode != 0:
                failures += 1
                print(f"  exit {result.returncode}\n{result.stdout[-2000:]}{result.stderr[-2000:]}")
    print(f"{failures} failing command(s)")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
