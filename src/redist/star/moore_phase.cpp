#include "redist/star/moore_phase.hpp"

#include <algorithm>
#include <cmath>
#include <functional>
#include <limits>
#include <queue>
#include <tuple>

#include <fmt/format.h>

#include "redist/common/error.hpp"
#include "redist/star/moore.hpp"

namespace redist::star {

namespace {

// Receiver r's k-th deadline from the end, M - k w_r.
double deadline(const Instance& in, std::size_t r, double M, std::int64_t k) {
  return M - static_cast<double>(k) * in.w[r];
}

// (deadline, receiver, k), smallest deadline first, ties by lower receiver index.
using Next = std::tuple<double, std::size_t, std::int64_t>;
using Earliest = std::priority_queue<Next, std::vector<Next>, std::greater<Next>>;

[[noreturn]] void too_many_deadlines() {
  throw InputError(fmt::format("MBBSA on heterogeneous links would scan more than {} "
                               "deadlines per decision; use algorithm bba or rbsa",
                               kMaxMooreJobs),
                   "");
}

// Homogeneous links: the first L_send deadlines Moore's scan keeps (moore_phase.hpp, proof).
bool paper_receivers_homogeneous(const Instance& in, const SenderPhase& p, double M, bool strict,
                                 std::vector<std::size_t>& receivers) {
  const std::size_t need = static_cast<std::size_t>(p.total);
  const double c = in.c.front();
  double t = p.arrival.front();  // c_{s1}
  auto kept = [&](std::size_t r, std::int64_t k) {
    const double end = t + c;
    const double d = deadline(in, r, M, k);
    return strict ? end < d : end <= d;
  };
  Earliest heap;
  for (std::size_t r : p.receivers) {
    const std::int64_t cap =
        receiver_capacity(in, r, M, strict, std::numeric_limits<std::int64_t>::max());
    if (cap > 0) heap.emplace(deadline(in, r, M, cap), r, cap);
  }
  while (receivers.size() < need && !heap.empty()) {
    const auto [d, r, k] = heap.top();
    heap.pop();
    if (kept(r, k)) {
      receivers.push_back(r);
      t += c;
      if (k > 1) heap.emplace(deadline(in, r, M, k - 1), r, k - 1);
      continue;
    }
    // Dropped, and so are r's later deadlines below t + c: jump to the largest k' < k kept.
    const double estimate = std::floor((M - (t + c)) / in.w[r]);
    std::int64_t next = estimate <= 0 ? 0
                        : estimate >= static_cast<double>(k - 1)
                            ? k - 1
                            : static_cast<std::int64_t>(estimate);
    while (next > 0 && !kept(r, next)) --next;
    while (next < k - 1 && kept(r, next + 1)) ++next;
    if (next > 0) heap.emplace(deadline(in, r, M, next), r, next);
  }
  return receivers.size() == need;
}

// Heterogeneous links: Moore's scan over every deadline, then the first L_send of sigma.
bool paper_receivers_heterogeneous(const Instance& in, const SenderPhase& p, double M, bool strict,
                                   std::vector<std::size_t>& receivers, MbbsaWork* work) {
  const std::size_t need = static_cast<std::size_t>(p.total);
  Earliest heap;
  std::int64_t total = 0;  // L_recv
  for (std::size_t r : p.receivers) {
    const std::int64_t cap = receiver_capacity(in, r, M, strict, kMaxMooreJobs + 1 - total);
    total += cap;
    if (total > kMaxMooreJobs) too_many_deadlines();
    if (cap > 0) heap.emplace(deadline(in, r, M, cap), r, cap);
  }
  MooreScan scan(p.arrival.front(), strict);
  std::vector<std::size_t> job_receiver;
  job_receiver.reserve(static_cast<std::size_t>(total));
  while (!heap.empty()) {
    const auto [d, r, k] = heap.top();
    heap.pop();
    scan.add({in.c[r], d});
    job_receiver.push_back(r);
    if (k > 1) heap.emplace(deadline(in, r, M, k - 1), r, k - 1);
  }
  if (work) {
    ++work->decisions;
    work->deadlines_scanned += total;
    work->deadlines_available += total;
  }
  if (scan.on_time() < need) return false;
  const std::vector<std::size_t> sigma = scan.chosen();  // in deadline order
  for (std::size_t j = 0; j < need; ++j) receivers.push_back(job_receiver[sigma[j]]);
  return true;
}

// mbbsa-lazy, homogeneous links: the L_send largest deadlines, in non-decreasing order, each met
// by the forward of its rank ((j + 2) c at the earliest, the first arrival being at c).
bool lazy_receivers_homogeneous(const Instance& in, const SenderPhase& p, double M, bool strict,
                                std::vector<std::size_t>& receivers) {
  const std::int64_t need = p.total;
  std::vector<std::int64_t> cap(in.workers(), 0);
  std::priority_queue<Next> heap;  // largest deadline first
  for (std::size_t r : p.receivers) {
    cap[r] = receiver_capacity(in, r, M, strict, need);
    if (cap[r] > 0) heap.emplace(deadline(in, r, M, 1), r, 1);
  }
  std::vector<std::pair<double, std::size_t>> largest;
  largest.reserve(static_cast<std::size_t>(need));
  while (static_cast<std::int64_t>(largest.size()) < need && !heap.empty()) {
    const auto [d, r, k] = heap.top();
    heap.pop();
    largest.emplace_back(d, r);
    if (k < cap[r]) heap.emplace(deadline(in, r, M, k + 1), r, k + 1);
  }
  if (static_cast<std::int64_t>(largest.size()) < need) return false;
  std::reverse(largest.begin(), largest.end());
  const double c = in.c.front();
  for (std::size_t j = 0; j < largest.size(); ++j) {
    const double arrival = static_cast<double>(j + 2) * c;
    if (strict ? arrival >= largest[j].first : arrival > largest[j].first) return false;
    receivers.push_back(largest[j].second);
  }
  return true;
}

// mbbsa-lazy, heterogeneous links: per receiver only its latest min(L_send, floor((M - c_{s1}) /
// c_r) + 1) deadlines (no more of its receptions fit between the first arrival and M, and moving
// a reception to a later deadline of the same receiver keeps a set on time, so the most on-time
// receptions is unchanged); the scan stops once L_send are on time, or once even every deadline
// left could not reach L_send (each adds at most one on-time reception).
bool lazy_receivers_heterogeneous(const Instance& in, const SenderPhase& p, double M, bool strict,
                                  std::vector<std::size_t>& receivers, MbbsaWork* work) {
  const std::size_t need = static_cast<std::size_t>(p.total);
  Earliest heap;
  std::int64_t available = 0;
  for (std::size_t r : p.receivers) {
    const double fit = std::floor((M - p.arrival.front()) / in.c[r]) + 1;
    const std::int64_t limit = fit < static_cast<double>(p.total)
                                   ? std::max<std::int64_t>(0, static_cast<std::int64_t>(fit))
                                   : p.total;
    const std::int64_t cap = receiver_capacity(in, r, M, strict, limit);
    available += cap;
    if (cap > 0) heap.emplace(deadline(in, r, M, cap), r, cap);
  }
  if (work) work->deadlines_available += available;
  MooreScan scan(p.arrival.front(), strict);
  std::vector<std::size_t> job_receiver;
  auto can_reach = [&] {
    const auto left = available - static_cast<std::int64_t>(job_receiver.size());
    return static_cast<std::int64_t>(scan.on_time()) + left >= p.total;
  };
  while (scan.on_time() < need && can_reach()) {
    const auto [d, r, k] = heap.top();
    heap.pop();
    if (static_cast<std::int64_t>(job_receiver.size()) >= kMaxMooreJobs) too_many_deadlines();
    scan.add({in.c[r], d});
    job_receiver.push_back(r);
    if (k > 1) heap.emplace(deadline(in, r, M, k - 1), r, k - 1);
  }
  if (work) {
    ++work->decisions;
    work->deadlines_scanned += static_cast<std::int64_t>(job_receiver.size());
  }
  if (scan.on_time() < need) return false;
  for (std::size_t j : scan.chosen()) receivers.push_back(job_receiver[j]);
  return true;
}

}  // namespace

bool paper_receivers(const Instance& in, const SenderPhase& p, double M, bool strict,
                     std::vector<std::size_t>& receivers, MbbsaWork* work) {
  if (p.total == 0) return true;
  receivers.reserve(receivers.size() + static_cast<std::size_t>(p.total));
  return homogeneous_links(in) ? paper_receivers_homogeneous(in, p, M, strict, receivers)
                               : paper_receivers_heterogeneous(in, p, M, strict, receivers, work);
}

bool lazy_receivers(const Instance& in, const SenderPhase& p, double M, bool strict,
                    std::vector<std::size_t>& receivers, MbbsaWork* work) {
  if (p.total == 0) return true;
  receivers.reserve(receivers.size() + static_cast<std::size_t>(p.total));
  return homogeneous_links(in) ? lazy_receivers_homogeneous(in, p, M, strict, receivers)
                               : lazy_receivers_heterogeneous(in, p, M, strict, receivers, work);
}

}  // namespace redist::star
