#include "redist/exchange/min_steps.hpp"

#include <algorithm>
#include <limits>
#include <numeric>
#include <unordered_map>

#include <fmt/format.h>

#include "redist/common/error.hpp"
#include "redist/common/tolerance.hpp"
#include "redist/exchange/limits.hpp"
#include "redist/exchange/step_plans.hpp"
#include "redist/exchange/steps.hpp"

namespace redist::exchange {
namespace {

constexpr std::uint32_t kNone = std::numeric_limits<std::uint32_t>::max();
constexpr std::size_t kMaxDenseEntries = std::size_t{1} << 24;
// Colours scanned in all for a colour free at both ends of a message (beyond the lowest ones).
constexpr std::size_t kCommonScanColours = 50'000'000;
// The pair exchanges stop after this many sweeps over every pair of steps, or this many message
// visits (a sweep visits each message Delta - 1 times: 17 million on p = 256 dense).
constexpr int kExchangeSweeps = 4;
constexpr std::size_t kExchangeVisits = 20'000'000;

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
  Colouring(const Instance& in, const std::vector<double>& seconds, std::size_t delta)
      : in_(in),
        seconds_(seconds),
        delta_(static_cast<std::uint32_t>(delta)),
        table_(2 * in.nodes, delta),
        colour_(in.messages.size(), kNone),
        lowest_(2 * in.nodes, 0) {}

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
  // The lowest colour free at v: no colour below lowest_[v] is free, so the scan starts there.
  std::uint32_t lowest_free(std::size_t v) {
    std::uint32_t& c = lowest_[v];
    while (table_.get(v, c) != kNone) ++c;  // v has fewer than Delta coloured edges
    return c;
  }
  void release(std::size_t v, std::uint32_t c) {
    table_.set(v, c, kNone);
    lowest_[v] = std::min(lowest_[v], c);
  }
  void assign(std::uint32_t e, std::uint32_t c) {
    colour_[e] = c;
    table_.set(sender(e), c, e);
    table_.set(receiver(e), c, e);
  }
  // The path from `start` whose edges alternate `first`, `second`, `first`, ... into `path`;
  // returns its longest message's duration.
  double alternating_path(std::size_t start, std::uint32_t first, std::uint32_t second,
                          std::vector<std::uint32_t>& path) const {
    path.clear();
    double heaviest = 0.0;
    std::size_t v = start;
    std::uint32_t c = first;
    for (std::uint32_t e = table_.get(v, c); e != kNone; e = table_.get(v, c)) {
      path.push_back(e);
      heaviest = std::max(heaviest, seconds_[e]);
      v = other(e, v);
      c = c == first ? second : first;
    }
    return heaviest;
  }
  // Swaps colours `first` and `second` on `path`.
  void flip(const std::vector<std::uint32_t>& path, std::uint32_t first, std::uint32_t second) {
    for (const std::uint32_t e : path) {
      release(sender(e), colour_[e]);
      release(receiver(e), colour_[e]);
    }
    for (const std::uint32_t e : path) assign(e, colour_[e] == first ? second : first);
  }
  void colour(std::uint32_t e) {
    const std::size_t u = sender(e), v = receiver(e);
    // A colour free at both ends, if any: no path to swap. The lowest free at either end first,
    // then (within a budget of scanned colours, so that a node with many messages costs no
    // quadratic time) the lowest free at both.
    const std::uint32_t a = lowest_free(u), b = lowest_free(v);
    if (table_.get(v, a) == kNone || table_.get(u, b) == kNone) {
      assign(e, table_.get(v, a) == kNone ? a : b);
      return;
    }
    if (scan_budget_ >= delta_) {
      scan_budget_ -= delta_;
      for (std::uint32_t c = std::max(a, b) + 1; c < delta_; ++c) {
        if (table_.get(u, c) == kNone && table_.get(v, c) == kNone) {
          assign(e, c);
          return;
        }
      }
    }
    // Else a is free at u only, b at v only. Swapping a and b on the path from v frees a at v;
    // swapping them on the path from u frees b at u. Swap the path of lighter messages.
    const double from_v = alternating_path(v, a, b, path_);
    const double from_u = alternating_path(u, b, a, other_path_);
    if (from_v <= from_u) {
      flip(path_, a, b);
      assign(e, a);
    } else {
      flip(other_path_, b, a);
      assign(e, b);
    }
  }

  const Instance& in_;
  const std::vector<double>& seconds_;
  std::uint32_t delta_;
  Table table_;
  std::vector<std::uint32_t> colour_;
  std::vector<std::uint32_t> path_, other_path_;
  std::vector<std::uint32_t> lowest_;             // per vertex: no lower colour is free
  std::size_t scan_budget_ = kCommonScanColours;  // colours left to scan for common free ones
};

// Kempe-chain exchanges between two steps a and b: the messages of both form paths and even
// cycles alternating a and b, and swapping the two colours on any of them keeps every step a
// matching. For each component i, let hi_i and lo_i be the longer and the shorter of its longest
// a-message and its longest b-message; choosing the side of each component to minimise
// len(a) + len(b) is exact in O(C log C): for a bound T >= max lo_i on step a, a component with
// hi_i <= T puts hi_i in a and lo_i in b, one with hi_i > T must put lo_i in a and hi_i in b, and
// the best T is max lo_i or one of the hi_i.
class PairExchange {
 public:
  PairExchange(const Instance& in, const std::vector<double>& seconds,
               std::vector<std::uint32_t>& colours, std::size_t delta)
      : in_(in),
        seconds_(seconds),
        colours_(colours),
        members_(delta),
        longest_(delta, 0.0),
        at_a_(2 * in.nodes, kNone),
        at_b_(2 * in.nodes, kNone),
        component_(colours.size(), kNone) {
    for (std::size_t e = 0; e < colours.size(); ++e) {
      members_[colours[e]].push_back(static_cast<std::uint32_t>(e));
      longest_[colours[e]] = std::max(longest_[colours[e]], seconds[e]);
    }
  }

  // Sweeps over every pair of steps while one improves, within `budget` message visits.
  void run(std::size_t budget, int sweeps) {
    std::size_t visits = 0;
    for (int sweep = 0; sweep < sweeps; ++sweep) {
      bool improved = false;
      for (std::uint32_t a = 0; a < members_.size(); ++a) {
        for (std::uint32_t b = a + 1; b < members_.size(); ++b) {
          visits += members_[a].size() + members_[b].size();
          if (visits > budget) return;
          improved = improve(a, b) || improved;
        }
      }
      if (!improved) return;
    }
  }

 private:
  struct Component {
    double in_a = 0.0, in_b = 0.0;  // its longest message in step a, in step b
    bool swap = false;
  };

  std::size_t sender(std::uint32_t e) const {
    return static_cast<std::size_t>(in_.messages[e].from);
  }
  std::size_t receiver(std::uint32_t e) const {
    return in_.nodes + static_cast<std::size_t>(in_.messages[e].to);
  }

  void label_components(std::uint32_t a) {
    components_.clear();
    for (const std::uint32_t start : edges_) {
      if (component_[start] != kNone) continue;
      const auto c = static_cast<std::uint32_t>(components_.size());
      components_.push_back({});
      stack_.assign(1, start);
      component_[start] = c;
      while (!stack_.empty()) {
        const std::uint32_t f = stack_.back();
        stack_.pop_back();
        double& side = colours_[f] == a ? components_[c].in_a : components_[c].in_b;
        side = std::max(side, seconds_[f]);
        for (const std::size_t v : {sender(f), receiver(f)}) {
          for (const std::uint32_t g : {at_a_[v], at_b_[v]}) {
            if (g != kNone && component_[g] == kNone) {
              component_[g] = c;
              stack_.push_back(g);
            }
          }
        }
      }
    }
  }

  // The best bound T on step a, and the cost T + len(b) it gives.
  std::pair<double, double> best_split() {
    by_hi_.clear();
    double lo_max = 0.0;
    for (const Component& c : components_) {
      const double lo = std::min(c.in_a, c.in_b);
      by_hi_.emplace_back(std::max(c.in_a, c.in_b), lo);
      lo_max = std::max(lo_max, lo);
    }
    std::sort(by_hi_.begin(), by_hi_.end());
    const double hi_max = by_hi_.empty() ? 0.0 : by_hi_.back().first;
    double best_t = 0.0, best_cost = std::numeric_limits<double>::infinity(), lo_below = 0.0;
    std::size_t k = 0;
    const auto consider = [&](double t) {  // t ascending
      while (k < by_hi_.size() && by_hi_[k].first <= t) {
        lo_below = std::max(lo_below, by_hi_[k++].second);
      }
      const double cost = t + std::max(lo_below, hi_max > t ? hi_max : 0.0);
      if (cost < best_cost) {
        best_cost = cost;
        best_t = t;
      }
    };
    consider(lo_max);
    for (const auto& [hi, lo] : by_hi_) {
      if (hi >= lo_max) consider(hi);
    }
    return {best_t, best_cost};
  }

  bool improve(std::uint32_t a, std::uint32_t b) {
    edges_.assign(members_[a].begin(), members_[a].end());
    edges_.insert(edges_.end(), members_[b].begin(), members_[b].end());
    for (const std::uint32_t e : members_[a]) at_a_[sender(e)] = at_a_[receiver(e)] = e;
    for (const std::uint32_t e : members_[b]) at_b_[sender(e)] = at_b_[receiver(e)] = e;
    label_components(a);
    const double current = longest_[a] + longest_[b];
    const auto [t, cost] = best_split();
    const bool better = cost < current * (1 - kSearchResolution);
    if (better) {
      for (Component& c : components_) {
        const double hi = std::max(c.in_a, c.in_b), lo = std::min(c.in_a, c.in_b);
        // hi <= t: the longer side goes to a; else the shorter one.
        c.swap = hi <= t ? c.in_a != hi : c.in_a != lo;
      }
      members_[a].clear();
      members_[b].clear();
      longest_[a] = longest_[b] = 0.0;
      for (const std::uint32_t e : edges_) {
        if (components_[component_[e]].swap) colours_[e] = colours_[e] == a ? b : a;
        members_[colours_[e]].push_back(e);
        longest_[colours_[e]] = std::max(longest_[colours_[e]], seconds_[e]);
      }
    }
    for (const std::uint32_t e : edges_) {
      at_a_[sender(e)] = at_a_[receiver(e)] = at_b_[sender(e)] = at_b_[receiver(e)] = kNone;
      component_[e] = kNone;
    }
    return better;
  }

  const Instance& in_;
  const std::vector<double>& seconds_;
  std::vector<std::uint32_t>& colours_;
  std::vector<std::vector<std::uint32_t>> members_;
  std::vector<double> longest_;
  std::vector<std::uint32_t> at_a_, at_b_, component_, edges_, stack_;
  std::vector<Component> components_;
  std::vector<std::pair<double, double>> by_hi_;  // (hi, lo) of each component
};

}  // namespace

std::size_t largest_degree(const Instance& instance) {
  std::vector<std::size_t> sends(instance.nodes, 0), receives(instance.nodes, 0);
  std::size_t delta = 0;
  const auto valid = [&](std::int64_t node) {
    return node >= 0 && static_cast<std::size_t>(node) < instance.nodes;
  };
  for (const Message& m : instance.messages) {
    if (!valid(m.from) || !valid(m.to)) continue;  // refused by validate_instance
    delta = std::max({delta, ++sends[static_cast<std::size_t>(m.from)],
                      ++receives[static_cast<std::size_t>(m.to)]});
  }
  return delta;
}

void require_messages_times_degree(const Instance& instance, std::string_view algorithm,
                                   std::size_t limit, std::string_view cost) {
  const std::size_t m = instance.messages.size();
  if (m == 0 || m <= limit / m) return;  // m x Delta <= m^2 <= limit: no need to count
  const std::size_t delta = largest_degree(instance);
  if (delta <= limit / m) return;
  throw OptionError(fmt::format("{}: {} messages, up to {} of one node, more than the {} messages "
                                "x messages of one node this algorithm plans ({}); use auto or "
                                "whole",
                                algorithm, m, delta, limit, cost),
                    "algorithm");
}

std::vector<std::uint32_t> min_step_colours(const Instance& instance, ColourTable table) {
  require_messages_times_degree(instance, "min-steps", kMaxMinStepsMessagesTimesDegree,
                                "its colouring scans up to that many colours per message");
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
  std::vector<std::uint32_t> colours =
      table == ColourTable::dense ? Colouring<DenseTable>(instance, seconds, delta).run(order)
                                  : Colouring<SparseTable>(instance, seconds, delta).run(order);
  PairExchange(instance, seconds, colours, delta).run(kExchangeVisits, kExchangeSweeps);
  return colours;
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
        "{} steps: {} matching{} (the most messages of one node), split so that at most {} "
        "pieces cross the backbone at once",
        count, delta, delta == 1 ? "" : "s", instance.backbone->transfers));
  } else {
    plan.notes.push_back(fmt::format(
        "{} step{}, the most messages of one node: no step schedule sending each message whole "
        "has fewer",
        count, count == 1 ? "" : "s"));
  }
  note_step_lengths(plan, instance, sorted);
  return plan;
}

}  // namespace redist::exchange
