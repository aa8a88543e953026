#include "redist/exchange/min_steps.hpp"

#include <algorithm>
#include <limits>
#include <numeric>
#include <unordered_map>

#include <fmt/format.h>

#include "redist/exchange/step_plans.hpp"
#include "redist/exchange/steps.hpp"

namespace redist::exchange {
namespace {

constexpr std::uint32_t kNone = std::numeric_limits<std::uint32_t>::max();
constexpr std::size_t kMaxDenseEntries = std::size_t{1} << 24;

// The message of each (vertex, colour), vertices 0..p-1 the senders and p..2p-1 the receivers.
class DenseTable {
 public:
  DenseTable(std::size_t vertices, std::size_t colours)
      : colours_(colours), at_(vertices * colours, kNone) {}
  std::uint32_t get(std::size_t v, std::uint32_t c) const { return at_[v * colours_ + c]; }
  void set(std::size_t v, std::uint32_t c, std::uint32_t e) { at_[v * colours_ + c] = e; }

 private:
  std::size_t colours_;
  std::vector<std::uint32_t> at_;
};

class SparseTable {
 public:
  SparseTable(std::size_t /*vertices*/, std::size_t colours) : colours_(colours) {}
  std::uint32_t get(std::size_t v, std::uint32_t c) const {
    const auto it = at_.find(v * colours_ + c);
    return it == at_.end() ? kNone : it->second;
  }
  void set(std::size_t v, std::uint32_t c, std::uint32_t e) {
    if (e == kNone) {
      at_.erase(v * colours_ + c);
    } else {
      at_[v * colours_ + c] = e;
    }
  }

 private:
  std::size_t colours_;
  std::unordered_map<std::uint64_t, std::uint32_t> at_;
};

template <class Table>
class Colouring {
 public:
  Colouring(const Instance& in, std::size_t delta)
      : in_(in), table_(2 * in.nodes, delta), colour_(in.messages.size(), kNone) {}

  std::vector<std::uint32_t> run(const std::vector<std::size_t>& order) {
    for (const std::size_t e : order) colour(static_cast<std::uint32_t>(e));
    return std::move(colour_);
  }

 private:
  std::size_t sender(std::uint32_t e) const {
    return static_cast<std::size_t>(in_.messages[e].from);
  }
  std::size_t receiver(std::uint32_t e) const {
    return in_.nodes + static_cast<std::size_t>(in_.messages[e].to);
  }
  std::size_t other(std::uint32_t e, std::size_t v) const {
    return v == sender(e) ? receiver(e) : sender(e);
  }
  std::uint32_t lowest_free(std::size_t v) const {
    std::uint32_t c = 0;
    while (table_.get(v, c) != kNone) ++c;  // v has fewer than Delta coloured edges
    return c;
  }
  void assign(std::uint32_t e, std::uint32_t c) {
    colour_[e] = c;
    table_.set(sender(e), c, e);
    table_.set(receiver(e), c, e);
  }
  // Swaps colours `first` and `second` on the path from `start` whose edges alternate first,
  // second, first, ...: afterwards `first` is free at `start`.
  void flip(std::size_t start, std::uint32_t first, std::uint32_t second) {
    path_.clear();
    std::size_t v = start;
    std::uint32_t c = first;
    for (std::uint32_t e = table_.get(v, c); e != kNone; e = table_.get(v, c)) {
      path_.push_back(e);
      v = other(e, v);
      c = c == first ? second : first;
    }
    for (const std::uint32_t e : path_) {
      table_.set(sender(e), colour_[e], kNone);
      table_.set(receiver(e), colour_[e], kNone);
    }
    for (const std::uint32_t e : path_) assign(e, colour_[e] == first ? second : first);
  }
  void colour(std::uint32_t e) {
    const std::size_t u = sender(e), v = receiver(e);
    const std::uint32_t a = lowest_free(u), b = lowest_free(v);
    if (a < b) {
      flip(v, a, b);  // a is used at v (b is v's lowest free colour), free at u
      assign(e, a);
    } else {
      if (b < a) flip(u, b, a);
      assign(e, b);
    }
  }

  const Instance& in_;
  Table table_;
  std::vector<std::uint32_t> colour_;
  std::vector<std::uint32_t> path_;
};

}  // namespace

std::size_t largest_degree(const Instance& instance) {
  std::vector<std::size_t> sends(instance.nodes, 0), receives(instance.nodes, 0);
  std::size_t delta = 0;
  for (const Message& m : instance.messages) {
    delta = std::max({delta, ++sends[static_cast<std::size_t>(m.from)],
                      ++receives[static_cast<std::size_t>(m.to)]});
  }
  return delta;
}

std::vector<std::uint32_t> min_step_colours(const Instance& instance, ColourTable table) {
  validate_instance(instance);
  const std::size_t delta = largest_degree(instance);
  std::vector<double> seconds(instance.messages.size());
  for (std::size_t k = 0; k < seconds.size(); ++k) {
    seconds[k] = instance.duration(instance.messages[k]);
  }
  std::vector<std::size_t> order(instance.messages.size());
  std::iota(order.begin(), order.end(), std::size_t{0});
  std::stable_sort(order.begin(), order.end(),
                   [&](std::size_t a, std::size_t b) { return seconds[a] > seconds[b]; });
  if (table == ColourTable::automatic) {
    table =
        2 * instance.nodes * delta <= kMaxDenseEntries ? ColourTable::dense : ColourTable::sparse;
  }
  if (table == ColourTable::dense) return Colouring<DenseTable>(instance, delta).run(order);
  return Colouring<SparseTable>(instance, delta).run(order);
}

Plan plan_min_steps(const Instance& instance) {
  const std::vector<std::uint32_t> colours = min_step_colours(instance);
  const std::size_t delta = largest_degree(instance);
  std::vector<Step> steps(delta);
  for (std::size_t k = 0; k < colours.size(); ++k) {
    steps[colours[k]].push_back({k, static_cast<double>(instance.messages[k].bytes)});
  }
  std::vector<double> lengths = step_lengths(instance, steps);
  std::vector<std::size_t> by_length(steps.size());
  std::iota(by_length.begin(), by_length.end(), std::size_t{0});
  std::stable_sort(by_length.begin(), by_length.end(),
                   [&](std::size_t a, std::size_t b) { return lengths[a] > lengths[b]; });
  std::vector<Step> sorted;
  sorted.reserve(steps.size());
  for (const std::size_t s : by_length) sorted.push_back(std::move(steps[s]));
  sorted = split_for_backbone(instance, std::move(sorted));
  const std::size_t count = sorted.size();
  Plan plan = step_plan(instance, sorted, "min-steps");
  if (count > delta) {
    plan.notes.push_back(fmt::format(
        "{} steps: {} matchings (the most messages of one node), split so that at most {} "
        "pieces cross the backbone at once",
        count, delta, instance.backbone->transfers));
  } else {
    plan.notes.push_back(fmt::format(
        "{} steps, the most messages of one node: no step schedule sending each message whole "
        "has fewer",
        count));
  }
  note_step_lengths(plan, instance, sorted);
  return plan;
}

}  // namespace redist::exchange
