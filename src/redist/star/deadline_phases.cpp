#include "redist/star/deadline_phases.hpp"

#include <algorithm>
#include <cmath>

namespace redist::star {

namespace {

bool fits(double time, double makespan, bool strict) {
  return strict ? time < makespan : time <= makespan;
}

}  // namespace

SenderPhase sender_phase(const Instance& in, double M, bool strict) {
  const std::size_t m = in.workers();
  SenderPhase p;
  p.send_count.assign(m, 0);
  for (std::size_t i = 0; i < m; ++i) {
    const double f = static_cast<double>(in.loads[i]) * in.w[i];
    if (!fits(f, M, strict)) {
      // Least l with (L - l) w fitting M.
      const std::int64_t L = in.loads[i];
      double estimate = std::ceil((f - M) / in.w[i]);
      std::int64_t l = std::clamp<std::int64_t>(
          std::isfinite(estimate) ? static_cast<std::int64_t>(std::max(0.0, estimate)) : L, 0, L);
      while (l > 0 && fits(static_cast<double>(L - (l - 1)) * in.w[i], M, strict)) --l;
      while (l < L && !fits(static_cast<double>(L - l) * in.w[i], M, strict)) ++l;
      if (!fits(static_cast<double>(L - l) * in.w[i], M, strict)) return p;  // M <= 0, strict
      if (!fits(static_cast<double>(l) * in.c[i], M, strict)) return p;
      p.send_count[i] = l;
      p.senders.push_back(i);
      p.total += l;
    } else if (f < M) {
      p.receivers.push_back(i);
    }
  }
  std::stable_sort(p.senders.begin(), p.senders.end(),
                   [&](std::size_t a, std::size_t b) { return in.c[a] < in.c[b]; });
  p.arrival.reserve(static_cast<std::size_t>(p.total));
  double t = 0;
  for (std::size_t s : p.senders) {
    for (std::int64_t k = 0; k < p.send_count[s]; ++k) {
      t += in.c[s];
      p.arrival.push_back(t);
    }
  }
  p.ok = true;
  return p;
}

std::int64_t receiver_capacity(const Instance& in, std::size_t r, double M, bool strict,
                               std::int64_t limit) {
  const std::int64_t L = in.loads[r];
  const double f = static_cast<double>(L) * in.w[r];
  if (!(f < M) || limit <= 0) return 0;
  const double estimate = std::floor((M - f) / in.w[r]);
  std::int64_t k = std::clamp<std::int64_t>(
      estimate > static_cast<double>(limit) ? limit : static_cast<std::int64_t>(estimate), 0,
      limit);
  while (k > 0 && !fits(static_cast<double>(L + k) * in.w[r], M, strict)) --k;
  while (k < limit && fits(static_cast<double>(L + k + 1) * in.w[r], M, strict)) ++k;
  return k;
}

Schedule build_forward_schedule(const Instance& in, const SenderPhase& p,
                                const std::vector<std::size_t>& receivers,
                                const std::string& algorithm) {
  Schedule s;
  s.algorithm = algorithm;
  s.transfers.reserve(receivers.size());
  double send_start = 0, master_out = 0;
  std::size_t k = 0;
  for (std::size_t sender : p.senders) {
    for (std::int64_t j = 0; j < p.send_count[sender] && k < receivers.size(); ++j, ++k) {
      Transfer t;
      t.from = static_cast<std::int64_t>(sender);
      t.to = static_cast<std::int64_t>(receivers[k]);
      t.send_start = send_start;
      send_start += in.c[sender];
      t.forward_start = std::max(send_start, master_out);
      master_out = t.forward_start + in.c[receivers[k]];
      s.transfers.push_back(t);
    }
  }
  finish_times(in, s);
  return s;
}

}  // namespace redist::star
