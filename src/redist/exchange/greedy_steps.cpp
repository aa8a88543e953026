#include "redist/exchange/greedy_steps.hpp"

#include <algorithm>
#include <vector>

#include "redist/exchange/steps.hpp"

namespace redist::exchange {
namespace {

std::vector<std::size_t> longest_first(const Instance& in) {
  std::vector<std::size_t> order(in.messages.size());
  for (std::size_t e = 0; e < order.size(); ++e) order[e] = e;
  std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
    return in.duration(in.messages[a]) > in.duration(in.messages[b]);
  });
  return order;
}

// One step from `waiting` (in order); the messages taken leave it.
Step next_step(const Instance& in, std::vector<std::size_t>& waiting, std::size_t k,
               std::vector<std::size_t>& send_stamp, std::vector<std::size_t>& recv_stamp,
               std::size_t stamp) {
  Step step;
  std::size_t kept = 0;
  for (const std::size_t e : waiting) {
    const Message& m = in.messages[e];
    const auto i = static_cast<std::size_t>(m.from), j = static_cast<std::size_t>(m.to);
    if (step.size() < k && send_stamp[i] != stamp && recv_stamp[j] != stamp) {
      send_stamp[i] = recv_stamp[j] = stamp;
      step.push_back({e, static_cast<double>(m.bytes)});
    } else {
      waiting[kept++] = e;
    }
  }
  waiting.resize(kept);
  return step;
}

}  // namespace

Plan plan_steps(const Instance& instance) {
  validate_instance(instance);
  const std::size_t k = step_capacity(instance);
  std::vector<std::size_t> waiting = longest_first(instance);
  std::vector<std::size_t> send_stamp(instance.nodes, 0), recv_stamp(instance.nodes, 0);
  std::vector<Step> steps;
  while (!waiting.empty()) {
    steps.push_back(next_step(instance, waiting, k, send_stamp, recv_stamp, steps.size() + 1));
  }
  return step_plan(instance, steps, "steps");
}

}  // namespace redist::exchange
