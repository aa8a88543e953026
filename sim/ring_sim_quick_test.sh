#!/usr/bin/env bash
# `redist experiment ring-sim --quick` (docs/ring-sim.md): runs it and checks its summary: every
# scheme at every ratio of both axes for both ring sizes, the paper's axis (ratios 1, 3, 10, the
# average cost of a redistribution measured on every scenario and network) again with small speed
# changes (amplitude 1.3), the model-faithful
# network's redistributions within 1% of the planner's makespans, no run shorter than the oracle's,
# the figures well-formed SVG.
# Usage: ring_sim_quick_test.sh REDIST
set -euo pipefail
redist=$1
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
"$redist" experiment ring-sim --quick --format json --out "$out" > "$out/stdout.json" 2> "$out/stderr.txt"
grep -q '^ring-sim: 20/20 scenarios' "$out/stderr.txt" || { echo "FAIL: no progress"; exit 1; }
python3 - "$out" <<'PY'
import json, sys, xml.dom.minidom
out = sys.argv[1]
s = json.load(open(out + "/summary.json"))
assert s == {k: v for k, v in json.load(open(out + "/stdout.json")).items() if k not in ("files", "seconds")}
assert s["experiment"] == "ring-sim" and s["seed"] == 1 and s["instances"] == 2, s
s = s["results"]
assert s["ring_sizes"] == [8, 32], s["ring_sizes"]
# The paper's axis: 1..10 (quick: three of them), redistribution over iteration.
assert s["ratios"] == [1, 10], s["ratios"]
assert s["axis"].startswith("ratio = A / I") and s["amplitude"] == 8, s["axis"]
assert s["wide"]["ratios"] == [0.01, 1] and s["wide"]["axis"].startswith("rho = I / T_ref")
small = s["small_amplitude"]
assert small["amplitude"] == 1.3 and small["ratios"] == s["ratios"] and small["axis"] == s["axis"]
assert len(s["schemes"]) == 8 and "oracle" in s["schemes"] and "replay" in s["schemes"]
for table, ratios in ((s, s["ratios"]), (s["wide"], s["wide"]["ratios"]), (small, small["ratios"])):
    for key in ("normalized_time", "time_over_oracle"):
        for scheme in s["schemes"]:
            for p in ("8", "32"):
                values = table[key][scheme][p]
                assert len(values) == len(ratios) and all(v > 0 for v in values), (key, scheme, p)
        assert all(v == 1 for p in ("8", "32") for v in table[key]["never" if key == "normalized_time" else "oracle"][p])
# Every scenario had redistributions to average; on the model-faithful network they last their
# plans, on the Tiers routes longer.
for calibration in (s["calibration"]["tiers"], s["calibration"]["model"], small["calibration"]["tiers"]):
    for p in ("8", "32"):
        c = calibration[p]
        assert c["redistributions_averaged"] >= 1 and 0 < c["min"] <= c["average_over_reference"] <= c["max"], (p, c)
for p in ("8", "32"):
    assert s["calibration"]["tiers"][p]["average_over_reference"] > s["calibration"]["model"][p]["average_over_reference"]
model = s["redistribution_vs_model"]
assert model["redistributions"] > 100 and abs(model["max"] - 1) < 0.01 and abs(model["min"] - 1) < 0.01, model
check = s["oracle_check"]
# Per sweep: networks x ring sizes x 2 scenarios x ratios x 8 schemes.
assert check["runs"] == (2 * 2 * 2 * (len(s["ratios"]) + len(s["wide"]["ratios"])) + 2 * 2 * len(small["ratios"])) * 8, check
assert check["runs_below_oracle"] == 0, check
for figure in ("ring_sim_figure13.svg", "ring_sim_figure14.svg", "ring_sim_wide_p8.svg",
               "ring_sim_wide_p32.svg", "ring_sim_figure13_small.svg", "ring_sim_figure14_small.svg"):
    xml.dom.minidom.parse(out + "/" + figure)
for table in ("ring_sim_normalized", "ring_sim_vs_oracle", "ring_sim_wide_normalized",
              "ring_sim_wide_vs_oracle", "ring_sim_small_normalized", "ring_sim_small_vs_oracle"):
    json.load(open(out + "/" + table + ".json"))
print("PASS: ring-sim quick,", model["redistributions"], "model-faithful redistributions, max",
      model["max"], "of the plan")
PY
