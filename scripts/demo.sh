#!/usr/bin/env bash
# The main job: install what is missing, build, plan the bundled example and draw its Gantt chart.
# Only the `redist` program is built (the tests, benchmarks and other programs are left to
# scripts/test.sh, which builds everything in the same build/).
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh
scripts/build.sh --target redist
build/redist demo --gantt redist-demo.svg
