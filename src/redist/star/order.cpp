#include "redist/star/order.hpp"

#include <algorithm>
#include <cmath>
#include <numeric>

#include <fmt/format.h>

#include "redist/common/checked.hpp"
#include "redist/common/error.hpp"

namespace redist::star {

void validate_order_instance(const OrderInstance& in) {
  const std::size_t m = in.delta.size();
  if (m == 0) throw InputError("a star needs at least 1 worker", "delta");
  if (in.c.size() != m) {
    throw InputError(fmt::format("has {} entries, delta has {}", in.c.size(), m), "c");
  }
  for (std::size_t i = 0; i < m; ++i) {
    if (!std::isfinite(in.c[i]) || in.c[i] <= 0) {
      throw InputError("must be a finite number > 0", fmt::format("c[{}]", i));
    }
  }
  std::int64_t positive = 0;
  for (std::size_t i = 0; i < m; ++i) {
    if (in.delta[i] > 0) {
      const auto p = checked_add(positive, in.delta[i]);
      if (!p) throw InputError("sum of positive imbalances overflows 64 bits", "delta");
      positive = *p;
    }
  }
  const auto total = checked_sum(in.delta);
  if (!total || *total != 0) throw InputError("imbalances must sum to 0", "delta");
  if (positive > kMaxOrderTransfers) {
    throw InputError(fmt::format("{} tasks to move, more than {} (one transfer is written per "
                                 "task); split the redistribution",
                                 positive, kMaxOrderTransfers),
                     "delta");
  }
  double horizon = 0;
  for (std::size_t i = 0; i < m; ++i) {
    horizon += 2 * std::abs(static_cast<double>(in.delta[i])) * in.c[i];
    if (!std::isfinite(horizon)) {
      throw InputError("delta times c, summed over the workers, overflows a double; scale c down",
                       fmt::format("c[{}]", i));
    }
  }
}

Schedule order(const OrderInstance& in) {
  const std::size_t m = in.delta.size();
  std::vector<std::size_t> senders, receivers;
  for (std::size_t i = 0; i < m; ++i) {
    if (in.delta[i] > 0) senders.push_back(i);
    if (in.delta[i] < 0) receivers.push_back(i);
  }
  std::stable_sort(senders.begin(), senders.end(),
                   [&](std::size_t a, std::size_t b) { return in.c[a] < in.c[b]; });
  std::stable_sort(receivers.begin(), receivers.end(),
                   [&](std::size_t a, std::size_t b) { return in.c[a] > in.c[b]; });
  Schedule s;
  s.algorithm = "theorem1";
  s.finish.assign(m, 0.0);
  double master_in = 0.0;   // end of the master's last reception
  double master_out = 0.0;  // end of the master's last forward
  std::size_t r = 0;
  std::int64_t left_at_r = receivers.empty() ? 0 : -in.delta[receivers[0]];
  for (std::size_t sender : senders) {
    for (std::int64_t k = 0; k < in.delta[sender]; ++k) {
      while (left_at_r == 0) {
        ++r;
        left_at_r = -in.delta[receivers[r]];
      }
      const std::size_t receiver = receivers[r];
      s.transfers.push_back(relay_task(in.c, sender, receiver, master_in, master_out));
      s.finish[receiver] = master_out;
      --left_at_r;
    }
  }
  s.makespan = master_out;
  s.lower_bound = s.makespan;
  s.prove_optimal(Proof::theorem);  // STAR Theorem 1
  return s;
}

}  // namespace redist::star
