#include "redist/exchange/kpbs.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <functional>
#include <queue>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include <fmt/format.h>

#include "redist/common/error.hpp"
#include "redist/exchange/kpbs_peeling.hpp"
#include "redist/exchange/limits.hpp"
#include "redist/exchange/steps.hpp"

namespace redist::exchange::kpbs_peeling {
namespace {

constexpr double kTicksPerBound = 1125899906842624.0;  // 2^50 ticks for eta_d
constexpr std::uint32_t kNone = 0xffffffffu;
// Edges a depth-first search for an augmenting path scans before the breadth-first one.
constexpr std::size_t kDepthFirstEdges = 256;
// Totals of units over all messages may pass 2^63 (5 million messages of up to 2^51 units).
__extension__ typedef __int128 Wide;

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

// Peels perfect matchings off the graph and records each message's stretches. The matching is
// kept from one peel to the next: a matched edge holds its expiry (the time, in units, at which it
// is used up), the matched edges sit in a heap by expiry, and an unmatched edge holds its
// remaining weight. Only the edges that leave the matching (used up, or for oggp fallen below the
// threshold t) free vertices, and only those are matched again, each by one augmenting path. The
// edges of each left vertex are listed heaviest first (a path takes edges that last), and the
// used-up ones are deleted when they make more than half of a list.
class Peeler {
 public:
  Peeler(Graph g, std::size_t messages, bool bottleneck, const Observer& observe)
      : g_(std::move(g)),
        bottleneck_(bottleneck),
        observe_(observe),
        adjacency_(g_.vertices),
        match_left_(g_.vertices, kNone),
        match_right_(g_.vertices, kNone),
        used_up_(g_.vertices, 0),
        via_(g_.vertices, kNone),
        width_(g_.vertices, 0),
        reached_(g_.vertices, 0),
        entered_(g_.vertices, 0),
        expiry_(g_.edges.size(), 0),
        since_(g_.edges.size(), 0),
        was_matched_(g_.edges.size(), false),
        stretches_(messages) {
    for (std::uint32_t e = 0; e < g_.edges.size(); ++e) {
      adjacency_[g_.edges[e].left].push_back(e);
      if (bottleneck_) threshold_ = std::max(threshold_, g_.edges[e].remaining);
    }
    for (auto& edges : adjacency_) {
      std::stable_sort(edges.begin(), edges.end(), [&](std::uint32_t a, std::uint32_t b) {
        return g_.edges[a].remaining > g_.edges[b].remaining;
      });
    }
    for (std::size_t u = g_.vertices; u-- > 0;) free_.push_back(static_cast<std::uint32_t>(u));
  }

  std::vector<std::vector<Stretch>> run() {
    while (now_ < g_.regular) {
      repair();
      if (observe_) observe_(snapshot(), match_left_);
      peel();
    }
    return std::move(stretches_);
  }

 private:
  // An augmenting path from each free vertex: over the edges of at least t units when a short
  // depth-first search finds one, else the widest one (the largest smallest weight of its
  // unmatched edges, up to t). For oggp, when it is narrower than t there is no path from that
  // vertex over the edges of at least t units, hence no perfect matching of them: t drops to its
  // width (the bottleneck never increases as weights drop, so t is the bottleneck once all match).
  void repair() {
    while (!free_.empty()) {
      std::uint32_t v = depth_first(free_.back());
      if (v == kNone) v = widest_path(free_.back());
      if (v == kNone) {
        throw std::logic_error(std::string(bottleneck_ ? "oggp" : "ggp") +
                               ": no perfect matching in a weight-regular bipartite graph");
      }
      threshold_ = width_[v];
      flip(via_[v]);
      free_.pop_back();
    }
  }
  // The free right vertex at the end of an augmenting path over the edges of at least t units
  // found by a depth-first search, heaviest edges first, kNone when it finds none within
  // kDepthFirstEdges edges. Its longer paths move the matching to heavier edges, which last: fewer
  // matchings and steps; the breadth-first search bounds the time where paths are long.
  std::uint32_t depth_first(std::uint32_t root) {
    ++stamp_;
    stack_.assign(1, {root, 0});
    for (std::size_t scanned = 0; !stack_.empty() && scanned < kDepthFirstEdges; ++scanned) {
      const std::uint32_t u = stack_.back().first;
      const auto& edges = stack_.back().second == 0 ? live_edges(u) : adjacency_[u];
      if (stack_.back().second == edges.size()) {
        stack_.pop_back();
        continue;
      }
      const std::uint32_t e = edges[stack_.back().second++];
      const std::uint32_t v = g_.edges[e].right;
      if (weight(e) < threshold_ || reached_[v] == stamp_) continue;
      reached_[v] = stamp_;
      width_[v] = threshold_;
      via_[v] = e;
      if (match_right_[v] == kNone) return v;
      stack_.push_back({g_.edges[match_right_[v]].left, 0});
    }
    return kNone;
  }
  // The free right vertex at the end of the widest augmenting path from the free left vertex
  // root, kNone when there is none: a breadth-first search over the edges of at least t units
  // (every ggp edge), then, when it finds no free vertex, a search of the narrower ones widest
  // first (Dijkstra's order for the bottleneck). Each right vertex is entered once, from the edge
  // via_ at the width width_.
  std::uint32_t widest_path(std::uint32_t root) {
    ++stamp_;
    queue_.clear();
    narrower_.clear();
    std::uint32_t found = scan(root, threshold_);
    for (std::size_t head = 0; found == kNone;) {
      std::uint32_t v = kNone;
      if (head < queue_.size()) {
        v = queue_[head++];
      } else if (!narrower_.empty()) {
        std::pop_heap(narrower_.begin(), narrower_.end());
        v = narrower_.back().second;
        narrower_.pop_back();
        if (entered_[v] == stamp_) continue;
        if (match_right_[v] == kNone) return v;
      } else {
        return kNone;
      }
      entered_[v] = stamp_;
      found = scan(g_.edges[match_right_[v]].left, width_[v]);
    }
    return found;
  }
  // Offers the right vertices of u's positive edges the width min(width, weight), queued at t and
  // kept widest first below it; returns one that is free at t (then the path is found), or kNone.
  std::uint32_t scan(std::uint32_t u, std::int64_t width) {
    for (const std::uint32_t e : live_edges(u)) {
      const std::int64_t b = std::min(width, weight(e));
      const std::uint32_t v = g_.edges[e].right;
      if (b == 0 || (reached_[v] == stamp_ && width_[v] >= b)) continue;
      reached_[v] = stamp_;
      width_[v] = b;
      via_[v] = e;
      if (b < threshold_) {
        narrower_.push_back({b, v});
        std::push_heap(narrower_.begin(), narrower_.end());
      } else if (match_right_[v] == kNone) {
        return v;
      } else {
        queue_.push_back(v);
      }
    }
    return kNone;
  }
  // The positive edges of left vertex u, in their first order: the used-up ones are deleted when
  // they make more than half of the list (each deletion amortized in O(1)).
  const std::vector<std::uint32_t>& live_edges(std::uint32_t u) {
    std::vector<std::uint32_t>& edges = adjacency_[u];
    if (2 * used_up_[u] > edges.size()) {
      std::erase_if(edges, [&](std::uint32_t e) { return weight(e) == 0; });
      used_up_[u] = 0;
    }
    return edges;
  }
  // Back along the path ending with edge e: each left vertex leaves its matched edge for the
  // path's edge out of it, up to the root.
  void flip(std::uint32_t e) {
    while (true) {
      const std::uint32_t displaced = match_left_[g_.edges[e].left];
      if (displaced != kNone) unmatch(displaced);
      match(e);
      if (displaced == kNone) return;
      e = via_[g_.edges[displaced].right];
    }
  }
  void match(std::uint32_t e) {
    const Edge& edge = g_.edges[e];
    match_left_[edge.left] = e;
    match_right_[edge.right] = e;
    expiry_[e] = now_ + edge.remaining;
    since_[e] = now_;
    expiries_.push({expiry_[e], e});
    if (edge.message < 0) return;
    toggled(e);
    ++matched_messages_;
  }
  void unmatch(std::uint32_t e) {
    Edge& edge = g_.edges[e];
    edge.remaining = expiry_[e] - now_;
    match_left_[edge.left] = kNone;
    match_right_[edge.right] = kNone;
    if (edge.message < 0) return;
    toggled(e);
    --matched_messages_;
    record(static_cast<std::size_t>(edge.message), since_[e]);
  }
  bool matched(std::uint32_t e) const { return match_left_[g_.edges[e].left] == e; }
  std::int64_t weight(std::uint32_t e) const {
    return matched(e) ? expiry_[e] - now_ : g_.edges[e].remaining;
  }
  void toggled(std::uint32_t e) { toggled_.push_back(e); }
  // The stretch [begin, now) of a message that leaves the matching, joined to its last one when
  // that ended at `begin`.
  void record(std::size_t message, std::int64_t begin) {
    if (begin == now_) return;
    std::vector<Stretch>& s = stretches_[message];
    if (!s.empty() && s.back().end == begin) {
      s.back().end = now_;
    } else {
      s.push_back({begin, now_});
    }
  }
  // The matched edge that expires first, kNone when none is (stale heap entries dropped).
  std::uint32_t first_to_expire() {
    while (!expiries_.empty()) {
      const auto [expiry, e] = expiries_.top();
      if (matched(e) && expiry_[e] == expiry) return e;
      expiries_.pop();
    }
    return kNone;
  }
  // Lasts the matching's smallest weight c: every matched weight drops by c (now advances), the
  // matched edges under t (used up, for ggp) leave the matching and free their left vertices.
  // Counts the pieces of the step schedule as it grows: a new step starts when the matched
  // messages change, and holds one piece per matched message (the count steps_of will lay out).
  // Refuses the plan as soon as that count passes kMaxStepPieces, before the rest of the peeling.
  void peel() {
    if (messages_changed()) pieces_ += matched_messages_;
    now_ = expiry_[first_to_expire()];
    for (std::uint32_t e = first_to_expire(); e != kNone && expiry_[e] - now_ < threshold_;
         e = first_to_expire()) {
      expiries_.pop();
      unmatch(e);
      free_.push_back(g_.edges[e].left);
      if (g_.edges[e].remaining == 0) ++used_up_[g_.edges[e].left];
    }
    if (pieces_ > kMaxStepPieces) {
      throw OptionError(fmt::format("{}: the step schedule passes the {} pieces accepted (use "
                                    "preemptive or whole)",
                                    bottleneck_ ? "oggp" : "ggp", kMaxStepPieces),
                        "algorithm");
    }
  }
  // True when the matched messages differ from those of the previous matching.
  bool messages_changed() {
    bool changed = false;
    for (const std::uint32_t e : toggled_) {
      changed = changed || matched(e) != was_matched_[e];
      was_matched_[e] = matched(e);
    }
    toggled_.clear();
    return changed;
  }
  Graph snapshot() const {
    Graph g = g_;
    for (std::uint32_t e = 0; e < g.edges.size(); ++e) g.edges[e].remaining = weight(e);
    return g;
  }

  using Expiry = std::pair<std::int64_t, std::uint32_t>;  // (expiry, edge)

  Graph g_;
  bool bottleneck_;
  const Observer& observe_;
  std::vector<std::vector<std::uint32_t>> adjacency_;    // positive edges by left vertex
  std::vector<std::uint32_t> match_left_, match_right_;  // edge or kNone
  std::vector<std::size_t> used_up_;                     // edges at 0 in each list
  std::vector<std::uint32_t> via_;                       // edge into each reached right vertex
  std::vector<std::int64_t> width_;                      // and the path's width there
  std::vector<std::uint64_t> reached_, entered_;         // stamps of the search
  std::vector<std::int64_t> expiry_, since_;             // of each matched edge
  std::vector<bool> was_matched_;                        // in the previous matching
  std::vector<std::uint32_t> toggled_, free_;
  std::vector<std::pair<std::uint32_t, std::size_t>> stack_;      // left vertex, next edge
  std::vector<std::uint32_t> queue_;                              // right vertices reached at t
  std::vector<std::pair<std::int64_t, std::uint32_t>> narrower_;  // a heap, widest first
  std::priority_queue<Expiry, std::vector<Expiry>, std::greater<>> expiries_;
  std::vector<std::vector<Stretch>> stretches_;
  std::uint64_t stamp_ = 0;
  std::size_t pieces_ = 0, matched_messages_ = 0;
  std::int64_t threshold_ = 1, now_ = 0;
};

}  // namespace

std::vector<std::int64_t> units_of(const Instance& in) {
  const double alpha = unit_of(in);
  std::vector<std::int64_t> units(in.messages.size());
  for (std::size_t e = 0; e < units.size(); ++e) {
    const Message& m = in.messages[e];
    const double d = static_cast<double>(m.bytes) /
                     in.rate(static_cast<std::size_t>(m.from), static_cast<std::size_t>(m.to));
    units[e] = std::max<std::int64_t>(1, static_cast<std::int64_t>(std::ceil(d / alpha)));
  }
  return units;
}

// Left = senders then n2 - k dummies, right = receivers then n1 - k dummies.
Graph graph_of(const Instance& in, const std::vector<std::int64_t>& units) {
  const std::size_t k = step_capacity(in);
  std::size_t n1 = 0, n2 = 0;
  const std::vector<std::uint32_t> sender = number_active(in, true, &n1);
  const std::vector<std::uint32_t> receiver = number_active(in, false, &n2);
  std::vector<std::int64_t> row(n1, 0), column(n2, 0);
  Wide total = 0;
  Graph g;
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

std::vector<std::vector<Stretch>> peel(Graph graph, std::size_t messages, bool bottleneck,
                                       const Observer& observe) {
  return Peeler(std::move(graph), messages, bottleneck, observe).run();
}

}  // namespace redist::exchange::kpbs_peeling

namespace redist::exchange {
namespace {

using kpbs_peeling::Stretch;

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
                               "a widest augmenting path for each edge that leaves its bottleneck "
                               "matching, each over up to the whole graph");
  } else {
    require_algorithm_messages(instance, name, kMaxGgpMessages,
                               "an augmenting path for each edge of its graph used up, each over "
                               "up to the whole graph: quadratic time");
  }
  validate_instance(instance);
  std::vector<Step> steps;
  if (!instance.messages.empty()) {
    const std::vector<std::int64_t> units = kpbs_peeling::units_of(instance);
    const auto stretches = kpbs_peeling::peel(kpbs_peeling::graph_of(instance, units),
                                              instance.messages.size(), bottleneck);
    steps = steps_of(instance, units, stretches);
  }
  return step_plan(instance, steps, name);
}

}  // namespace

Plan plan_ggp(const Instance& instance) { return plan_peeling(instance, false); }

Plan plan_oggp(const Instance& instance) { return plan_peeling(instance, true); }

}  // namespace redist::exchange
