#include "redist/star/validate.hpp"

#include <algorithm>
#include <cmath>
#include <optional>
#include <set>
#include <utility>

#include <fmt/format.h>

#include "redist/common/error.hpp"
#include "redist/common/tolerance.hpp"

namespace redist::star {

namespace {

CheckResult invalid(std::string reason) {
  CheckResult r;
  r.valid = false;
  r.reason = std::move(reason);
  return r;
}

// Checks that the intervals [start, start + length) are pairwise disjoint; returns the indices of
// the first overlapping pair, if any.
std::optional<std::pair<std::size_t, std::size_t>> first_overlap(
    std::vector<std::pair<double, double>> spans_with_index_start_length,
    const std::vector<std::size_t>& index, double tol) {
  std::vector<std::size_t> order(index.size());
  for (std::size_t k = 0; k < order.size(); ++k) order[k] = k;
  std::sort(order.begin(), order.end(), [&](std::size_t x, std::size_t y) {
    return spans_with_index_start_length[x].first < spans_with_index_start_length[y].first;
  });
  for (std::size_t k = 1; k < order.size(); ++k) {
    const auto& prev = spans_with_index_start_length[order[k - 1]];
    const auto& cur = spans_with_index_start_length[order[k]];
    if (cur.first < prev.first + prev.second - tol) {
      return std::make_pair(index[order[k - 1]], index[order[k]]);
    }
  }
  return std::nullopt;
}

// The structure of each transfer (no times needed); an empty reason when all is well.
std::string structure_problem(const Instance& in, const Schedule& s) {
  const std::int64_t m = static_cast<std::int64_t>(in.loads.size());
  for (std::size_t k = 0; k < s.transfers.size(); ++k) {
    const Transfer& t = s.transfers[k];
    if (t.from < 0 || t.from >= m) {
      return fmt::format("transfer {}: unknown worker {} in from", k, t.from);
    }
    if (t.to < 0 || t.to >= m) return fmt::format("transfer {}: unknown worker {} in to", k, t.to);
    if (t.from == t.to) return fmt::format("transfer {}: from equals to ({})", k, t.to);
    if (!std::isfinite(t.send_start) || t.send_start < 0) {
      return fmt::format("transfer {}: send_start must be >= 0", k);
    }
    if (!std::isfinite(t.forward_start) || t.forward_start < 0) {
      return fmt::format("transfer {}: forward_start must be >= 0", k);
    }
  }
  return {};
}

// Each worker's send times and arrival times, sorted. InputError naming the transfer when a time
// overflows a double.
struct WorkerTimes {
  std::vector<std::vector<double>> sends, arrivals;
};

WorkerTimes worker_times(const Instance& in, const Schedule& s) {
  WorkerTimes times{std::vector<std::vector<double>>(in.workers()),
                    std::vector<std::vector<double>>(in.workers())};
  for (std::size_t k = 0; k < s.transfers.size(); ++k) {
    const Transfer& t = s.transfers[k];
    const double arrival = t.forward_start + in.c[static_cast<std::size_t>(t.to)];
    if (!std::isfinite(t.send_start + in.c[static_cast<std::size_t>(t.from)])) {
      throw InputError("send_start + c[from] overflows a double",
                       fmt::format("$.transfers[{}].send_start", k));
    }
    if (!std::isfinite(arrival)) {
      throw InputError("forward_start + c[to] overflows a double",
                       fmt::format("$.transfers[{}].forward_start", k));
    }
    times.sends[static_cast<std::size_t>(t.from)].push_back(t.send_start);
    times.arrivals[static_cast<std::size_t>(t.to)].push_back(arrival);
  }
  for (std::size_t i = 0; i < in.workers(); ++i) {
    std::sort(times.sends[i].begin(), times.sends[i].end());
    std::sort(times.arrivals[i].begin(), times.arrivals[i].end());
  }
  return times;
}

// What the workers compute: each one's finish and the makespan, or the reason a worker sends a
// task it does not hold.
struct Computation {
  std::vector<double> finish;
  double makespan = 0.0;
  std::string problem;
};

// Worker i by the holding rule: its own tasks leave first, later sends forward the
// latest-arrived received tasks; then it computes its kept own tasks from 0 and its kept
// received tasks in arrival order.
double worker_finish(const Instance& in, const WorkerTimes& times, std::size_t i,
                     std::string& problem) {
  const std::vector<double>& sends = times.sends[i];
  const std::int64_t sent = static_cast<std::int64_t>(sends.size());
  const std::int64_t own_sent = std::min<std::int64_t>(sent, in.loads[i]);
  std::multiset<double> held(times.arrivals[i].begin(), times.arrivals[i].end());
  for (std::size_t j = static_cast<std::size_t>(own_sent); j < sends.size(); ++j) {
    const double a = sends[j];
    auto it = held.upper_bound(a + kTimeTolerance * std::max(1.0, std::abs(a)));
    if (it == held.begin()) {
      problem = fmt::format(
          "worker {} sends at {} a task it does not hold (its {} own tasks are already sent and "
          "no received task has arrived)",
          i, a, in.loads[i]);
      return 0.0;
    }
    held.erase(std::prev(it));
  }
  double end = static_cast<double>(in.loads[i] - own_sent) * in.w[i];
  for (double arrival : held) end = std::max(end, arrival) + in.w[i];
  if (!std::isfinite(end)) {
    throw InputError(fmt::format("worker {} would compute beyond the largest double", i),
                     "$.transfers");
  }
  return end;
}

Computation computation(const Instance& in, const WorkerTimes& times) {
  Computation c;
  c.finish.assign(in.workers(), 0.0);
  for (std::size_t i = 0; i < in.workers(); ++i) {
    c.finish[i] = worker_finish(in, times, i, c.problem);
    if (!c.problem.empty()) return c;
    c.makespan = std::max(c.makespan, c.finish[i]);
  }
  return c;
}

// The master forwards a task only once it has arrived, and uses each port for one task at a
// time; an empty reason when all is well.
std::string master_problem(const Instance& in, const Schedule& s, double tol) {
  const std::size_t n = s.transfers.size();
  for (std::size_t k = 0; k < n; ++k) {
    const Transfer& t = s.transfers[k];
    const double arrival = t.send_start + in.c[static_cast<std::size_t>(t.from)];
    if (t.forward_start < arrival - tol) {
      return fmt::format("transfer {}: the master forwards at {} a task that arrives only at {}", k,
                         t.forward_start, arrival);
    }
  }
  std::vector<std::pair<double, double>> in_spans(n), out_spans(n);
  std::vector<std::size_t> index(n);
  for (std::size_t k = 0; k < n; ++k) {
    const Transfer& t = s.transfers[k];
    in_spans[k] = {t.send_start, in.c[static_cast<std::size_t>(t.from)]};
    out_spans[k] = {t.forward_start, in.c[static_cast<std::size_t>(t.to)]};
    index[k] = k;
  }
  if (auto o = first_overlap(in_spans, index, tol)) {
    return fmt::format("transfers {} and {} overlap on the master's receive port", o->first,
                       o->second);
  }
  if (auto o = first_overlap(out_spans, index, tol)) {
    return fmt::format("transfers {} and {} overlap on the master's send port", o->first,
                       o->second);
  }
  return {};
}

// The stated makespan and finish against the recomputed ones; an empty reason when they agree.
std::string claim_problem(const Schedule& s, const Stated& stated, const Computation& c,
                          double tol) {
  if (stated.makespan && !(std::abs(s.makespan - c.makespan) <= tol)) {
    return fmt::format("makespan {} differs from the recomputed makespan {}", s.makespan,
                       c.makespan);
  }
  if (!stated.finish) return {};
  if (s.finish.size() != c.finish.size()) {
    return fmt::format("finish has {} entries, expected {}", s.finish.size(), c.finish.size());
  }
  for (std::size_t i = 0; i < s.finish.size(); ++i) {
    if (!(std::abs(s.finish[i] - c.finish[i]) <= tol)) {
      return fmt::format("finish[{}] = {} differs from the recomputed {}", i, s.finish[i],
                         c.finish[i]);
    }
  }
  return {};
}

}  // namespace

CheckResult check(const Instance& in, const Schedule& s, const Stated& stated) {
  if (std::string why = structure_problem(in, s); !why.empty()) return invalid(why);
  const Computation c = computation(in, worker_times(in, s));
  if (!c.problem.empty()) return invalid(c.problem);
  const double tol = kTimeTolerance * c.makespan;
  if (std::string why = master_problem(in, s, tol); !why.empty()) return invalid(why);
  if (std::string why = claim_problem(s, stated, c, tol); !why.empty()) return invalid(why);
  CheckResult r;
  r.valid = true;
  r.makespan = c.makespan;
  return r;
}

}  // namespace redist::star
