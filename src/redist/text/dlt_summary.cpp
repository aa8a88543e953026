#include "redist/text/dlt_summary.hpp"

#include <algorithm>

#include <fmt/format.h>

#include "redist/text/summary.hpp"

namespace redist::text {

namespace {

std::string with_source(std::string_view text, std::string_view source) {
  return source.empty() ? std::string(text) : fmt::format("{} ({})", text, source);
}

}  // namespace

std::string dlt_summary(const dlt::Instance& in, const dlt::Schedule& s, const CheckResult& verdict,
                        std::string_view heading, std::string_view source) {
  std::vector<double> final_load = in.alpha;
  for (std::size_t i = 0; i < final_load.size() && i < s.delta.size(); ++i) {
    final_load[i] -= s.delta[i];
  }
  Summary out;
  out.line(with_source(
      fmt::format("{}: divisible load on a switch of {} workers", heading, in.b.size()), source));
  out.line("  b         " + numbers(in.b));
  out.line("  s         " + numbers(in.s));
  out.line("  alpha     " + numbers(in.alpha));
  out.blank();
  out.field("solver", dlt::to_string(s.solver));
  out.claims(
      s, dlt::to_string(s.solver), quantity(s.makespan, kTimeUnits),
      quantity(s.lower_bound.value_or(0.0), kTimeUnits) + " (the optimum of the linear program)");
  out.validator(verdict.valid, verdict.reason);
  out.field("final load", numbers(final_load));
  out.blank();
  out.line("who sends what to whom:");
  const std::size_t shown = std::min(s.transfers.size(), kMaxRows);
  for (std::size_t k = 0; k < shown; ++k) {
    const dlt::Transfer& t = s.transfers[k];
    out.line(
        fmt::format("  P{} -> P{}  {} at rate {}", t.from, t.to, number(t.amount), number(t.rate)));
  }
  if (s.transfers.empty()) out.line("  nobody: no load moves");
  out.rows_left_out(shown, s.transfers.size());
  return out.str();
}

}  // namespace redist::text
