#include "redist/text/lau_summary.hpp"

#include <cmath>

#include <fmt/format.h>

#include "redist/text/summary.hpp"

namespace redist::text {

namespace {

std::string steps(const lau::Time& t) {
  if (!t) return "deadlock (a node waits forever for load it must forward)";
  return fmt::format("{} step{}", *t, *t == 1 ? "" : "s");
}

std::vector<std::int64_t> red_nodes(const lau::Instance& in, const lau::Plan& p) {
  std::vector<std::int64_t> red;
  for (std::size_t i = 0; i < in.size(); ++i) {
    if (lau::is_red(in, p.flows, i)) red.push_back(static_cast<std::int64_t>(i));
  }
  return red;
}

void describe_messages(Summary& out, const lau::Instance& in, const lau::Plan& p) {
  out.line("who sends what to whom:");
  std::size_t shown = 0, total = 0;
  for (std::size_t i = 0; i < in.size(); ++i) {
    const std::int64_t f = p.flows[i];
    if (f == 0) continue;
    if (++total > kMaxRows) continue;
    ++shown;
    const std::size_t next = (i + 1) % in.size();
    // |f| as unsigned: -INT64_MIN does not fit int64.
    const auto amount = f > 0 ? static_cast<std::uint64_t>(f) : 0 - static_cast<std::uint64_t>(f);
    out.line(fmt::format("  node {} -> node {}  {} unit{}", f > 0 ? i : next, f > 0 ? next : i,
                         amount, amount == 1 ? "" : "s"));
  }
  if (total == 0) out.line("  nobody: every node already holds its target");
  out.rows_left_out(shown, total);
}

// The plan's lower bound: the optimum in its mode, an integer number of steps, or infinity when
// every valid schedule deadlocks.
std::string lower_bound(const lau::Plan& p) {
  const double bound = p.lower_bound.value_or(0.0);
  if (!std::isfinite(bound)) return "none: every valid schedule deadlocks";
  return steps(static_cast<std::int64_t>(bound)) +
         " (the optimum over every valid schedule, LAU Lemma 1)";
}

}  // namespace

std::string lau_summary(const lau::Instance& in, const lau::Plan& p, const CheckResult& verdict,
                        std::string_view heading, std::string_view source) {
  const lau::Mode mode = p.mode;
  Summary out;
  out.line(fmt::format("{}: ring of {} nodes{}", heading, in.size(),
                       source.empty() ? "" : fmt::format(" ({})", source)));
  out.line("  loads     " + numbers(in.loads));
  out.line("  targets   " + numbers(in.targets));
  out.blank();
  out.field("algorithm", p.algorithm);
  out.field("mode", fmt::format("{}-send", lau::mode_name(mode)));
  out.claims(p, p.algorithm, steps(lau::time_in(p, mode)), lower_bound(p));
  out.validator(verdict.valid, verdict.reason);
  out.field("times",
            fmt::format("single-send {}, multi-send {}", steps(p.t_single), steps(p.t_multi)));
  out.field("traffic", fmt::format("{} (sum of |flows|), shift h = {}", p.traffic, p.h));
  out.field("flows", numbers(p.flows));
  const std::vector<std::int64_t> red = red_nodes(in, p);
  out.field("red nodes", red.empty() ? "none" : numbers(red));
  out.blank();
  describe_messages(out, in, p);
  return out.str();
}

std::string lau_eval_summary(const lau::Instance& in, const std::vector<std::int64_t>& flows,
                             const lau::Evaluation& e, std::string_view heading) {
  Summary out;
  out.line(fmt::format("{}: ring of {} nodes", heading, in.size()));
  out.line("  loads     " + numbers(in.loads));
  out.line("  targets   " + numbers(in.targets));
  out.line("  flows     " + numbers(flows));
  out.blank();
  out.field("single-send", steps(e.t_single));
  out.field(
      "multi-send",
      steps(e.t_multi) + (e.multi_by_simulation
                              ? " (by simulation)"
                              : " (closed form: the simulation would exceed its step budget)"));
  out.field("traffic", fmt::format("{} (sum of |flows|), shift h = {}", e.traffic, e.h));
  return out.str();
}

}  // namespace redist::text
