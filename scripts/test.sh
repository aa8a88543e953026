#!/usr/bin/env bash
# Install what is missing, build, and run every test: first the Release build (build/), then the
# same suite plus bounded fuzzer runs in an ASan + UBSan build with clang 14 (build-asan/, see
# docs/fuzzing.md), both with warnings as errors. REDIST_SKIP_SANITIZE=1 runs the Release build
# only.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh
scripts/build.sh -DREDIST_WERROR=ON
if [ -d build/python/redist ]; then  # installed by build.sh: found without PYTHONPATH
  (cd / && env -u PYTHONPATH python3 -c "import redist, sys; sys.exit(not redist.ring)")
fi
ctest --test-dir build --output-on-failure --parallel "$(nproc)" --timeout 1500

if [ "${REDIST_SKIP_SANITIZE:-0}" = 1 ]; then exit 0; fi
scripts/build-asan.sh -DREDIST_WERROR=ON
# Leak checking stays on for redist's own code (OpenMPI's allocations kept until exit are
# suppressed); the reports go through llvm-symbolizer.
export ASAN_OPTIONS="${ASAN_OPTIONS:-abort_on_error=1:detect_leaks=1}"
export LSAN_OPTIONS="${LSAN_OPTIONS:-suppressions=$PWD/scripts/lsan-openmpi.supp:print_suppressions=0}"
export UBSAN_OPTIONS="${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}"
export ASAN_SYMBOLIZER_PATH="${ASAN_SYMBOLIZER_PATH:-$(command -v llvm-symbolizer-14 || command -v llvm-symbolizer || true)}"
ctest --test-dir build-asan --output-on-failure --parallel "$(nproc)" --timeout 1500
