#include "redist/text/ring_summary.hpp"

#include <algorithm>

#include <fmt/format.h>

#include "redist/text/summary.hpp"

namespace redist::text {

namespace {

void describe_ring(Summary& out, const ring::Instance& in, std::string_view heading,
                   std::string_view source) {
  out.line(fmt::format("{}: {} {} ring of {} processors{}", heading,
                       in.homogeneous() ? "homogeneous" : "heterogeneous",
                       in.bidirectional ? "bidirectional" : "unidirectional", in.size(),
                       source.empty() ? "" : fmt::format(" ({})", source)));
  out.line("  loads     " + numbers(in.loads));
  out.line("  targets   " + numbers(in.targets));
  out.line("  cost next " + numbers(in.cost_next));
  if (in.bidirectional) out.line("  cost prev " + numbers(in.cost_prev));
}

// "22 (lemma12 18, system6 20, exact 22)": the plan's bound, then the terms it is the largest of.
std::string bound_terms(const ring::Schedule& s) {
  const double bound = s.lower_bound.value_or(0.0);
  if (s.bound_terms.empty()) return quantity(bound, kTimeUnits);
  std::vector<std::string> terms;
  for (const ring::BoundTerm& term : s.bound_terms) {
    terms.push_back(term.value ? fmt::format("{} {}", term.name, number(*term.value))
                               : term.name + " skipped");
  }
  return fmt::format("{} ({})", quantity(bound, kTimeUnits), fmt::join(terms, ", "));
}

void describe_runs(Summary& out, const ring::Instance& in, const ring::Schedule& s) {
  out.line("who sends what to whom:");
  std::size_t shown = 0, total = 0;
  for (const ring::Run& r : s.transfers) {
    if (r.count <= 0) continue;
    if (++total > kMaxRows) continue;
    ++shown;
    const auto from = static_cast<std::size_t>(r.from);
    const double c = in.cost(from, r.dir);
    const double period = r.period > 0 ? r.period : c;
    const double end = r.start + static_cast<double>(r.count - 1) * period + c;
    out.line(fmt::format("  P{} -> P{}  {:>4} item{}  [{}, {}){}", from, in.receiver(from, r.dir),
                         r.count, r.count == 1 ? " " : "s", number(r.start), number(end),
                         r.period > 0 ? "  one every " + number(r.period) : ""));
  }
  if (total == 0) out.line("  nobody: every processor already holds its target");
  out.rows_left_out(shown, total);
}

}  // namespace

std::string ring_summary(const ring::Instance& in, const ring::Schedule& s,
                         const CheckResult& verdict, std::string_view heading,
                         std::string_view source) {
  Summary out;
  describe_ring(out, in, heading, source);
  out.blank();
  out.field("algorithm", s.algorithm);
  out.claims(s, s.algorithm, quantity(s.makespan, kTimeUnits), bound_terms(s));
  if (s.light) {
    out.field("light",
              *s.light ? "yes (every processor sends only items it holds at the start)" : "no");
  }
  out.validator(verdict.valid, verdict.reason);
  out.field("flows", numbers(s.flows));
  out.blank();
  describe_runs(out, in, s);
  for (const std::string& note : s.notes) out.line("note: " + note);
  return out.str();
}

std::string ring_bound_summary(const ring::BoundReport& report, std::string_view heading) {
  Summary out;
  out.line(fmt::format("{}: lower bounds on the redistribution time", heading));
  out.field("lower bound", number(report.lower_bound) + " (the largest term)");
  for (const ring::BoundTerm& term : report.terms) {
    out.field("  " + term.name,
              term.value ? number(*term.value) : "skipped (the ring exceeds its size limit)");
  }
  for (const std::string& note : report.notes) out.line("note: " + note);
  return out.str();
}

}  // namespace redist::text
