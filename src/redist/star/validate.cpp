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

}  // namespace

CheckResult check(const Instance& in, const Schedule& s, const Stated& stated) {
  const std::int64_t m = static_cast<std::int64_t>(in.loads.size());
  const std::size_t n = s.transfers.size();

  // Structure first (no times needed).
  for (std::size_t k = 0; k < n; ++k) {
    const Transfer& t = s.transfers[k];
    if (t.from < 0 || t.from >= m) {
      return invalid(fmt::format("transfer {}: unknown worker {} in from", k, t.from));
    }
    if (t.to < 0 || t.to >= m) {
      return invalid(fmt::format("transfer {}: unknown worker {} in to", k, t.to));
    }
    if (t.from == t.to) return invalid(fmt::format("transfer {}: from equals to ({})", k, t.to));
    if (!std::isfinite(t.send_start) || t.send_start < 0) {
      return invalid(fmt::format("transfer {}: send_start must be >= 0", k));
    }
    if (!std::isfinite(t.forward_start) || t.forward_start < 0) {
      return invalid(fmt::format("transfer {}: forward_start must be >= 0", k));
    }
  }

  // Per-worker sends (time order) and receptions (arrival order).
  std::vector<std::vector<double>> sends(static_cast<std::size_t>(m));
  std::vector<std::vector<double>> arrivals(static_cast<std::size_t>(m));
  for (std::size_t k = 0; k < n; ++k) {
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
    sends[static_cast<std::size_t>(t.from)].push_back(t.send_start);
    arrivals[static_cast<std::size_t>(t.to)].push_back(arrival);
  }

  // Computation (needs the holding rule to know which received tasks are kept).
  std::vector<double> finish(static_cast<std::size_t>(m), 0.0);
  double makespan = 0.0;
  for (std::size_t i = 0; i < static_cast<std::size_t>(m); ++i) {
    std::sort(sends[i].begin(), sends[i].end());
    std::sort(arrivals[i].begin(), arrivals[i].end());
    const std::int64_t sent = static_cast<std::int64_t>(sends[i].size());
    const std::int64_t own_sent = std::min<std::int64_t>(sent, in.loads[i]);
    const std::int64_t kept_own = in.loads[i] - own_sent;
    // Received tasks still held, as a multiset of arrival times; forwards taken latest first.
    std::multiset<double> held(arrivals[i].begin(), arrivals[i].end());
    for (std::size_t j = static_cast<std::size_t>(own_sent); j < sends[i].size(); ++j) {
      const double a = sends[i][j];
      auto it = held.upper_bound(a + kTimeTolerance * std::max(1.0, std::abs(a)));
      if (it == held.begin()) {
        return invalid(fmt::format(
            "worker {} sends at {} a task it does not hold (its {} own tasks are already sent and "
            "no received task has arrived)",
            i, a, in.loads[i]));
      }
      held.erase(std::prev(it));
    }
    double end = static_cast<double>(kept_own) * in.w[i];
    for (double arrival : held) end = std::max(end, arrival) + in.w[i];
    if (!std::isfinite(end)) {
      throw InputError(fmt::format("worker {} would compute beyond the largest double", i),
                       "$.transfers");
    }
    finish[i] = end;
    makespan = std::max(makespan, end);
  }
  const double tol = kTimeTolerance * makespan;

  for (std::size_t k = 0; k < n; ++k) {
    const Transfer& t = s.transfers[k];
    const double arrival = t.send_start + in.c[static_cast<std::size_t>(t.from)];
    if (t.forward_start < arrival - tol) {
      return invalid(
          fmt::format("transfer {}: the master forwards at {} a task that arrives only at {}", k,
                      t.forward_start, arrival));
    }
  }
  // Master ports.
  std::vector<std::pair<double, double>> in_spans(n), out_spans(n);
  std::vector<std::size_t> index(n);
  for (std::size_t k = 0; k < n; ++k) {
    const Transfer& t = s.transfers[k];
    in_spans[k] = {t.send_start, in.c[static_cast<std::size_t>(t.from)]};
    out_spans[k] = {t.forward_start, in.c[static_cast<std::size_t>(t.to)]};
    index[k] = k;
  }
  if (auto o = first_overlap(in_spans, index, tol)) {
    return invalid(fmt::format("transfers {} and {} overlap on the master's receive port", o->first,
                               o->second));
  }
  if (auto o = first_overlap(out_spans, index, tol)) {
    return invalid(
        fmt::format("transfers {} and {} overlap on the master's send port", o->first, o->second));
  }

  if (stated.makespan && !(std::abs(s.makespan - makespan) <= tol)) {
    return invalid(
        fmt::format("makespan {} differs from the recomputed makespan {}", s.makespan, makespan));
  }
  if (stated.finish) {
    if (s.finish.size() != static_cast<std::size_t>(m)) {
      return invalid(fmt::format("finish has {} entries, expected {}", s.finish.size(), m));
    }
    for (std::size_t i = 0; i < s.finish.size(); ++i) {
      if (!(std::abs(s.finish[i] - finish[i]) <= tol)) {
        return invalid(fmt::format("finish[{}] = {} differs from the recomputed {}", i, s.finish[i],
                                   finish[i]));
      }
    }
  }
  CheckResult r;
  r.valid = true;
  r.makespan = makespan;
  return r;
}

}  // namespace redist::star
