#include "redist/exchange/greedy_steps.hpp"

#include <algorithm>
#include <cstdint>
#include <vector>

#include "redist/exchange/limits.hpp"
#include "redist/exchange/min_steps.hpp"
#include "redist/exchange/steps.hpp"

namespace redist::exchange {
namespace {

std::vector<std::size_t> longest_first(const Instance& in) {
  std::vector<double> seconds(in.messages.size());
  for (std::size_t e = 0; e < seconds.size(); ++e) seconds[e] = in.duration(in.messages[e]);
  std::vector<std::size_t> order(in.messages.size());
  for (std::size_t e = 0; e < order.size(); ++e) order[e] = e;
  std::stable_sort(order.begin(), order.end(),
                   [&](std::size_t a, std::size_t b) { return seconds[a] > seconds[b]; });
  return order;
}

// The messages not yet in a step, longest first, as a list that drops a message in O(1), and the
// senders and receivers that still have one.
class Waiting {
 public:
  Waiting(const Instance& in, std::vector<std::size_t> order)
      : in_(in),
        order_(std::move(order)),
        next_(order_.size() + 2),
        sends_(in.nodes, 0),
        receives_(in.nodes, 0),
        send_stamp_(in.nodes, 0),
        recv_stamp_(in.nodes, 0) {
    for (std::size_t pos = 0; pos < order_.size(); ++pos) next_[pos] = pos + 1;
    next_[head()] = 0;
    for (const Message& m : in.messages) {
      senders_ += sends_[static_cast<std::size_t>(m.from)]++ == 0 ? 1 : 0;
      receivers_ += receives_[static_cast<std::size_t>(m.to)]++ == 0 ? 1 : 0;
    }
  }

  bool empty() const { return next_[head()] == order_.size(); }

  // One step: in order, every waiting message whose sender and receiver are free in the step, up
  // to k. The scan stops once the step is full or holds every sender or every receiver that still
  // has a message (no further message could join it), so a step costs the messages it reads.
  Step next_step(std::size_t k, std::size_t stamp) {
    const std::size_t most = std::min({k, senders_, receivers_});
    Step step;
    std::size_t previous = head();
    for (std::size_t pos = next_[previous]; pos != order_.size() && step.size() < most;
         pos = next_[previous]) {
      const std::size_t e = order_[pos];
      const Message& m = in_.messages[e];
      const auto i = static_cast<std::size_t>(m.from), j = static_cast<std::size_t>(m.to);
      if (send_stamp_[i] == stamp || recv_stamp_[j] == stamp) {
        previous = pos;
        continue;
      }
      send_stamp_[i] = recv_stamp_[j] = stamp;
      step.push_back({e, static_cast<double>(m.bytes)});
      next_[previous] = next_[pos];
      senders_ -= --sends_[i] == 0 ? 1 : 0;
      receivers_ -= --receives_[j] == 0 ? 1 : 0;
    }
    return step;
  }

 private:
  // Positions in order_ are linked by next_; next_[head()] is the first, order_.size() the end.
  std::size_t head() const { return order_.size() + 1; }

  const Instance& in_;
  std::vector<std::size_t> order_;
  std::vector<std::size_t> next_;
  std::vector<std::size_t> sends_, receives_;  // waiting messages of each node
  std::size_t senders_ = 0, receivers_ = 0;    // nodes with a waiting message
  std::vector<std::size_t> send_stamp_, recv_stamp_;
};

}  // namespace

Plan plan_steps(const Instance& instance) {
  require_messages_times_degree(instance, "steps", kMaxStepsMessagesTimesDegree,
                                "each step reads the waiting messages, and there are at least as "
                                "many steps as messages of one node");
  validate_instance(instance);
  const std::size_t k = step_capacity(instance);
  Waiting waiting(instance, longest_first(instance));
  std::vector<Step> steps;
  while (!waiting.empty()) steps.push_back(waiting.next_step(k, steps.size() + 1));
  return step_plan(instance, steps, "steps");
}

}  // namespace redist::exchange
