#!/usr/bin/env bash
# Runs clang-tidy 14 with the repository's .clang-tidy (docs/library.md, "Static analysis") over
# every first-party C++ translation unit of a configured build directory: the compile database's
# sources under src/, apps/, bench/, experiments/, sim/ and python/ (the unity sources of
# apps/redist included), plus fuzz/*.cpp, whose flags clang-tidy infers from the database when the
# fuzzers are not configured. Files given as arguments restrict the run to those files, e.g. the
# changed ones: scripts/tidy.sh $(git diff --name-only main -- '*.cpp')
# Exit status 1 on any finding (.clang-tidy makes every warning an error).
# Usage: [BUILD_DIR=build] [JOBS=nproc] [CLANG_TIDY=clang-tidy-14] scripts/tidy.sh [files...]
# Configure first if needed: cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=Release
set -euo pipefail
cd "$(dirname "$0")/.."
build="${BUILD_DIR:-build}"
jobs="${JOBS:-$(nproc)}"
tidy="${CLANG_TIDY:-clang-tidy-14}"
[ -f "$build/compile_commands.json" ] || {
  echo "tidy.sh: no $build/compile_commands.json; configure first (cmake -S . -B $build -G Ninja)" >&2
  exit 2
}
if [ $# -gt 0 ]; then
  files=("$@")
else
  mapfile -t files < <(python3 - "$build/compile_commands.json" <<'PY'
import glob, json, os, sys
root = os.getcwd()
seen, out = set(), []
for entry in json.load(open(sys.argv[1])):
    path = os.path.normpath(os.path.join(entry["directory"], entry["file"]))
    rel = os.path.relpath(path, root)
    first_party = rel.split(os.sep)[0] in ("src", "apps", "bench", "experiments", "sim", "python")
    unity = "/Unity/unity_" in path  # apps/redist is built as unity sources
    if path.endswith((".cpp", ".cxx")) and (first_party or unity) and path not in seen:
        seen.add(path)
        out.append(path)
out += [os.path.abspath(f) for f in sorted(glob.glob("fuzz/*.cpp")) if os.path.abspath(f) not in seen]
print("\n".join(out))
PY
  )
fi
echo "tidy.sh: ${#files[@]} files, $jobs jobs" >&2
# The test programs force-include a GCC precompiled header (-include .../cmake_pch.hxx, with its
# .gch beside it), which clang cannot read: clang-tidy gets a copy of the compile database whose
# forced includes name copies of those headers, without the .gch.
database="$(mktemp -d)"
trap 'rm -rf "$database"' EXIT
python3 - "$build/compile_commands.json" "$database" <<'PY'
import json, os, re, shutil, sys
entries, out = json.load(open(sys.argv[1])), sys.argv[2]
copies = {}
def copy(match):
    header = match.group(1)
    if header not in copies:
        copies[header] = os.path.join(out, f"pch_{len(copies)}.hxx")
        shutil.copyfile(header, copies[header])
    return "-include " + copies[header]
for entry in entries:
    if "command" in entry:
        entry["command"] = re.sub(r"-include (\S+/cmake_pch\.hxx)", copy, entry["command"])
json.dump(entries, open(os.path.join(out, "compile_commands.json"), "w"))
PY
build="$database"
# Each file's report is printed whole once its run ends, so parallel runs do not interleave.
set +e
printf '%s\n' "${files[@]}" |
  xargs -d '\n' -P "$jobs" -n 1 sh -c \
    'out=$("$0" -p "$1" --quiet "$2" 2>&1); status=$?; [ -z "$out" ] || printf "%s\n" "$out"; exit $status' \
    "$tidy" "$build" 2>&1 |
  grep -v -E '^[0-9]+ warnings? (and [0-9]+ errors? )?generated\.$|^Suppressed [0-9]+ warnings|^Use -header-filter|^[0-9]+ warnings? treated as errors$'
xargs_status="${PIPESTATUS[1]}"
set -e
[ "$xargs_status" -eq 0 ] || exit 1
