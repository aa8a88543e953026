// `redist demo`: plans the bundled heterogeneous example (or --instance FILE), prints a readable
// summary (makespan, lower bounds, who sends what to whom) and writes a Gantt chart.
#include <iostream>
#include <memory>

#include <fmt/format.h>

#include "apps/redist/cli.hpp"
#include "demo_instance.hpp"
#include "redist/io/ring_json.hpp"
#include "redist/ring/planner.hpp"
#include "redist/ring/validate.hpp"
#include "redist/svg/ring_gantt.hpp"
#include "redist/text/ring_summary.hpp"

namespace redist::cli {

namespace {

struct DemoOptions {
  std::string instance;  // empty: the bundled example
  std::string gantt = "redist-demo.svg";
  std::string algorithm = "auto";
};

int run_demo(const DemoOptions& o) {
  const std::string text =
      o.instance.empty() ? std::string(kDemoInstanceJson) : read_input(o.instance, "instance");
  const ring::Instance in = read_instance_as("ring", "plan", text, [](const std::string& t) {
    return io::read_ring_instance(io::parse_document(t));
  });
  const std::string advice = "the demo prints and draws every run; use `redist ring plan` for it";
  svg::require_gantt_size(in.size(), 0, "instance", advice);
  const ring::Schedule s = ring::plan(in, {o.algorithm});
  svg::require_gantt_size(in.size(), s.transfers.size(), "instance", advice);
  const CheckResult verdict = ring::check(in, s);
  write_text_file(o.gantt, svg::ring_gantt_svg(in, s, "redist demo"), "--gantt");
  const std::string source =
      o.instance.empty() ? "bundled example data/examples/demo-ring.json" : o.instance;
  print_result(text::ring_summary(in, s, verdict, "redist demo", source) +
               fmt::format("\nGantt chart written to {}\n", o.gantt));
  return verdict.valid ? 0 : 1;
}

}  // namespace

void register_demo_command(CLI::App& app, Action& action) {
  auto options = std::make_shared<DemoOptions>();
  CLI::App* demo = app.add_subcommand(
      "demo", "Plan the bundled example ring, print a summary, draw its Gantt chart");
  demo->add_option("--instance", options->instance, "Plan this ring instance instead");
  demo->add_option("--gantt", options->gantt, "SVG file to write")->capture_default_str();
  demo->add_option("--algorithm,-a", options->algorithm, "Ring algorithm")->capture_default_str();
  demo->callback([&action, options] { action = [options] { return run_demo(*options); }; });
}

}  // namespace redist::cli
