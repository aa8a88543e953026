#include "sim/ring_sim_report.hpp"

#include <algorithm>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "redist/text/summary.hpp"

namespace redist::sim {

namespace {

using Json = nlohmann::ordered_json;

Json run_json(const SimulatedRun& r) {
  Json rebalances = Json::array();
  for (const SimulatedRebalance& b : r.rebalances) {
    rebalances.push_back({{"after_iteration", b.after_iteration},
                          {"planned", b.planned},
                          {"simulated", b.simulated}});
  }
  return {{"ratio", r.ratio},
          {"scheme", r.scheme},
          {"policy", r.policy},
          {"flops_per_column", r.flops_per_column},
          {"iteration_time", r.iteration_time},
          {"total_time", r.total},
          {"compute_time", r.compute},
          {"redistribution_time", r.redistribution},
          {"model_total_time", r.model_total},
          {"rebalances", rebalances}};
}

Json scenario_json(const RingSimReport& s) {
  return {{"seed", s.seed},
          {"processors", s.processors},
          {"mode", s.mode},
          {"axis", s.axis},
          {"amplitude", s.amplitude},
          {"iterations", s.iterations},
          {"columns", s.columns},
          {"column_bytes", s.column_bytes},
          {"reference_redistribution", s.reference_redistribution},
          {"average_redistribution", s.average_redistribution},
          {"redistributions_averaged", s.redistributions_averaged},
          {"ring", s.ring},
          {"chunk_next", s.chunk_next},
          {"chunk_prev", s.chunk_prev}};
}

// Names separated by spaces, at most text::kMaxListed of them, as text::numbers cuts numbers.
std::string names(const std::vector<std::string>& values) {
  std::string out;
  const std::size_t shown = std::min(values.size(), text::kMaxListed);
  for (std::size_t i = 0; i < shown; ++i) out += (i > 0 ? " " : "") + values[i];
  if (shown < values.size()) out += fmt::format(" ... ({} in all)", values.size());
  return out;
}

void describe_scenario(text::Summary& out, const RingSimReport& s) {
  out.line(fmt::format(
      "redist-ring-sim: a ring of {} processors (seed {}) on {}, {} iterations of "
      "{} columns ({} bytes each)",
      s.processors, s.seed,
      s.mode == "model" ? "the model's network (one link per ring link)" : "the Tiers routes",
      s.iterations, s.columns, text::number(s.column_bytes)));
  out.line("  ring      " + names(s.ring));
  out.blank();
  if (s.axis == "paper") {
    out.field("axis",
              "paper's: ratio R = A_red / I (I: the balanced iteration at the first speeds)");
    out.field("A_red",
              s.redistributions_averaged > 0
                  ? fmt::format("{} s (mean simulated duration of {} redistributions)",
                                text::number(s.average_redistribution), s.redistributions_averaged)
                  : fmt::format("{} s (T_ref: the paper's schemes move no column here)",
                                text::number(s.average_redistribution)));
  } else {
    out.field("axis",
              "reference: ratio rho = I / T_ref (I: the balanced iteration at the first "
              "speeds)");
  }
  out.field("T_ref", text::number(s.reference_redistribution) + " s");
  out.field("amplitude", text::number(s.amplitude));
  out.field("messages", fmt::format("columns per message, next: {}; prev: {}",
                                    text::numbers(s.chunk_next), text::numbers(s.chunk_prev)));
}

std::string rebalance_points(const SimulatedRun& r) {
  if (r.rebalances.empty()) return "none";
  std::vector<std::int64_t> after;
  for (const SimulatedRebalance& b : r.rebalances) after.push_back(b.after_iteration);
  return "after " + text::numbers(after);
}

// One table per ratio: its rows are the runs of that ratio, in the order they ran.
void describe_runs(text::Summary& out, const std::vector<SimulatedRun>& runs) {
  const std::size_t shown = std::min(runs.size(), text::kMaxRows);
  for (std::size_t k = 0; k < shown; ++k) {
    const SimulatedRun& r = runs[k];
    if (k == 0 || runs[k - 1].ratio != r.ratio) {
      out.blank();
      out.line(fmt::format("ratio {}: balanced iteration {} s ({} flops per column); times in s",
                           text::number(r.ratio), text::number(r.iteration_time),
                           text::number(r.flops_per_column)));
      out.line(fmt::format("  {:<16}{:>13}{:>13}{:>13}{:>13}  {}", "scheme", "total", "compute",
                           "redistrib.", "model total", "rebalances"));
    }
    out.line(fmt::format("  {:<16}{:>13}{:>13}{:>13}{:>13}  {}", r.scheme, text::number(r.total),
                         text::number(r.compute), text::number(r.redistribution),
                         text::number(r.model_total), rebalance_points(r)));
  }
  out.rows_left_out(shown, runs.size());
}

}  // namespace

std::string ring_sim_json(const RingSimReport& report, bool indent) {
  Json out{{"scenario", scenario_json(report)}, {"runs", Json::array()}};
  for (const SimulatedRun& run : report.runs) out["runs"].push_back(run_json(run));
  return out.dump(indent ? 2 : -1) + "\n";
}

std::string ring_sim_text(const RingSimReport& report) {
  text::Summary out;
  describe_scenario(out, report);
  describe_runs(out, report.runs);
  return out.str();
}

}  // namespace redist::sim
