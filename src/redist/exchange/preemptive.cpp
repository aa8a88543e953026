#include "redist/exchange/preemptive.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <optional>
#include <queue>
#include <tuple>
#include <vector>

#include <fmt/format.h>

#include "redist/common/error.hpp"
#include "redist/common/tolerance.hpp"
#include "redist/exchange/bounds.hpp"
#include "redist/exchange/limits.hpp"

namespace redist::exchange {
namespace {

constexpr double kTicksPerBound = 1125899906842624.0;  // 2^50 ticks for the ports bound L

// A stretch [begin, end) of ticks during which a message is matched.
struct Stretch {
  std::int64_t begin, end;
};

// The padded regular bipartite graph: left vertices are the senders 0..p-1 and the receivers'
// copies p..2p-1; right vertices the receivers 0..p-1 and the senders' copies p..2p-1.
struct PaddedGraph {
  std::vector<std::uint32_t> left, right;
  std::vector<std::int64_t> remaining;  // ticks; for a matched edge, those at its entry
  std::vector<std::int64_t> message;    // index of the message, -1 for padding
  std::vector<std::uint32_t> adjacency, begin, end;  // edges by left vertex; [begin, end) live
  std::vector<std::uint32_t> in_adjacency, in_begin, in_end;  // the same by right vertex
  std::int64_t total = 0;  // every vertex's weighted degree, in ticks
};

std::vector<std::int64_t> ticks_of(const Instance& in, double tick) {
  std::vector<std::int64_t> ticks(in.messages.size());
  for (std::size_t k = 0; k < ticks.size(); ++k) {
    const Message& m = in.messages[k];
    const double d = static_cast<double>(m.bytes) /
                     in.rate(static_cast<std::size_t>(m.from), static_cast<std::size_t>(m.to));
    ticks[k] = std::max<std::int64_t>(1, std::llround(d / tick));
  }
  return ticks;
}

void add_edge(PaddedGraph& g, std::size_t l, std::size_t r, std::int64_t w, std::int64_t msg) {
  if (w <= 0) return;
  g.left.push_back(static_cast<std::uint32_t>(l));
  g.right.push_back(static_cast<std::uint32_t>(r));
  g.remaining.push_back(w);
  g.message.push_back(msg);
}

// Edges grouped by `vertex_of` (compressed rows): adjacency[begin[v], end[v]) are v's.
void index_edges(const std::vector<std::uint32_t>& vertex_of, std::size_t vertices,
                 std::vector<std::uint32_t>& adjacency, std::vector<std::uint32_t>& begin,
                 std::vector<std::uint32_t>& end) {
  begin.assign(vertices + 1, 0);
  for (const std::uint32_t v : vertex_of) ++begin[v + 1];
  for (std::size_t v = 0; v < vertices; ++v) begin[v + 1] += begin[v];
  end.assign(begin.begin(), begin.end() - 1);
  adjacency.resize(vertex_of.size());
  for (std::size_t e = 0; e < vertex_of.size(); ++e) {
    adjacency[end[vertex_of[e]]++] = static_cast<std::uint32_t>(e);
  }
}

PaddedGraph padded_graph(const Instance& in, const std::vector<std::int64_t>& ticks) {
  const std::size_t p = in.nodes;
  std::vector<std::int64_t> row(p, 0), column(p, 0);
  for (std::size_t k = 0; k < ticks.size(); ++k) {
    row[static_cast<std::size_t>(in.messages[k].from)] += ticks[k];
    column[static_cast<std::size_t>(in.messages[k].to)] += ticks[k];
  }
  PaddedGraph g;
  g.total = std::max(*std::max_element(row.begin(), row.end()),
                     *std::max_element(column.begin(), column.end()));
  for (std::size_t k = 0; k < ticks.size(); ++k) {
    const auto i = static_cast<std::size_t>(in.messages[k].from);
    const auto j = static_cast<std::size_t>(in.messages[k].to);
    add_edge(g, i, j, ticks[k], static_cast<std::int64_t>(k));
    add_edge(g, p + j, p + i, ticks[k], -1);
  }
  for (std::size_t i = 0; i < p; ++i) add_edge(g, i, p + i, g.total - row[i], -1);
  for (std::size_t j = 0; j < p; ++j) add_edge(g, p + j, j, g.total - column[j], -1);
  index_edges(g.left, 2 * p, g.adjacency, g.begin, g.end);
  index_edges(g.right, 2 * p, g.in_adjacency, g.in_begin, g.in_end);
  return g;
}

// Thrown when the augmenting paths would scan more edges than the budget allows.
struct OverBudget {};

// Runs the matchings one after the other, keeping a perfect matching by augmenting paths; throws
// OverBudget once the paths have scanned more than `budget` edges.
class Decomposition {
 public:
  Decomposition(PaddedGraph& g, std::size_t messages, std::int64_t budget)
      : budget_(budget),
        g_(g),
        match_left_(g.begin.size() - 1, kNone),
        match_right_(g.begin.size() - 1, kNone),
        entered_(g.left.size(), 0),
        version_(g.left.size(), 0),
        visited_(g.begin.size() - 1, 0),
        came_by_(g.begin.size() - 1, kNone),
        marked_(g.begin.size() - 1, 0),
        edge_to_target_(g.begin.size() - 1, kNone),
        stretches_(messages) {}

  std::vector<std::vector<Stretch>> run() {
    for (std::uint32_t u = 0; u < match_left_.size(); ++u) {
      if (!direct(u)) {
        ++stamp_;
        augment(u, u);
      }
    }
    while (!ends_.empty()) {
      const std::int64_t now = std::get<0>(ends_.top());
      std::vector<std::uint32_t> freed;  // used-up edges: their ends lost their partner
      while (!ends_.empty() && std::get<0>(ends_.top()) == now) {
        const auto [when, e, version] = ends_.top();
        ends_.pop();
        if (version != version_[e] || match_left_[g_.left[e]] != e) continue;
        leave(e, now);
        freed.push_back(e);
      }
      now_ = now;
      if (now == g_.total) break;  // every edge used up: the last matching has ended
      for (const std::uint32_t e : freed) rematch(g_.left[e], g_.right[e]);
    }
    return std::move(stretches_);
  }

 private:
  static constexpr std::uint32_t kNone = 0xffffffffu;

  void enter(std::uint32_t e) {
    match_left_[g_.left[e]] = e;
    match_right_[g_.right[e]] = e;
    entered_[e] = now_;
    ends_.push({now_ + g_.remaining[e], e, ++version_[e]});
  }
  // Takes e out of the matching at `now`: its ticks so far become a stretch of its message.
  void leave(std::uint32_t e, std::int64_t now) {
    const std::int64_t used = now - entered_[e];
    g_.remaining[e] -= used;
    if (match_right_[g_.right[e]] == e) match_right_[g_.right[e]] = kNone;
    if (match_left_[g_.left[e]] == e) match_left_[g_.left[e]] = kNone;
    if (g_.message[e] < 0 || used == 0) return;
    std::vector<Stretch>& s = stretches_[static_cast<std::size_t>(g_.message[e])];
    if (!s.empty() && s.back().end == entered_[e]) {
      s.back().end = now;
    } else {
      s.push_back({entered_[e], now});
    }
  }
  // The next live edge of left vertex x at position pos, dropping used-up edges (the last one
  // takes their place); kNone if none.
  std::uint32_t next_edge(std::uint32_t x, std::uint32_t pos) {
    while (pos < g_.end[x]) {
      const std::uint32_t e = g_.adjacency[pos];
      if (g_.remaining[e] > 0 || match_left_[x] == e) return e;
      g_.adjacency[pos] = g_.adjacency[--g_.end[x]];
    }
    return kNone;
  }
  // Gives the free left vertex u a partner again by the shortest alternating path found (so that
  // few messages change between consecutive matchings): an edge to a free right vertex, else a
  // breadth-first search from u that stops as soon as it reaches a free right vertex or a left
  // vertex with a live edge to `v`, the right vertex u lost (when v is still free).
  void rematch(std::uint32_t u, std::uint32_t v) {
    if (match_left_[u] != kNone || direct(u)) return;
    ++stamp_;
    if (match_right_[v] == kNone) mark_neighbours(v);
    augment(u, v);
  }
  bool direct(std::uint32_t u) {
    std::uint32_t pos = g_.begin[u];
    for (std::uint32_t e; (e = next_edge(u, pos)) != kNone; ++pos) {
      if (match_right_[g_.right[e]] == kNone) {
        enter(e);
        return true;
      }
    }
    return false;
  }
  // Marks the left vertices with a live edge to the free right vertex v (dropping used-up ones).
  void mark_neighbours(std::uint32_t v) {
    for (std::uint32_t pos = g_.in_begin[v]; pos < g_.in_end[v];) {
      const std::uint32_t e = g_.in_adjacency[pos];
      if (g_.remaining[e] <= 0) {
        g_.in_adjacency[pos] = g_.in_adjacency[--g_.in_end[v]];
        continue;
      }
      marked_[g_.left[e]] = stamp_;
      edge_to_target_[g_.left[e]] = e;
      ++pos;
    }
  }
  // An augmenting path from the free left vertex u, breadth first; one exists since the remaining
  // graph is regular, so it has a perfect matching. `v`: the right vertex whose neighbours are
  // marked (for the current stamp), or any when none are.
  void augment(std::uint32_t u, std::uint32_t v) {
    std::vector<std::uint32_t> queue{u};
    for (std::size_t head = 0; head < queue.size(); ++head) {
      const std::uint32_t x = queue[head];
      std::uint32_t pos = g_.begin[x];
      budget_ -= g_.end[x] - pos;
      if (budget_ < 0) throw OverBudget{};
      for (std::uint32_t e; (e = next_edge(x, pos)) != kNone; ++pos) {
        const std::uint32_t w = g_.right[e];
        if (e == match_left_[x] || visited_[w] == stamp_) continue;
        visited_[w] = stamp_;
        came_by_[w] = e;
        if (match_right_[w] == kNone) return flip(w);
        const std::uint32_t partner = g_.left[match_right_[w]];
        if (marked_[partner] == stamp_) {
          came_by_[v] = edge_to_target_[partner];
          return flip(v);
        }
        queue.push_back(partner);
      }
    }
    throw std::logic_error("preemptive: no augmenting path in a regular bipartite graph");
  }
  // Flips the path that reached the free right vertex v.
  void flip(std::uint32_t v) {
    while (true) {
      const std::uint32_t e = came_by_[v];
      const std::uint32_t x = g_.left[e];
      const std::uint32_t old = match_left_[x];
      if (old != kNone) leave(old, now_);
      enter(e);
      if (old == kNone) return;
      v = g_.right[old];
    }
  }

  std::int64_t budget_;
  PaddedGraph& g_;
  std::vector<std::uint32_t> match_left_, match_right_;
  std::vector<std::int64_t> entered_;
  std::vector<std::uint32_t> version_;
  std::vector<std::uint64_t> visited_;
  std::vector<std::uint32_t> came_by_;
  std::vector<std::uint64_t> marked_;          // left vertices with a live edge to the target
  std::vector<std::uint32_t> edge_to_target_;  // that edge
  std::uint64_t stamp_ = 0;
  std::int64_t now_ = 0;
  using End = std::tuple<std::int64_t, std::uint32_t, std::uint32_t>;  // (tick, edge, version)
  std::priority_queue<End, std::vector<End>, std::greater<>> ends_;
  std::vector<std::vector<Stretch>> stretches_;
};

// The largest total of bytes / rate over a node's sends or receives: the ports bound without
// latency.
double data_bound(const Instance& in) {
  std::vector<double> sends(in.nodes, 0.0), receives(in.nodes, 0.0);
  for (const Message& m : in.messages) {
    const auto i = static_cast<std::size_t>(m.from), j = static_cast<std::size_t>(m.to);
    const double d = static_cast<double>(m.bytes) / in.rate(i, j);
    sends[i] += d;
    receives[j] += d;
  }
  return std::max(*std::max_element(sends.begin(), sends.end()),
                  *std::max_element(receives.begin(), receives.end()));
}

// The pieces of the stretches: times in seconds, each matching that starts a piece followed by
// the latency; each message's bytes shared in proportion to its ticks, the last piece taking what
// rounding leaves.
std::vector<Piece> pieces_of(const Instance& in, const std::vector<std::int64_t>& ticks,
                             const std::vector<std::vector<Stretch>>& stretches, double tick) {
  std::vector<std::int64_t> entries;
  for (const auto& s : stretches) {
    for (const Stretch& t : s) entries.push_back(t.begin);
  }
  std::sort(entries.begin(), entries.end());
  entries.erase(std::unique(entries.begin(), entries.end()), entries.end());
  const auto seconds = [&](std::int64_t t) {
    const auto before = std::lower_bound(entries.begin(), entries.end(), t) - entries.begin();
    return static_cast<double>(t) * tick + in.latency * static_cast<double>(before);
  };
  std::vector<Piece> pieces;
  for (std::size_t k = 0; k < stretches.size(); ++k) {
    const Message& m = in.messages[k];
    double left = static_cast<double>(m.bytes);
    for (std::size_t s = 0; s < stretches[k].size(); ++s) {
      const Stretch& t = stretches[k][s];
      const double share = static_cast<double>(m.bytes) * static_cast<double>(t.end - t.begin) /
                           static_cast<double>(ticks[k]);
      const double bytes = s + 1 == stretches[k].size() ? left : std::min(share, left);
      left -= bytes;
      pieces.push_back({m.from, m.to, seconds(t.begin), bytes});
    }
  }
  std::sort(pieces.begin(), pieces.end(), [](const Piece& a, const Piece& b) {
    return std::tie(a.start, a.from, a.to) < std::tie(b.start, b.from, b.to);
  });
  return pieces;
}

}  // namespace

std::size_t active_nodes(const Instance& instance) {
  std::vector<bool> active(instance.nodes, false);
  std::size_t count = 0;
  for (const Message& m : instance.messages) {
    for (const std::int64_t node : {m.from, m.to}) {
      if (node < 0 || static_cast<std::size_t>(node) >= instance.nodes) continue;  // invalid
      if (!active[static_cast<std::size_t>(node)]) ++count;
      active[static_cast<std::size_t>(node)] = true;
    }
  }
  return count;
}

bool preemptive_plans(const Instance& instance) {
  const std::size_t m = instance.messages.size();
  return m == 0 || active_nodes(instance) <= kMaxPreemptiveMessagesTimesNodes / m;
}

Plan plan_preemptive(const Instance& instance) {
  if (!preemptive_plans(instance)) {
    throw OptionError(
        fmt::format("preemptive: {} messages between {} nodes, more than the {} messages x nodes "
                    "this algorithm plans (for each used-up edge an augmenting path over up to "
                    "every node); use auto or whole",
                    instance.messages.size(), active_nodes(instance),
                    kMaxPreemptiveMessagesTimesNodes),
        "algorithm");
  }
  return *plan_preemptive_within(instance, std::numeric_limits<std::int64_t>::max());
}

std::optional<Plan> plan_preemptive_within(const Instance& instance, std::int64_t edge_scans) {
  validate_instance(instance);
  if (instance.backbone) {
    throw OptionError("preemptive applies to one-port instances without a backbone", "algorithm");
  }
  Plan plan;
  plan.algorithm = "preemptive";
  plan.bounds = bounds(instance);
  plan.lower_bound = plan.bounds.lower_bound;
  if (!instance.messages.empty()) {
    // A power of two: durations that are multiples of it, and the times built from them, are
    // exact.
    const double tick = std::exp2(std::ceil(std::log2(data_bound(instance) / kTicksPerBound)));
    const std::vector<std::int64_t> ticks = ticks_of(instance, tick);
    PaddedGraph graph = padded_graph(instance, ticks);
    std::vector<std::vector<Stretch>> stretches;
    try {
      stretches = Decomposition(graph, instance.messages.size(), edge_scans).run();
    } catch (const OverBudget&) {
      return std::nullopt;
    }
    plan.pieces = pieces_of(instance, ticks, stretches, tick);
  }
  for (const Piece& p : plan.pieces) {
    const double rate =
        instance.rate(static_cast<std::size_t>(p.from), static_cast<std::size_t>(p.to));
    plan.makespan = std::max(plan.makespan, p.start + instance.latency + p.bytes / rate);
  }
  if (at_most(plan.makespan, plan.lower_bound.value_or(0.0)))
    plan.prove_optimal(Proof::lower_bound);
  return plan;
}

}  // namespace redist::exchange
