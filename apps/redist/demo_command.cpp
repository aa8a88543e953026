// `redist demo`: plans the bundled heterogeneous example (or --instance FILE), prints a readable
// summary (makespan, lower bounds, who sends what to whom) and writes a Gantt chart.
#include <iostream>
#include <memory>

#include <fmt/format.h>

#include "apps/redist/cli.hpp"
#include "demo_instance.hpp"
#include "redist/io/ring_json.hpp"
#include "redist/ring/bounds.hpp"
#include "redist/ring/planner.hpp"
#include "redist/ring/validate.hpp"
#include "redist/svg/ring_gantt.hpp"

namespace redist::cli {

namespace {

struct DemoOptions {
  std::string instance;  // empty: the bundled example
  std::string gantt = "redist-demo.svg";
  std::string algorithm = "auto";
};

std::string join(const std::vector<std::int64_t>& values) {
  return fmt::format("{}", fmt::join(values, " "));
}

int run_demo(const DemoOptions& o) {
  const io::Json document =
      o.instance.empty() ? io::parse_document(kDemoInstanceJson) : io::read_document(o.instance);
  const ring::Instance in = io::read_ring_instance(document);
  const std::string advice = "the demo prints and draws every run; use `redist ring plan` for it";
  svg::require_gantt_size(in.size(), 0, "instance", advice);
  const ring::Schedule s = ring::plan_ring(in, o.algorithm);
  svg::require_gantt_size(in.size(), s.transfers.size(), "instance", advice);
  const ring::BoundReport bounds = ring::ring_bounds(in);
  const ring::ValidationResult check = ring::validate_schedule(in, s);
  write_text_file(o.gantt, svg::ring_gantt_svg(in, s, "redist demo"), "--gantt");

  std::string out;
  auto line = [&out](const std::string& text) { out += text + "\n"; };
  line(fmt::format("redist demo: {} {} ring of {} processors{}",
                   in.homogeneous() ? "homogeneous" : "heterogeneous",
                   in.bidirectional ? "bidirectional" : "unidirectional", in.size(),
                   o.instance.empty() ? " (bundled example data/examples/demo-ring.json)"
                                      : " (" + o.instance + ")"));
  line(fmt::format("  loads     {}", join(in.loads)));
  line(fmt::format("  targets   {}", join(in.targets)));
  line(fmt::format("  cost next {}", fmt::join(in.cost_next, " ")));
  if (in.bidirectional) line(fmt::format("  cost prev {}", fmt::join(in.cost_prev, " ")));
  line("");
  line(fmt::format("algorithm   {}", s.algorithm));
  line(fmt::format("makespan    {:g}", s.makespan));
  std::vector<std::string> terms;
  for (const auto& [name, value] : bounds.terms) {
    terms.push_back(value ? fmt::format("{} {:g}", name, *value) : name + " skipped");
  }
  line(fmt::format("lower bound {:g} ({})", bounds.lower_bound, fmt::join(terms, ", ")));
  line(fmt::format("optimal     {}", s.optimal.value_or(false)
                                         ? "yes (makespan equals the lower bound)"
                                         : "not proven"));
  if (s.light) {
    line(fmt::format("light       {}", *s.light ? "yes (every processor sends only items it holds "
                                                  "at the start)"
                                                : "no"));
  }
  line(fmt::format("validator   {}", check.valid ? "schedule valid" : "INVALID: " + check.reason));
  line(fmt::format("flows       {}", join(s.flows)));
  line("");
  line("who sends what to whom:");
  for (const ring::Run& r : s.transfers) {
    if (r.count == 0) continue;
    const auto from = static_cast<std::size_t>(r.from);
    const double c = in.cost(from, r.dir);
    const double p = r.period > 0 ? r.period : c;
    const double end = r.start + static_cast<double>(r.count - 1) * p + c;
    line(fmt::format("  P{} -> P{}  {:>4} item{}  [{:g}, {:g}){}", from, in.receiver(from, r.dir),
                     r.count, r.count == 1 ? " " : "s", r.start, end,
                     r.period > 0 ? fmt::format("  one every {:g}", r.period) : ""));
  }
  for (const std::string& note : s.notes) line("note: " + note);
  line("");
  line(fmt::format("Gantt chart written to {}", o.gantt));
  std::cout << out;
  return check.valid ? 0 : 1;
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
