#include "redist/text/star_summary.hpp"

#include <algorithm>
#include <map>
#include <utility>

#include <fmt/format.h>

#include "redist/text/summary.hpp"

namespace redist::text {

namespace {

std::string with_source(std::string_view text, std::string_view source) {
  return source.empty() ? std::string(text) : fmt::format("{} ({})", text, source);
}

// Tasks each worker computes in the end: its own, less those it sends, plus those it receives.
std::vector<std::int64_t> final_tasks(const star::Instance& in, const star::Schedule& s) {
  std::vector<std::int64_t> tasks = in.loads;
  for (const star::Transfer& t : s.transfers) {
    --tasks[static_cast<std::size_t>(t.from)];
    ++tasks[static_cast<std::size_t>(t.to)];
  }
  return tasks;
}

struct Route {
  std::int64_t tasks = 0;
  double first = 0, last = 0;  // the first send starts, the last forward ends
};

void describe_routes(Summary& out, const std::vector<double>& c, const star::Schedule& s) {
  std::map<std::pair<std::int64_t, std::int64_t>, Route> routes;
  for (const star::Transfer& t : s.transfers) {
    const double end = t.forward_start + c[static_cast<std::size_t>(t.to)];
    auto [it, fresh] = routes.try_emplace({t.from, t.to}, Route{0, t.send_start, end});
    it->second.tasks += 1;
    it->second.first = std::min(it->second.first, t.send_start);
    it->second.last = std::max(it->second.last, end);
  }
  out.line("who sends what to whom (through the master):");
  std::size_t shown = 0;
  for (const auto& [route, r] : routes) {
    if (shown++ == kMaxRows) break;
    out.line(fmt::format("  P{} -> P{}  {:>4} task{}  [{}, {})", route.first, route.second, r.tasks,
                         r.tasks == 1 ? " " : "s", number(r.first), number(r.last)));
  }
  if (routes.empty()) out.line("  nobody: no task moves");
  out.rows_left_out(std::min(shown, kMaxRows), routes.size());
}

}  // namespace

std::string star_summary(const star::Instance& in, const star::Schedule& s,
                         const CheckResult& verdict, std::string_view heading,
                         std::string_view source) {
  Summary out;
  out.line(with_source(fmt::format("{}: star of a master and {} workers", heading, in.workers()),
                       source));
  out.line("  c         " + numbers(in.c));
  out.line("  w         " + numbers(in.w));
  out.line("  loads     " + numbers(in.loads));
  out.blank();
  out.field("algorithm", s.algorithm);
  out.claims(s, s.algorithm, quantity(s.makespan, kTimeUnits),
             quantity(s.lower_bound.value_or(0.0), kTimeUnits));
  out.validator(verdict.valid, verdict.reason);
  out.field("tasks moved", fmt::format("{}", s.transfers.size()));
  out.field("final tasks", numbers(final_tasks(in, s)));
  out.field("finish", numbers(s.finish));
  out.blank();
  describe_routes(out, in.c, s);
  for (const std::string& note : s.notes) out.line("note: " + note);
  return out.str();
}

std::string star_order_summary(const star::OrderInstance& in, const star::Schedule& s,
                               std::string_view heading) {
  Summary out;
  out.line(fmt::format("{}: star of a master and {} workers, computation neglected", heading,
                       in.c.size()));
  out.line("  c         " + numbers(in.c));
  out.line("  delta     " + numbers(in.delta));
  out.blank();
  out.field("algorithm", s.algorithm);
  out.claims(s, s.algorithm, quantity(s.makespan, kTimeUnits),
             quantity(s.lower_bound.value_or(0.0), kTimeUnits));
  out.field("tasks moved", fmt::format("{}", s.transfers.size()));
  out.blank();
  describe_routes(out, in.c, s);
  for (const std::string& note : s.notes) out.line("note: " + note);
  return out.str();
}

}  // namespace redist::text
