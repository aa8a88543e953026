#!/usr/bin/env bash
# `redist experiment ring-sim --quick` (docs/ring-sim.md): runs it and checks its summary: every
# scheme at every ratio for both ring sizes, the model-faithful network's redistributions within
# 1% of the planner's makespans, no run shorter than the oracle's, the figures well-formed SVG.
# Usage: ring_sim_quick_test.sh REDIST
set -euo pipefail
redist=$1
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
"$redist" experiment ring-sim --quick --out "$out" > "$out/stdout.json" 2> "$out/stderr.txt"
grep -q '^ring-sim: 8/8 scenarios' "$out/stderr.txt" || { echo "FAIL: no progress"; exit 1; }
python3 - "$out" <<'PY'
import json, sys, xml.dom.minidom
out = sys.argv[1]
s = json.load(open(out + "/summary.json"))
assert s == {k: v for k, v in json.load(open(out + "/stdout.json")).items() if k != "files"}
assert s["experiment"] == "ring-sim" and s["seed"] == 1 and s["instances"] == 2, s
s = s["results"]
assert s["ring_sizes"] == [8, 32], s["ring_sizes"]
assert len(s["schemes"]) == 8 and "oracle" in s["schemes"] and "replay" in s["schemes"]
for scheme in s["schemes"]:
    for p in ("8", "32"):
        values = s["normalized_time"][scheme][p]
        assert len(values) == len(s["ratios"]) and all(v > 0 for v in values), (scheme, p)
model = s["redistribution_vs_model"]
assert model["redistributions"] > 100 and abs(model["max"] - 1) < 0.01 and abs(model["min"] - 1) < 0.01, model
check = s["oracle_check"]
assert check["runs"] == 2 * 2 * 2 * len(s["ratios"]) * 8 and check["runs_below_oracle"] == 0, check
for figure in ("ring_sim_figure13.svg", "ring_sim_figure14.svg"):
    xml.dom.minidom.parse(out + "/" + figure)
print("PASS: ring-sim quick,", model["redistributions"], "model-faithful redistributions, max",
      model["max"], "of the plan")
PY
