#include "redist/slicering/exact.hpp"

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdint>
#include <functional>
#include <limits>
#include <numeric>
#include <stdexcept>

#include <fmt/format.h>

#include "redist/common/error.hpp"
#include "redist/common/tolerance.hpp"
#include "redist/slicering/auto.hpp"
#include "redist/slicering/bounds.hpp"
#include "redist/slicering/certify.hpp"
#include "redist/slicering/shares.hpp"

namespace redist::slicering {

namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();

// How a scan of the processor sets ended: every set left was bounded by the incumbent
// (finished), the incumbent met the least bound of all the sets (at_bound), or the branch and
// bound reached its node budget or its time limit.
enum class Stop { finished, at_bound, node_limit, time_limit };

// Thrown by the branch and bound at a limit.
struct Stopped {
  Stop why;
};

constexpr double kMinNormal = std::numeric_limits<double>::min();

// K u with K = 5p + 12: within this relative distance of its exact value lies every bound and
// T_step the search computes, apart from the errors of subnormal roundings (the header's analysis).
double search_rounding(std::size_t p) {
  return (5.0 * static_cast<double>(p) + 12.0) * kUnitRoundoff;
}

// The header's slack 3 K u + 2 delta, delta = p e / W: e = 2^-1075 x (the number of subnormal
// quotients H c / w in an edge weight, at most 2) bounds what one edge weight loses to underflow.
double search_slack(const Cluster& cl) {
  int worst = 0;
  for (std::size_t i = 0; i < cl.size(); ++i) {
    for (std::size_t j = i + 1; j < cl.size(); ++j) {
      worst = std::max(worst, (cl.H * cl.cost(i, j) / cl.w[i] < kMinNormal) +
                                  (cl.H * cl.cost(j, i) / cl.w[j] < kMinNormal));
    }
  }
  // 2 delta = 2 p worst 2^-1075 / W, formed as p worst / (W 2^1074) (the quotient rounded up).
  const double errors = static_cast<double>(cl.size()) * worst;
  return 3 * search_rounding(cl.size()) + (worst == 0 ? 0.0 : up(errors / std::ldexp(cl.W, 1074)));
}

// What a scan of the processor sets found: the best ring and its T_step t (the incumbent), why it
// stopped, and at a limit the bound of the set it was searching (every set left has a bound at
// least that).
struct Scan {
  double t = kInf;
  std::vector<std::size_t> ring;
  Stop stop = Stop::finished;
  double unsearched = kInf;
  std::size_t searched = 0, sets = 0;
  std::uint64_t nodes = 0;  // branch-and-bound nodes
};

class Solver {
 public:
  Solver(const Cluster& cluster, std::uint64_t max_nodes, const Deadline& time_limit)
      : cl_(cluster),
        p_(cluster.size()),
        max_nodes_(max_nodes),
        time_limit_(time_limit),
        rounding_(search_rounding(cluster.size())) {
    e_.resize(p_ * p_);
    for (std::size_t i = 0; i < p_; ++i) {
      for (std::size_t j = 0; j < p_; ++j) e_[i * p_ + j] = i == j ? 0.0 : cluster.edge(i, j);
    }
    const std::size_t n = std::size_t{1} << p_;
    inverse_.assign(n, 0.0);
    for (std::size_t s = 1; s < n; ++s) {
      const int low = std::countr_zero(s);
      inverse_[s] = inverse_[s & (s - 1)] + 1.0 / cluster.w[static_cast<std::size_t>(low)];
    }
    // dp[S*p + j]: shortest path from lowbit(S) through S ending at j.
    dp_.assign(n * p_, kInf);
    for (std::size_t s = 0; s < p_; ++s) dp_[(std::size_t{1} << s) * p_ + s] = 0.0;
    for (std::size_t set = 1; set < n; ++set) {
      const auto s = static_cast<std::size_t>(std::countr_zero(set));
      for (std::uint64_t bits = set; bits; bits &= bits - 1) {
        const auto j = static_cast<std::size_t>(std::countr_zero(bits));
        const double v = dp_[set * p_ + j];
        if (v == kInf) continue;
        for (std::size_t k = s + 1; k < p_; ++k) {
          if (set >> k & 1) continue;
          double& target = dp_[(set | std::size_t{1} << k) * p_ + k];
          target = std::min(target, v + e_[j * p_ + k]);
        }
      }
    }
  }

  // Shortest tour through `set` and the last vertex of that tour (before closing).
  std::pair<double, std::size_t> tour(std::size_t set) const {
    const auto s = static_cast<std::size_t>(std::countr_zero(set));
    if (std::popcount(set) == 1) return {0.0, s};
    double best = kInf;
    std::size_t last = s;
    for (std::uint64_t bits = set & (set - 1); bits; bits &= bits - 1) {
      const auto j = static_cast<std::size_t>(std::countr_zero(bits));
      const double v = dp_[set * p_ + j] + e_[j * p_ + s];
      if (v < best) best = v, last = j;
    }
    return {best, last};
  }

  std::vector<std::size_t> reconstruct(std::size_t set, std::size_t last) const {
    std::vector<std::size_t> path;
    std::size_t cur = last;
    while (std::popcount(set) > 1) {
      path.push_back(cur);
      const std::size_t prev_set = set & ~(std::size_t{1} << cur);
      std::size_t found = p_;
      if (std::popcount(prev_set) == 1) {
        found = static_cast<std::size_t>(std::countr_zero(prev_set));
      } else {
        for (std::uint64_t bits = prev_set; bits; bits &= bits - 1) {
          const auto i = static_cast<std::size_t>(std::countr_zero(bits));
          if (dp_[prev_set * p_ + i] + e_[i * p_ + cur] == dp_[set * p_ + cur]) {
            found = i;
            break;
          }
        }
      }
      cur = found;
      set = prev_set;
    }
    path.push_back(cur);
    std::reverse(path.begin(), path.end());
    return path;
  }

  // H times the two cheapest capacities from `u` to the other members of `set` (u's comm in any
  // ring on `set` is at least this).
  double cheapest_comm(std::size_t u, std::size_t set) const {
    double a = kInf, b = kInf;
    for (std::uint64_t bits = set & ~(std::size_t{1} << u); bits; bits &= bits - 1) {
      const double c = cl_.cost(u, static_cast<std::size_t>(std::countr_zero(bits)));
      if (c < a)
        b = a, a = c;
      else if (c < b)
        b = c;
    }
    if (a == kInf) return 0.0;
    return cl_.H * (a + (b == kInf ? a : b));  // two members: both neighbours are the other one
  }

  // max(F with the shortest tour, the largest unavoidable comm): no ring on `set` does better.
  double lower_bound(std::size_t set) const {
    double bound = (cl_.W + tour(set).first) / inverse_[set];
    for (std::uint64_t bits = set; bits; bits &= bits - 1) {
      bound = std::max(bound, cheapest_comm(static_cast<std::size_t>(std::countr_zero(bits)), set));
    }
    return bound;
  }

  // Best ring on `set` with T_step < incumbent (updates incumbent and ring).
  void branch_and_bound(std::size_t set, double& incumbent, std::vector<std::size_t>& best) const {
    const auto s = static_cast<std::size_t>(std::countr_zero(set));
    std::vector<std::size_t> path{s};
    const double inverse = inverse_[set];
    const double H = cl_.H;
    std::function<void(std::size_t, double, double)> dfs = [&](std::size_t visited, double cost,
                                                               double fixed) {
      if (nodes_ >= max_nodes_) throw Stopped{Stop::node_limit};
      if (time_limit_.passed_every(static_cast<std::int64_t>(++nodes_))) {
        throw Stopped{Stop::time_limit};
      }
      const std::size_t j = path.back();
      const std::size_t rest = set & ~visited;
      if (rest == 0) {
        const double t = ring_t_step(cl_, path);
        if (t < incumbent) incumbent = t, best = path;
        return;
      }
      if (path.size() >= 2) {
        const double completion = dp_[(rest | std::size_t{1} << s | std::size_t{1} << j) * p_ + j];
        double cheapest_j = kInf, cheapest_s = kInf;
        for (std::uint64_t bits = rest; bits; bits &= bits - 1) {
          const auto k = static_cast<std::size_t>(std::countr_zero(bits));
          cheapest_j = std::min(cheapest_j, cl_.cost(j, k));
          cheapest_s = std::min(cheapest_s, cl_.cost(s, k));
        }
        double bound = std::max({(cl_.W + cost + completion) / inverse, fixed,
                                 H * (cl_.cost(j, path[path.size() - 2]) + cheapest_j),
                                 H * (cl_.cost(s, path[1]) + cheapest_s)});
        if (bound >= incumbent) return;
        // Members not yet placed have both neighbours among the rest, s and j.
        const std::size_t around = rest | std::size_t{1} << s | std::size_t{1} << j;
        for (std::uint64_t bits = rest; bits && bound < incumbent; bits &= bits - 1) {
          bound = std::max(bound,
                           cheapest_comm(static_cast<std::size_t>(std::countr_zero(bits)), around));
        }
        if (bound >= incumbent) return;
      }
      std::vector<std::size_t> next;
      for (std::uint64_t bits = rest; bits; bits &= bits - 1) {
        next.push_back(static_cast<std::size_t>(std::countr_zero(bits)));
      }
      std::sort(next.begin(), next.end(),
                [&](std::size_t a, std::size_t b) { return e_[j * p_ + a] < e_[j * p_ + b]; });
      for (std::size_t k : next) {
        double fixed_k = fixed;
        if (path.size() >= 2) {
          fixed_k = std::max(fixed, H * (cl_.cost(j, path[path.size() - 2]) + cl_.cost(j, k)));
        }
        path.push_back(k);
        dfs(visited | std::size_t{1} << k, cost + e_[j * p_ + k], fixed_k);
        path.pop_back();
      }
    };
    dfs(std::size_t{1} << s, 0.0, 0.0);
  }

  // The processor sets of exactly q members (of every size when q is empty), each with its
  // bound, by increasing bound.
  std::vector<std::pair<double, std::size_t>> sets_by_bound(std::optional<std::size_t> q) const {
    std::vector<std::pair<double, std::size_t>> sets;
    const std::size_t n = std::size_t{1} << p_;
    for (std::size_t set = 1; set < n; ++set) {
      if (!q || static_cast<std::size_t>(std::popcount(set)) == *q)
        sets.emplace_back(lower_bound(set), set);
    }
    std::sort(sets.begin(), sets.end());
    return sets;
  }

  // The rings of `set` shorter than the incumbent: the DP's ring, then the branch and bound unless
  // that ring is within rounding of the set's bound (then it is the set's best, by the header's
  // analysis). Throws Stopped at a limit, with the incumbent kept.
  void search_set(double bound, std::size_t set, double& incumbent,
                  std::vector<std::size_t>& best) const {
    const auto [cost, last] = tour(set);
    std::vector<std::size_t> ring = reconstruct(set, last);
    const double t = ring_t_step(cl_, ring);
    if (t < incumbent) incumbent = t, best = ring;
    if (!at_most(t, bound, 2 * rounding_) && bound < incumbent) {
      branch_and_bound(set, incumbent, best);
    }
  }

  // Optimal ring of exactly q processors.
  std::pair<double, std::vector<std::size_t>> solve_size(std::size_t q) const {
    double incumbent = kInf;
    std::vector<std::size_t> best;
    for (const auto& [bound, set] : sets_by_bound(q)) {
      if (bound >= incumbent) break;
      search_set(bound, set, incumbent, best);
    }
    return {incumbent, best};
  }

  // Best-first over the sets of the problem (size q, or every size): stops once the incumbent
  // meets the bound of the sets left, or the least bound of all (at_bound), or at a limit.
  Scan scan(std::optional<std::size_t> q) const {
    const std::vector<std::pair<double, std::size_t>> sets = sets_by_bound(q);
    Scan out;
    out.sets = sets.size();
    for (const auto& [bound, set] : sets) {
      if (bound >= out.t) break;
      ++out.searched;
      try {
        search_set(bound, set, out.t, out.ring);
      } catch (const Stopped& stopped) {
        out.stop = stopped.why;
        out.unsearched = bound;
        break;
      }
      if (out.searched < out.sets && at_most(out.t, sets.front().first, 2 * rounding_)) {
        out.stop = Stop::at_bound;
        break;
      }
    }
    out.nodes = nodes_;
    return out;
  }

 private:
  const Cluster& cl_;
  std::size_t p_;
  std::uint64_t max_nodes_;
  const Deadline& time_limit_;
  double rounding_;
  std::vector<double> e_, inverse_, dp_;
  mutable std::uint64_t nodes_ = 0;  // branch-and-bound nodes visited, over every size
};

void require_exact_size(const Cluster& cluster) {
  if (cluster.size() > kExactMaxProcessors) {
    throw InputError(fmt::format("algorithm exact handles at most {} processors, got {}",
                                 kExactMaxProcessors, cluster.size()),
                     "w");
  }
}

// The search's best ring, its T_step t, and the least T_step it proved for the rings of the
// problem: t when the search finished, the bound of the sets left when a limit stopped it.
struct Found {
  std::vector<std::size_t> ring;
  double t = kInf;
  double searched = kInf;
};

// The solution of the ring found, with its certified claims: lower_bound found.searched (1 - slack)
// (the header's analysis), optimal by `proof` if that proves it; else the relaxation of bounds.hpp
// for ring size q (every size when empty) when larger.
Solution certified_solution(const Cluster& cluster, std::optional<std::size_t> q, Found found,
                            double slack, Proof proof) {
  Solution s = solution_for_ring(cluster, std::move(found.ring), "exact");
  const double t = found.t;
  const double searched = slack < 1 ? down(found.searched * down(1.0 - slack)) : 0.0;
  s.lower_bound = std::min(searched, s.makespan);
  claim_optimal_if_certified(cluster, s, proof);
  if (!s.optimal) {  // the relaxation may prove what the search could not
    s.lower_bound = std::min(std::max(searched, ring_size_bound(cluster, q)), s.makespan);
    claim_optimal_if_certified(cluster, s, Proof::lower_bound);
  }
  if (!s.optimal && slack > kSearchResolution) {
    s.notes.push_back(
        fmt::format("not proven: with W = {:g}, the subnormal quotients H c / w leave the search's "
                    "comparisons uncertain by a relative {:.2g}",
                    cluster.W, slack));
  } else if (!at_most(s.makespan, t)) {
    s.notes.push_back(fmt::format(
        "the shares reach {:.17g}, above the ring's optimum {:.17g}: the cycle-times span too "
        "many orders of magnitude for the shares to be computed to it",
        s.makespan, t));
  }
  return s;
}

ExactTable solve_table(const Cluster& cluster, std::optional<std::size_t> q,
                       std::uint64_t max_nodes) {
  const std::size_t p = cluster.size();
  const Deadline no_limit;  // outlives the solver, which keeps a reference to it
  const Solver solver(cluster, max_nodes, no_limit);
  const double slack = search_slack(cluster);
  ExactTable table;
  table.by_size.resize(p);
  double best = kInf, lower = kInf;
  for (std::size_t size = 1; size <= p; ++size) {
    if (q && size != *q) continue;
    auto [t, ring] = solver.solve_size(size);
    // Unreachable on clusters that pass check_cluster_range (every bound finite): a bug, not input.
    if (ring.empty()) throw std::logic_error("exact search found no ring");
    Solution s = certified_solution(cluster, size, {std::move(ring), t, t}, slack, Proof::search);
    lower = std::min(lower, s.lower_bound.value_or(0.0));
    if (s.makespan < best) best = s.makespan, table.best = s;
    table.by_size[size - 1] = std::move(s);
  }
  // The best over every size is bounded by the least of the sizes' bounds.
  table.best.lower_bound = lower;
  if (table.best.optimal) {
    claim_optimal_if_certified(cluster, table.best, table.best.proof);
    if (!table.best.optimal) {
      table.best.notes.push_back(fmt::format(
          "not proven over every ring size: another size's certified bound is lower ({:.17g})",
          lower));
    }
  }
  return table;
}

std::string budget_message() {
  return fmt::format(
      "algorithm exact gave up after {} branch-and-bound nodes (rings saturated by "
      "communication on this many processors); force a smaller ring size (q), use fewer "
      "processors or algorithm greedy",
      kExactMaxSearchNodes);
}

// The note of a scan that a limit stopped.
std::string limit_note(Stop stop, std::uint64_t max_nodes, const Deadline& time_limit) {
  if (stop == Stop::time_limit) return time_limit_note(time_limit, "exact's branch and bound");
  return fmt::format(
      "exact stopped at its limit of {} branch-and-bound nodes without finishing its search: the "
      "better of its best ring and those of greedy and tsp, not proven optimal unless it meets the "
      "lower bound",
      max_nodes);
}

// After a limit: the better of the scan's best ring and auto's heuristics (greedy, tsp), with the
// larger of their certified bounds, optimal only if that bound proves it, and a note.
Solution stopped_solution(const Cluster& cluster, std::optional<std::size_t> q, Scan scan,
                          double slack, std::uint64_t max_nodes, const Deadline& time_limit) {
  const double searched = std::min(scan.t, scan.unsearched);
  Solution s = certified_solution(cluster, q, {std::move(scan.ring), scan.t, searched}, slack,
                                  Proof::lower_bound);
  Solution h =
      plan_auto_heuristics(cluster, q,
                           scan.stop == Stop::time_limit ? "its search reached the time limit"
                                                         : "its search reached its node limit");
  const double lower = std::max(s.lower_bound.value_or(0.0), h.lower_bound.value_or(0.0));
  Solution out = h.makespan < s.makespan ? std::move(h) : std::move(s);
  out.lower_bound.reset();
  if (lower > 0) out.lower_bound = std::min(lower, out.makespan);
  claim_optimal_if_certified(cluster, out, Proof::lower_bound);
  if (!out.optimal) {
    out.stop_at(scan.stop == Stop::time_limit ? Status::time_limit : Status::node_limit);
  }
  out.notes.push_back(limit_note(scan.stop, max_nodes, time_limit));
  return out;
}

}  // namespace

ExactTable exact_table(const Cluster& cluster, std::optional<std::size_t> q) {
  require_exact_size(cluster);
  try {
    return solve_table(cluster, q, kExactMaxSearchNodes);
  } catch (const Stopped&) {
    throw InputError(budget_message(), "w");
  }
}

ExactResult plan_exact_within(const Cluster& cluster, std::optional<std::size_t> q,
                              std::uint64_t max_nodes, const Deadline& time_limit) {
  require_exact_size(cluster);
  const Solver solver(cluster, max_nodes, time_limit);
  Scan scan = solver.scan(q);
  // Unreachable on clusters that pass check_cluster_range (every bound finite): a bug, not input.
  if (scan.ring.empty()) throw std::logic_error("exact search found no ring");
  const double slack = search_slack(cluster);
  if (scan.stop == Stop::node_limit || scan.stop == Stop::time_limit) {
    return {stopped_solution(cluster, q, std::move(scan), slack, max_nodes, time_limit), false};
  }
  // Stopped at the bound, the bound proves it; else the finished search does.
  const Proof proof = scan.stop == Stop::at_bound ? Proof::lower_bound : Proof::search;
  Solution s = certified_solution(cluster, q, {std::move(scan.ring), scan.t, scan.t}, slack, proof);
  if (scan.stop == Stop::at_bound) {
    s.notes.push_back(
        fmt::format("exact stopped at the lower bound after {} of {} processor sets "
                    "searched ({} branch-and-bound nodes)",
                    scan.searched, scan.sets, scan.nodes));
  }
  return {std::move(s), true};
}

Solution plan_exact(const Cluster& cluster, std::optional<std::size_t> q,
                    const Deadline& time_limit) {
  return plan_exact_within(cluster, q, kExactMaxSearchNodes, time_limit).solution;
}

}  // namespace redist::slicering
