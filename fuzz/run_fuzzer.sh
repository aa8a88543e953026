#!/usr/bin/env bash
# Runs a libFuzzer target from an empty scratch corpus, so that every run of a test (a fresh clone
# or a build directory reused for weeks) starts from the same inputs: the committed corpus and the
# bundled data. Usage: fuzz/run_fuzzer.sh SCRATCH_DIR FUZZER [libFuzzer arguments...]
set -euo pipefail
scratch=$1 fuzzer=$2
shift 2
rm -rf "$scratch"
mkdir -p "$scratch"
exec "$fuzzer" "$scratch" "$@"
