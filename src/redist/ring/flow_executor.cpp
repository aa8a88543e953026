#include "redist/ring/flow_executor.hpp"
#include "redist/common/checked.hpp"

#include <algorithm>
#include <cmath>
#include <queue>
#include <stdexcept>

#include <fmt/format.h>

#include "redist/common/error.hpp"
#include "redist/common/tolerance.hpp"

namespace redist::ring {

namespace {

struct Completion {
  double time;
  std::size_t sender;
  std::size_t receiver;
  bool operator>(const Completion& o) const { return time > o.time; }
};

// Builds runs item by item, merging an item into the open run of its (sender, direction) when it
// continues that run at a constant pace and nothing else used the sender's send port or the
// receiver's receive port since the run's last item (a run's span must not contain other runs of
// its ports: docs/formats.md).
class RunBuilder {
 public:
  explicit RunBuilder(const Instance& in)
      : in_(in),
        open_(2 * in.size(), kNone),
        last_send_(in.size(), kNone),
        last_receive_(in.size(), kNone) {}

  void add(std::size_t from, Direction dir, double start) {
    const std::size_t key = 2 * from + (dir == Direction::next ? 0 : 1);
    const std::size_t to = in_.receiver(from, dir);
    const bool ports_untouched = last_send_[from] == key && last_receive_[to] == key;
    last_send_[from] = key;
    last_receive_[to] = key;
    if (ports_untouched && open_[key] != kNone && try_extend(runs_[open_[key]], start)) return;
    open_[key] = runs_.size();
    runs_.push_back(Run{static_cast<std::int64_t>(from), dir, start, 1, 0.0});
  }

  std::vector<Run> take() { return std::move(runs_); }

 private:
  bool try_extend(Run& r, double start) const {
    const double c = in_.cost(static_cast<std::size_t>(r.from), r.dir);
    if (r.count == 1) {
      const double gap = start - r.start;
      if (gap < c) return false;
      r.period = at_most(gap, c, kSearchResolution) ? 0.0 : gap;  // back to back, or slower
      r.count = 2;
      return true;
    }
    const double pace = r.period > 0 ? r.period : c;
    const double expected = r.start + static_cast<double>(r.count) * pace;
    // Relative to the times themselves: an absolute floor would merge items of costs 1e-300.
    if (std::fabs(start - expected) > kSearchResolution * std::fabs(start)) return false;
    ++r.count;
    return true;
  }

  static constexpr std::size_t kNone = static_cast<std::size_t>(-1);
  const Instance& in_;
  std::vector<std::size_t> open_;
  std::vector<std::size_t> last_send_;     // key of the last item sent by each processor
  std::vector<std::size_t> last_receive_;  // key of the last item received by each processor
  std::vector<Run> runs_;
};

}  // namespace

std::vector<Run> execute_flows_asap(const Instance& in, const std::vector<std::int64_t>& flows,
                                    std::int64_t max_items, SendPriority priority) {
  const std::size_t n = in.size();
  if (flows.size() != n) throw InputError("flows must have one entry per processor", "flows");
  // Items each processor still has to send each way, and still has to receive.
  std::vector<std::int64_t> to_next(n), to_prev(n), to_receive(n, 0), held(in.loads);
  Int128 moved = 0;
  for (std::size_t i = 0; i < n; ++i) {
    const std::int64_t out = flows[i];
    const std::int64_t in_flow = flows[in.pred(i)];
    if (!in.bidirectional && out < 0) {
      throw InputError("negative flow on a unidirectional ring", fmt::format("flows[{}]", i));
    }
    const Int128 final_load = static_cast<Int128>(in.loads[i]) - out + in_flow;
    if (final_load != in.targets[i]) {
      throw InputError(fmt::format("flows do not balance processor {}", i),
                       fmt::format("flows[{}]", i));
    }
    to_next[i] = std::max<std::int64_t>(out, 0);
    to_prev[i] = in_flow < 0 ? -in_flow : 0;
    moved += to_next[i];
    moved += to_prev[i];
  }
  for (std::size_t i = 0; i < n; ++i) {
    to_receive[in.succ(i)] += to_next[i];
    to_receive[in.pred(i)] += to_prev[i];
  }
  if (moved > max_items) {
    throw InputError(fmt::format("the schedule moves {} items; the item-level scheduler is limited "
                                 "to {}",
                                 static_cast<long double>(moved), max_items),
                     "loads");
  }

  std::vector<double> send_free(n, 0.0), receive_free(n, 0.0);
  std::vector<char> dirty(n, 1);
  std::vector<std::size_t> dirty_list(n);
  for (std::size_t i = 0; i < n; ++i) dirty_list[i] = i;
  std::priority_queue<Completion, std::vector<Completion>, std::greater<>> events;
  RunBuilder runs(in);
  double now = 0.0;
  std::int64_t remaining = static_cast<std::int64_t>(moved);

  auto mark = [&](std::size_t i) {
    if (!dirty[i]) {
      dirty[i] = 1;
      dirty_list.push_back(i);
    }
  };

  while (true) {
    // Start every send possible at `now`, processors in index order.
    std::sort(dirty_list.begin(), dirty_list.end());
    for (std::size_t i : dirty_list) {
      dirty[i] = 0;
      if (send_free[i] > now || held[i] == 0) continue;
      const std::size_t right = in.succ(i), left = in.pred(i);
      const bool can_next = to_next[i] > 0 && receive_free[right] <= now;
      const bool can_prev = to_prev[i] > 0 && receive_free[left] <= now;
      if (!can_next && !can_prev) continue;
      bool prefer_next = true;
      switch (priority) {
        case SendPriority::receiver_backlog:
          prefer_next = to_receive[right] >= to_receive[left];
          break;
        case SendPriority::next_first:
          break;
        case SendPriority::prev_first:
          prefer_next = false;
          break;
      }
      const bool go_next = can_next && (!can_prev || prefer_next);
      const Direction dir = go_next ? Direction::next : Direction::prev;
      const std::size_t to = go_next ? right : left;
      const double end = now + in.cost(i, dir);
      (go_next ? to_next[i] : to_prev[i])--;
      --to_receive[to];
      --held[i];
      send_free[i] = end;
      receive_free[to] = end;
      runs.add(i, dir, now);
      events.push({end, i, to});
    }
    dirty_list.clear();
    if (events.empty()) break;
    now = events.top().time;
    while (!events.empty() && events.top().time == now) {
      const Completion e = events.top();
      events.pop();
      ++held[e.receiver];
      --remaining;
      mark(e.sender);
      mark(e.receiver);
      mark(in.pred(e.receiver));
      mark(in.succ(e.receiver));
    }
  }
  if (remaining != 0) {
    throw std::logic_error(fmt::format("flow executor stalled with {} items unsent", remaining));
  }
  return runs.take();
}

}  // namespace redist::ring
