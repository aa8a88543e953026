#!/usr/bin/env python3
"""Checks the layering of the core library (docs/library.md).

Every folder of src/redist may include, besides its own headers and the standard and third-party
ones, only the headers of the folders it declares as dependencies in src/redist/CMakeLists.txt,
which CMake writes to BUILD/layering.txt as lines `folder:dep1 dep2`. Tests (*_test.cpp) may
include anything. The public headers (src/redist/*.hpp) are above the families: a family
includes only its own (redist/lau.hpp in lau/); api, which implements their JSON entry points, and
text, which summarises what they return, include them all. io (JSON reading and writing) includes
no public header and nothing of text. Also: no code outside the tests looks for `"valid": true` in
a text (a face takes the typed verdict). Prints every offending include and exits 1 when there is one.

Usage: check_layering.py SRC_REDIST_DIR LAYERING_TXT
"""
import pathlib
import re
import sys

INCLUDE = re.compile(r'^\s*#\s*include\s+"([^"]+)"')


def allowed_table(path):
    table = {}
    for line in pathlib.Path(path).read_text().splitlines():
        if not line.strip():
            continue
        folder, _, deps = line.partition(":")
        table[folder] = set(filter(None, re.split(r"[; ]+", deps)))
    return table


def offences(root, table):
    for folder, deps in sorted(table.items()):
        for source in sorted((root / folder).glob("*.[ch]pp")):
            if source.name.endswith("_test.cpp"):
                continue
            for number, line in enumerate(source.read_text().splitlines(), 1):
                match = INCLUDE.match(line)
                if not match:
                    continue
                parts = match.group(1).split("/")
                if parts[0] != "redist":
                    yield f"{source}:{number}: includes {match.group(1)} (outside the core)"
                elif len(parts) == 2:
                    if folder not in ("api", "text") and parts[1] != folder + ".hpp":
                        yield f"{source}:{number}: includes the public header {match.group(1)}"
                elif parts[1] != folder and parts[1] not in deps:
                    yield (f"{source}:{number}: {folder}/ includes {match.group(1)}, but "
                           f"declares only {sorted(deps) or 'nothing'}")


VERDICT_TEXT = re.compile(r'\\?"valid\\?":\s*true')


def verdicts_read_from_text(root):
    """Code (not comments, not tests) that looks for `"valid": true` in a text: a face must take
    the typed verdict (CheckResult.valid), never search the output it printed. Scans the core and
    the programs next to it (apps/, sim/, examples/)."""
    project = root.parent.parent
    for folder in [root, project / "apps", project / "sim", project / "examples"]:
        for source in sorted(folder.rglob("*.[ch]pp")):
            if source.name.endswith("_test.cpp"):
                continue
            for number, line in enumerate(source.read_text().splitlines(), 1):
                code = line.split("//", 1)[0]
                if VERDICT_TEXT.search(code):
                    yield f"{source}:{number}: reads a verdict from text (use CheckResult.valid)"


def main():
    root, table = pathlib.Path(sys.argv[1]), allowed_table(sys.argv[2])
    found = list(offences(root, table)) + list(verdicts_read_from_text(root))
    for offence in found:
        print(offence)
    folders = {p.name for p in root.iterdir() if p.is_dir()}
    undeclared = folders - set(table)
    for folder in sorted(undeclared):
        print(f"{root / folder}: a folder without declared dependencies")
    if found or undeclared:
        return 1
    print(f"layering: {len(table)} folders include only what they declare")
    return 0


if __name__ == "__main__":
    sys.exit(main())
