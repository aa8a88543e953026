#include "redist/exchange/kpbs.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <stdexcept>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "redist/common/error.hpp"
#include "redist/exchange/limits.hpp"
#include "redist/exchange/steps.hpp"

namespace redist::exchange {
namespace {

constexpr double kTicksPerBound = 1125899906842624.0;  // 2^50 ticks for eta_d
constexpr std::uint32_t kNone = 0xffffffffu;
// Totals of units over all messages may pass 2^63 (5 million messages of up to 2^51 units).
__extension__ typedef __int128 Wide;

// An edge of the padded graph: `message` is the index of its message, -1 for padding.
struct Edge {
  std::uint32_t left = 0, right = 0;
  std::int64_t remaining = 0;  // units
  std::int64_t message = -1;
};

struct PaddedGraph {
  std::size_t vertices = 0;  // on each side
  std::int64_t regular = 0;  // R: every vertex's weighted degree, in units
  std::vector<Edge> edges;
};

// A stretch [begin, end) of units during which a message is matched.
struct Stretch {
  std::int64_t begin, end;
};

// A vertex and the units it still gives or takes, for the north-west corner fill.
struct Amount {
  std::uint32_t vertex;
  std::int64_t units;
};

// Edges from `supply` (left vertices) to `demand` (right vertices), equal totals, filled in
// order: at most |supply| + |demand| - 1 edges, each vertex's total met exactly.
void fill(std::vector<Amount> supply, std::vector<Amount> demand, std::vector<Edge>& edges) {
  std::size_t a = 0, b = 0;
  while (a < supply.size() && b < demand.size()) {
    const std::int64_t w = std::min(supply[a].units, demand[b].units);
    if (w > 0) edges.push_back({supply[a].vertex, demand[b].vertex, w, -1});
    supply[a].units -= w;
    demand[b].units -= w;
    if (supply[a].units == 0) ++a;
    if (b < demand.size() && demand[b].units == 0) ++b;
  }
}

// The unit: beta, or the tick (a power of two near eta_d / 2^50) when beta is smaller.
double unit_of(const Instance& in) {
  const double tick = std::exp2(std::ceil(std::log2(step_bound(in).eta_d / kTicksPerBound)));
  return std::max(in.latency, tick);
}

std::vector<std::int64_t> units_of(const Instance& in, double alpha) {
  std::vector<std::int64_t> units(in.messages.size());
  for (std::size_t e = 0; e < units.size(); ++e) {
    const Message& m = in.messages[e];
    const double d = static_cast<double>(m.bytes) /
                     in.rate(static_cast<std::size_t>(m.from), static_cast<std::size_t>(m.to));
    units[e] = std::max<std::int64_t>(1, static_cast<std::int64_t>(std::ceil(d / alpha)));
  }
  return units;
}

// Numbers the nodes that have a message on one side (sender or receiver); kNone for the others.
std::vector<std::uint32_t> number_active(const Instance& in, bool senders, std::size_t* count) {
  std::vector<std::uint32_t> index(in.nodes, kNone);
  *count = 0;
  for (const Message& m : in.messages) {
    const auto v = static_cast<std::size_t>(senders ? m.from : m.to);
    if (index[v] == kNone) index[v] = static_cast<std::uint32_t>((*count)++);
  }
  return index;
}

// Splits each slack (R - degree) into an idle part (together `idle` units) and a dummy part.
void split_slack(const std::vector<std::int64_t>& degree, std::int64_t regular, Wide idle,
                 std::vector<Amount>& idle_part, std::vector<Amount>& dummy_part) {
  for (std::size_t v = 0; v < degree.size(); ++v) {
    const std::int64_t slack = regular - degree[v];
    const auto to_idle = static_cast<std::int64_t>(std::min<Wide>(slack, idle));
    idle -= to_idle;
    idle_part.push_back({static_cast<std::uint32_t>(v), to_idle});
    dummy_part.push_back({static_cast<std::uint32_t>(v), slack - to_idle});
  }
}

// Dummy vertices d0, d0 + 1, ... of `count` vertices, each of R units.
std::vector<Amount> dummies(std::size_t first, std::size_t count, std::int64_t regular) {
  std::vector<Amount> out;
  for (std::size_t d = 0; d < count; ++d)
    out.push_back({static_cast<std::uint32_t>(first + d), regular});
  return out;
}

// The weight-regular graph of step (2) (kpbs.hpp): left = senders then n2 - k dummies, right =
// receivers then n1 - k dummies.
PaddedGraph padded_graph(const Instance& in, const std::vector<std::int64_t>& units,
                         std::size_t k) {
  std::size_t n1 = 0, n2 = 0;
  const std::vector<std::uint32_t> sender = number_active(in, true, &n1);
  const std::vector<std::uint32_t> receiver = number_active(in, false, &n2);
  std::vector<std::int64_t> row(n1, 0), column(n2, 0);
  Wide total = 0;
  PaddedGraph g;
  for (std::size_t e = 0; e < units.size(); ++e) {
    const std::uint32_t i = sender[static_cast<std::size_t>(in.messages[e].from)];
    const std::uint32_t j = receiver[static_cast<std::size_t>(in.messages[e].to)];
    row[i] += units[e];
    column[j] += units[e];
    total += units[e];
    g.edges.push_back({i, j, units[e], static_cast<std::int64_t>(e)});
  }
  const std::int64_t widest = std::max(*std::max_element(row.begin(), row.end()),
                                       *std::max_element(column.begin(), column.end()));
  const auto kk = static_cast<Wide>(k);
  g.regular = std::max<std::int64_t>(widest, static_cast<std::int64_t>((total + kk - 1) / kk));
  g.vertices = n1 + n2 - k;
  const Wide idle = kk * g.regular - total;
  std::vector<Amount> idle_send, dummy_send, idle_recv, dummy_recv;
  split_slack(row, g.regular, idle, idle_send, dummy_send);
  split_slack(column, g.regular, idle, idle_recv, dummy_recv);
  fill(idle_send, idle_recv, g.edges);
  fill(dummy_send, dummies(n2, n1 - k, g.regular), g.edges);
  fill(dummies(n1, n2 - k, g.regular), dummy_recv, g.edges);
  return g;
}

// Peels perfect matchings off the padded graph and records each message's stretches.
class Peeler {
 public:
  Peeler(PaddedGraph& g, std::size_t messages, bool bottleneck, const char* algorithm)
      : g_(g),
        bottleneck_(bottleneck),
        algorithm_(algorithm),
        adjacency_(g.vertices),
        match_left_(g.vertices, kNone),
        match_right_(g.vertices, kNone),
        layer_(g.vertices),
        next_(g.vertices),
        stretches_(messages) {
    for (std::uint32_t e = 0; e < g.edges.size(); ++e) adjacency_[g.edges[e].left].push_back(e);
  }

  std::vector<std::vector<Stretch>> run() {
    while (now_ < g_.regular) {
      if (bottleneck_) {
        bottleneck_matching();
      } else if (!perfect_matching(1)) {
        throw std::logic_error("ggp: no perfect matching in a weight-regular bipartite graph");
      }
      peel();
    }
    return std::move(stretches_);
  }

 private:
  // Subtracts the matching's smallest weight from each of its edges, records the messages, and
  // counts the pieces of the step schedule as it grows: a new step starts when a message enters or
  // leaves, and holds one piece per matched message (the count steps_of will lay out). Refuses
  // the plan as soon as that count passes kMaxStepPieces, before the rest of the peeling.
  void peel() {
    std::int64_t c = std::numeric_limits<std::int64_t>::max();
    for (const std::uint32_t e : match_left_) c = std::min(c, g_.edges[e].remaining);
    std::size_t matched = 0, continued = 0;
    for (const std::uint32_t e : match_left_) {
      Edge& edge = g_.edges[e];
      edge.remaining -= c;
      if (edge.message < 0) continue;
      ++matched;
      if (record(static_cast<std::size_t>(edge.message), c)) ++continued;
    }
    if (matched != continued || continued != previous_matched_) pieces_ += matched;
    previous_matched_ = matched;
    now_ += c;
    if (pieces_ > kMaxStepPieces) {
      throw OptionError(fmt::format("{}: the step schedule passes the {} pieces accepted (use "
                                    "preemptive or whole)",
                                    algorithm_, kMaxStepPieces),
                        "algorithm");
    }
  }
  // True when the message continues a stretch that ended now.
  bool record(std::size_t message, std::int64_t c) {
    std::vector<Stretch>& s = stretches_[message];
    if (!s.empty() && s.back().end == now_) {
      s.back().end = now_ + c;
      return true;
    }
    s.push_back({now_, now_ + c});
    return false;
  }
  // The perfect matching whose smallest weight is largest: the largest threshold among the
  // distinct remaining weights at which the edges at or above it still match every vertex.
  void bottleneck_matching() {
    std::vector<std::int64_t> weights;
    for (const Edge& e : g_.edges) {
      if (e.remaining > 0) weights.push_back(e.remaining);
    }
    std::sort(weights.begin(), weights.end());
    weights.erase(std::unique(weights.begin(), weights.end()), weights.end());
    std::size_t low = 0, high = weights.size();  // weights[low] feasible, weights[high] not
    std::vector<std::uint32_t> best_left, best_right;
    while (high - low > 1) {
      const std::size_t mid = low + (high - low) / 2;
      const auto saved_left = match_left_, saved_right = match_right_;
      if (perfect_matching(weights[mid])) {
        low = mid;
        best_left = match_left_;
        best_right = match_right_;
      } else {
        high = mid;
        match_left_ = saved_left;
        match_right_ = saved_right;
      }
    }
    if (!best_left.empty()) {
      match_left_ = std::move(best_left);
      match_right_ = std::move(best_right);
    } else if (!perfect_matching(weights[0])) {
      throw std::logic_error("oggp: no perfect matching in a weight-regular bipartite graph");
    }
  }
  // Hopcroft-Karp from the current matching, over the edges of at least `threshold` units (the
  // matched ones below it dropped first); true when every vertex is matched.
  bool perfect_matching(std::int64_t threshold) {
    threshold_ = threshold;
    for (std::uint32_t u = 0; u < g_.vertices; ++u) {
      const std::uint32_t e = match_left_[u];
      if (e != kNone && g_.edges[e].remaining < threshold) {
        match_left_[u] = kNone;
        match_right_[g_.edges[e].right] = kNone;
      }
    }
    while (layer()) {
      std::fill(next_.begin(), next_.end(), 0);
      for (std::uint32_t u = 0; u < g_.vertices; ++u) {
        if (match_left_[u] == kNone) augment(u);
      }
    }
    return std::find(match_left_.begin(), match_left_.end(), kNone) == match_left_.end();
  }
  bool live(std::uint32_t e) const { return g_.edges[e].remaining >= threshold_; }
  // Breadth-first layers of left vertices from the free ones; true if a free right vertex is
  // reachable.
  bool layer() {
    std::vector<std::uint32_t> queue;
    for (std::uint32_t u = 0; u < g_.vertices; ++u) {
      layer_[u] = match_left_[u] == kNone ? 0 : kNone;
      if (layer_[u] == 0) queue.push_back(u);
    }
    bool found = false;
    for (std::size_t head = 0; head < queue.size(); ++head) {
      const std::uint32_t u = queue[head];
      for (const std::uint32_t e : adjacency_[u]) {
        if (!live(e)) continue;
        const std::uint32_t mate = match_right_[g_.edges[e].right];
        if (mate == kNone) {
          found = true;
        } else if (layer_[g_.edges[mate].left] == kNone) {
          layer_[g_.edges[mate].left] = layer_[u] + 1;
          queue.push_back(g_.edges[mate].left);
        }
      }
    }
    return found;
  }
  // An augmenting path from the free left vertex `root` along the layers (iterative depth-first
  // search); flips it when found.
  void augment(std::uint32_t root) {
    std::vector<std::uint32_t> path{root};
    while (!path.empty()) {
      const std::uint32_t u = path.back();
      if (next_[u] == adjacency_[u].size()) {
        layer_[u] = kNone;
        path.pop_back();
        continue;
      }
      const std::uint32_t e = adjacency_[u][next_[u]];
      const std::uint32_t mate = live(e) ? match_right_[g_.edges[e].right] : kNone;
      if (live(e) && mate == kNone) return flip(path);
      if (live(e) && layer_[g_.edges[mate].left] == layer_[u] + 1) {
        path.push_back(g_.edges[mate].left);
      } else {
        ++next_[u];
      }
    }
  }
  void flip(const std::vector<std::uint32_t>& path) {
    for (const std::uint32_t u : path) {
      const std::uint32_t e = adjacency_[u][next_[u]];
      match_left_[u] = e;
      match_right_[g_.edges[e].right] = e;
    }
  }

  PaddedGraph& g_;
  bool bottleneck_;
  const char* algorithm_;
  std::size_t pieces_ = 0, previous_matched_ = 0;
  std::vector<std::vector<std::uint32_t>> adjacency_;    // edges by left vertex
  std::vector<std::uint32_t> match_left_, match_right_;  // edge or kNone
  std::vector<std::uint32_t> layer_, next_;
  std::vector<std::vector<Stretch>> stretches_;
  std::int64_t threshold_ = 1;
  std::int64_t now_ = 0;
};

// Cuts every stretch at every stretch end: between two cuts the matched messages are constant,
// and each such interval is a step (the empty ones are dropped by step_plan).
std::vector<std::int64_t> cuts_of(const std::vector<std::vector<Stretch>>& stretches) {
  std::vector<std::int64_t> cuts;
  for (const auto& s : stretches) {
    for (const Stretch& t : s) {
      cuts.push_back(t.begin);
      cuts.push_back(t.end);
    }
  }
  std::sort(cuts.begin(), cuts.end());
  cuts.erase(std::unique(cuts.begin(), cuts.end()), cuts.end());
  return cuts;
}

std::size_t cut_index(const std::vector<std::int64_t>& cuts, std::int64_t t) {
  return static_cast<std::size_t>(std::lower_bound(cuts.begin(), cuts.end(), t) - cuts.begin());
}

// The steps of the stretches: a message's bytes shared in proportion to its units, the last
// piece taking what rounding leaves.
std::vector<Step> steps_of(const Instance& in, const std::vector<std::int64_t>& units,
                           const std::vector<std::vector<Stretch>>& stretches) {
  const std::vector<std::int64_t> cuts = cuts_of(stretches);
  std::vector<Step> steps(cuts.empty() ? 0 : cuts.size() - 1);
  for (std::size_t e = 0; e < stretches.size(); ++e) {
    const auto bytes = static_cast<double>(in.messages[e].bytes);
    double left = bytes;
    for (const Stretch& t : stretches[e]) {
      for (std::size_t c = cut_index(cuts, t.begin); c < cut_index(cuts, t.end); ++c) {
        const double share =
            bytes * static_cast<double>(cuts[c + 1] - cuts[c]) / static_cast<double>(units[e]);
        const double piece = cuts[c + 1] == stretches[e].back().end ? left : std::min(share, left);
        left -= piece;
        steps[c].push_back({e, piece});
      }
    }
  }
  return steps;
}

Plan plan_peeling(const Instance& instance, bool bottleneck) {
  const char* name = bottleneck ? "oggp" : "ggp";
  if (bottleneck) {
    require_algorithm_messages(instance, name, kMaxOggpMessages,
                               "up to one bottleneck matching per edge of its graph, each a "
                               "binary search of Hopcroft-Karp runs");
  } else {
    require_algorithm_messages(instance, name, kMaxGgpMessages,
                               "up to one matching per edge of its graph, each repaired over the "
                               "whole graph: quadratic time");
  }
  validate_instance(instance);
  std::vector<Step> steps;
  if (!instance.messages.empty()) {
    const std::vector<std::int64_t> units = units_of(instance, unit_of(instance));
    PaddedGraph graph = padded_graph(instance, units, step_capacity(instance));
    const auto stretches = Peeler(graph, instance.messages.size(), bottleneck, name).run();
    steps = steps_of(instance, units, stretches);
  }
  return step_plan(instance, steps, name);
}

}  // namespace

Plan plan_ggp(const Instance& instance) { return plan_peeling(instance, false); }

Plan plan_oggp(const Instance& instance) { return plan_peeling(instance, true); }

}  // namespace redist::exchange
