#!/usr/bin/env bash
# The main job: install what is missing, build, plan the bundled example and draw its Gantt chart.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh
scripts/build.sh
build/redist demo --gantt redist-demo.svg
