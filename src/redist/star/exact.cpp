#include "redist/star/exact.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>

#include <fmt/format.h>

#include "redist/common/error.hpp"
#include "redist/star/bba.hpp"
#include "redist/star/mbbsa.hpp"
#include "redist/star/rbsa.hpp"

namespace redist::star {

namespace {

struct Search {
  const Instance& in;
  std::size_t m;
  double best;
  std::vector<std::int64_t> best_counts;
  std::vector<std::size_t> best_receivers;
  bool found = false;
  std::int64_t nodes = 0;
  // Current branch.
  std::vector<std::int64_t> counts;
  std::vector<double> arrival;  // k-th task at the master
  std::vector<double> end;
  std::vector<std::size_t> receivers;
  std::vector<std::size_t> task_sender;  // sender of the k-th task
  double min_cw = std::numeric_limits<double>::infinity();
  std::vector<std::size_t> sender_order;

  explicit Search(const Instance& instance, double upper)
      : in(instance), m(instance.workers()), best(upper) {
    for (std::size_t i = 0; i < m; ++i) min_cw = std::min(min_cw, in.c[i] + in.w[i]);
    sender_order.resize(m);
    std::iota(sender_order.begin(), sender_order.end(), 0);
    std::stable_sort(sender_order.begin(), sender_order.end(),
                     [&](std::size_t a, std::size_t b) { return in.c[a] < in.c[b]; });
  }

  void receivers_dfs(std::size_t k, double master_out, double current_max) {
    const std::size_t n = arrival.size();
    if (k == n) {
      if (current_max < best) {
        best = current_max;
        best_counts = counts;
        best_receivers = receivers;
        found = true;
      }
      return;
    }
    if (++nodes > kExactMaxNodes) {
      throw InputError(fmt::format("exact search exceeds {} nodes: instance too large for "
                                   "exact; use algorithm best (heuristics, no optimality "
                                   "proof) or fewer tasks",
                                   kExactMaxNodes),
                       "");
    }
    const double b = std::max(arrival[k], master_out);
    for (std::size_t r = 0; r < m; ++r) {
      if (r == task_sender[k]) continue;
      bool duplicate = false;
      for (std::size_t q = 0; q < r && !duplicate; ++q) {
        duplicate = in.c[q] == in.c[r] && in.w[q] == in.w[r] && end[q] == end[r];
      }
      if (duplicate) continue;
      const double new_end = std::max(end[r], b + in.c[r]) + in.w[r];
      const double new_max = std::max(current_max, new_end);
      double bound = new_max;
      if (k + 1 < n) {
        bound = std::max(bound, std::max(arrival[k + 1], b + in.c[r]) + min_cw);
      }
      if (bound >= best) continue;
      const double saved = end[r];
      end[r] = new_end;
      receivers.push_back(r);
      receivers_dfs(k + 1, b + in.c[r], new_max);
      receivers.pop_back();
      end[r] = saved;
    }
  }

  void counts_dfs(std::size_t i) {
    if (i == m) {
      arrival.clear();
      task_sender.clear();
      double t = 0;
      for (std::size_t s : sender_order) {
        for (std::int64_t j = 0; j < counts[s]; ++j) {
          arrival.push_back(t += in.c[s]);
          task_sender.push_back(s);
        }
      }
      end.assign(m, 0);
      double current_max = 0;
      for (std::size_t q = 0; q < m; ++q) {
        end[q] = static_cast<double>(in.loads[q] - counts[q]) * in.w[q];
        current_max = std::max(current_max, end[q]);
      }
      if (current_max >= best) return;
      receivers.clear();
      receivers_dfs(0, 0, current_max);
      return;
    }
    for (std::int64_t n = 0; n <= in.loads[i]; ++n) {
      if (static_cast<double>(in.loads[i] - n) * in.w[i] >= best) continue;
      counts[i] = n;
      counts_dfs(i + 1);
    }
    counts[i] = 0;
  }
};

}  // namespace

bool exact_accepts(const Instance& in) {
  std::int64_t total = 0;
  for (std::int64_t l : in.loads) total += l;
  return in.workers() <= kExactMaxWorkers && total <= kExactMaxTasks;
}

Schedule plan_exact(const Instance& in) {
  if (!exact_accepts(in)) {
    throw InputError(fmt::format("instance too large for exact (at most {} workers and {} "
                                 "tasks); use algorithm best",
                                 kExactMaxWorkers, kExactMaxTasks),
                     "loads");
  }
  // Upper bound: the best heuristic schedule (a valid schedule of the normal form's makespan or
  // more), slightly raised so that the search finds a schedule of its own.
  Schedule start = plan_bba(in);
  for (Schedule s : {plan_mbbsa(in), plan_rbsa(in)}) {
    if (s.makespan < start.makespan) start = s;
  }
  Search search(in, std::nextafter(start.makespan, std::numeric_limits<double>::infinity()));
  search.counts.assign(in.workers(), 0);
  search.counts_dfs(0);
  Schedule s;
  s.algorithm = "exact";
  if (!search.found) {
    s = start;  // rounding kept the search from matching the heuristics' makespan
    s.algorithm = "exact";
  } else {
    double t = 0, master_out = 0;
    std::size_t k = 0;
    for (std::size_t sender : search.sender_order) {
      for (std::int64_t j = 0; j < search.best_counts[sender]; ++j, ++k) {
        const std::size_t r = search.best_receivers[k];
        Transfer tr;
        tr.from = static_cast<std::int64_t>(sender);
        tr.to = static_cast<std::int64_t>(r);
        tr.send_start = t;
        t += in.c[sender];
        tr.forward_start = std::max(t, master_out);
        master_out = tr.forward_start + in.c[r];
        s.transfers.push_back(tr);
      }
    }
  }
  if (search.found) finish_times(in, s);
  s.notes.clear();
  s.lower_bound = s.makespan;
  s.optimal = true;
  return s;
}

}  // namespace redist::star
