#include "redist/text/slicering_summary.hpp"

#include <fmt/format.h>

#include "redist/text/summary.hpp"

namespace redist::text {

namespace {

void describe_ring(Summary& out, const slicering::Cluster& cluster, const slicering::Solution& s) {
  out.line(fmt::format("the ring, in order ({} of {} processors):", s.ring.size(), cluster.size()));
  std::vector<std::vector<std::string>> rows{
      {"proc", "cycle-time", "share", "compute", "communicate", "link to next (c there, back)"}};
  const std::size_t q = s.ring.size();
  const std::size_t shown = std::min(q, kMaxRows);
  for (std::size_t k = 0; k < shown; ++k) {
    const std::size_t i = s.ring[k], next = s.ring[(k + 1) % q];
    const double share = k < s.alpha.size() ? s.alpha[k] : 0.0;
    const std::string link = q < 2
                                 ? "none (a ring of one)"
                                 : fmt::format("P{} ({}, {})", next, number(cluster.cost(i, next)),
                                               number(cluster.cost(next, i)));
    rows.push_back({fmt::format("P{}", i), number(cluster.w[i]), number(share),
                    number(share * cluster.W * cluster.w[i]),
                    number(slicering::ring_comm(cluster, s.ring, k)), link});
  }
  out.table(rows);
  out.rows_left_out(shown, q);
  std::vector<std::int64_t> unused;
  std::vector<bool> in_ring(cluster.size(), false);
  for (std::size_t i : s.ring) in_ring[i] = true;
  for (std::size_t i = 0; i < cluster.size(); ++i) {
    if (!in_ring[i]) unused.push_back(static_cast<std::int64_t>(i));
  }
  out.line("left out    " + (unused.empty() ? std::string("none") : numbers(unused)));
}

}  // namespace

std::string slicering_summary(const slicering::Cluster& cluster, const slicering::Solution& s,
                              const CheckResult& verdict, std::string_view heading,
                              std::string_view source) {
  Summary out;
  out.line(
      fmt::format("{}: cluster of {} processors, W = {} (work per iteration), H = {} (data "
                  "exchanged with each neighbour){}",
                  heading, cluster.size(), number(cluster.W), number(cluster.H),
                  source.empty() ? "" : fmt::format(" ({})", source)));
  out.line("  w         " + numbers(cluster.w));
  out.blank();
  out.field("algorithm", s.algorithm);
  out.claims(s, s.algorithm, number(s.makespan) + " (T_step: the time of one iteration)");
  out.validator(verdict.valid, verdict.reason);
  if (s.tour_cost) {
    out.field("tour", fmt::format("cost {}{}", number(*s.tour_cost),
                                  s.tour_lower_bound
                                      ? ", every tour costs at least " + number(*s.tour_lower_bound)
                                      : ""));
  }
  out.blank();
  describe_ring(out, cluster, s);
  for (const std::string& note : s.notes) out.line("note: " + note);
  return out.str();
}

}  // namespace redist::text
