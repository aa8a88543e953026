#!/usr/bin/env python3
"""Checks that every SVG file the command-line transcript tests wrote is well-formed XML.

The transcript tests (apps/redist/*_cli_test.sh) copy every .svg file they leave in their scratch
directory to DIR/<script name>/ when REDIST_TEST_SVG_DIR=DIR is set (apps/redist/cli_test_lib.sh).
This parses each with xml.etree and checks that its root is an SVG <svg> element. Prints one line
per bad file and a summary; exits 1 when a file is bad, when a script directory in EXPECTED is
missing or empty (its test did not run or wrote no picture), or when no file is found at all.

Usage: check_svg_files.py DIR [EXPECTED_SCRIPT_NAME...]
"""
import pathlib
import sys
import xml.etree.ElementTree as ET

SVG_ROOT = "{http://www.w3.org/2000/svg}svg"


def problem(path):
    try:
        root = ET.parse(path).getroot()
    except ET.ParseError as e:
        return f"not well-formed: {e}"
    if root.tag != SVG_ROOT:
        return f"root element is {root.tag}, not an SVG <svg>"
    return None


def main(argv):
    if len(argv) < 2:
        print(__doc__.strip().splitlines()[-1], file=sys.stderr)
        return 2
    top = pathlib.Path(argv[1])
    bad = 0
    for name in argv[2:]:
        if not any((top / name).glob("*.svg")):
            print(f"{name}: no SVG file (did its test run?)")
            bad += 1
    files = sorted(top.glob("*/*.svg"))
    for path in files:
        why = problem(path)
        if why:
            print(f"{path.relative_to(top)}: {why}")
            bad += 1
    print(f"{len(files)} SVG files checked, {bad} problems")
    return 1 if bad or not files else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
