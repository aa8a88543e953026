#include "redist/ring/exact.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <string>
#include <tuple>
#include <unordered_map>
#include <vector>

#include "redist/common/checked.hpp"
#include "redist/common/error.hpp"
#include "redist/common/tolerance.hpp"
#include "redist/ring/flow_executor.hpp"

namespace redist::ring {
namespace {

constexpr std::int64_t kInf = std::numeric_limits<std::int64_t>::max() / 4;
constexpr int kMaxN = 16;  // array capacity; the documented limit is ExactLimits::max_n

// Why exact declines an instance that is valid but beyond its size limits (processors, items,
// costs), before any search: plan_exact reports it as an InputError, try_plan_exact as an empty
// result.
struct Declined {
  std::string reason;
  std::string field;  // relative to the instance ("loads"), or "" for the instance as a whole
};

// How the search ended: it ran out of candidate flows (finished), its incumbent met the System 6
// bound (at_bound), or a limit stopped it (the incumbent is returned, unproven).
enum class Stop { finished, at_bound, node_limit, time_limit };

// Thrown by the search when it reaches a limit. The clock is read every kTimeCheckNodes nodes (a
// node costs far more than a clock read).
struct Stopped {
  Stop why;
};
constexpr std::int64_t kTimeCheckNodes = 16;

// Smallest D in [1, max_d] such that every cost times D is (within kTimeTolerance relative) an
// integer.
std::int64_t common_denominator(const Instance& in, const ExactLimits& lim) {
  std::vector<double> costs(in.cost_next.begin(), in.cost_next.end());
  costs.insert(costs.end(), in.cost_prev.begin(), in.cost_prev.end());
  for (std::int64_t d = 1; d <= lim.max_denominator; ++d) {
    bool ok = true;
    for (double c : costs) {
      const double v = c * static_cast<double>(d);
      if (v > static_cast<double>(lim.max_scaled_cost) + 0.5 ||
          std::abs(v - std::round(v)) > kTimeTolerance * std::max(1.0, v) || std::round(v) < 1) {
        ok = false;
        break;
      }
    }
    if (ok) return d;
  }
  throw Declined{fmt::format("exact needs every cost to be a multiple of 1/D for some integer D "
                             "<= {} with every cost * D <= {}",
                             lim.max_denominator, lim.max_scaled_cost),
                 ""};
}

struct Transfer {
  int from;
  int dir;  // 0 next, 1 prev
  std::int64_t start;
};

class Search {
 public:
  Search(const Instance& in, const std::vector<std::int64_t>& cost_next,
         const std::vector<std::int64_t>& cost_prev, std::int64_t* nodes, std::int64_t max_nodes,
         const Deadline& time_limit)
      : n_(static_cast<int>(in.size())),
        nodes_(nodes),
        max_nodes_(max_nodes),
        time_limit_(time_limit) {
    for (int i = 0; i < n_; ++i) {
      cost_[0][i] = cost_next[i];
      cost_[1][i] = in.bidirectional ? cost_prev[i] : kInf;
      load_[i] = in.loads[i];
    }
  }

  // Sets up the flows of one candidate; the memo is kept across deadlines of the same flows.
  void set_flows(const std::vector<std::int64_t>& flows) {
    memo_.clear();
    flows_ = flows;
  }

  // True when a schedule with the current flows ends by `deadline`; fills transfers/makespan.
  bool feasible(std::int64_t deadline) {
    const std::vector<std::int64_t>& flows = flows_;
    for (int i = 0; i < n_; ++i) {
      rem_[0][i] = static_cast<int>(std::max<std::int64_t>(flows[i], 0));
      rem_[1][i] = static_cast<int>(std::max<std::int64_t>(-flows[prev(i)], 0));
      // Only whether an item is at hand matters, so a load beyond the items i sends is capped.
      held_[i] = static_cast<int>(std::min<std::int64_t>(load_[i], rem_[0][i] + rem_[1][i]));
      dir_[i] = -1;
      left_[i] = 0;
    }
    deadline_ = deadline;
    path_.clear();
    return dfs(0);
  }

  std::vector<Transfer> transfers;
  std::int64_t makespan = 0;

 private:
  int next(int i) const { return i + 1 == n_ ? 0 : i + 1; }
  int prev(int i) const { return i == 0 ? n_ - 1 : i - 1; }
  int receiver(int i, int d) const { return d == 0 ? next(i) : prev(i); }

  // Time left of the transfer arriving at r, or -1 when r's receive port is free.
  std::int64_t incoming_left(int r) const {
    const int a = prev(r), b = next(r);
    if (dir_[a] >= 0 && receiver(a, dir_[a]) == r) return left_[a];
    if (dir_[b] >= 0 && receiver(b, dir_[b]) == r) return left_[b];
    return -1;
  }

  // Lower bound on the time still needed from the current state (kInf when impossible).
  std::int64_t remaining_bound() const {
    std::int64_t lb = 0;
    for (int i = 0; i < n_; ++i) {
      const std::int64_t sl = dir_[i] >= 0 ? left_[i] : 0;
      const std::int64_t send = sl + rem_[0][i] * (rem_[0][i] ? cost_[0][i] : 0) +
                                rem_[1][i] * (rem_[1][i] ? cost_[1][i] : 0);
      // Incoming links of i: (prev(i), next) and (next(i), prev).
      const int a = prev(i), b = next(i);
      const std::int64_t ra = rem_[0][a], rb = rem_[1][b];
      const std::int64_t in_left = incoming_left(i);
      const std::int64_t rl = std::max<std::int64_t>(in_left, 0);
      const std::int64_t recv = rl + ra * (ra ? cost_[0][a] : 0) + rb * (rb ? cost_[1][b] : 0);
      lb = std::max({lb, send, recv});
      const std::int64_t sends = rem_[0][i] + rem_[1][i];
      const std::int64_t need = sends - held_[i];
      if (need > 0) {
        const std::int64_t inflight = in_left >= 0 ? 1 : 0;
        if (need > inflight + ra + rb) return kInf;
        std::int64_t cin = kInf, cout = kInf;
        if (ra) cin = std::min(cin, cost_[0][a]);
        if (rb) cin = std::min(cin, cost_[1][b]);
        if (rem_[0][i]) cout = std::min(cout, cost_[0][i]);
        if (rem_[1][i]) cout = std::min(cout, cost_[1][i]);
        for (std::int64_t k = 1; k <= need; ++k) {
          const std::int64_t arrival = rl + (k - inflight) * (k > inflight ? cin : 0);
          lb = std::max(lb, arrival + (need - k + 1) * cout);
        }
      }
    }
    return lb;
  }

  std::string key() const {
    std::string k;
    k.resize(static_cast<std::size_t>(n_) * (3 + sizeof(std::int64_t)));
    char* p = k.data();
    for (int i = 0; i < n_; ++i) {
      *p++ = static_cast<char>(rem_[0][i]);
      *p++ = static_cast<char>(rem_[1][i]);
      *p++ = static_cast<char>(dir_[i]);
      const std::int64_t l = dir_[i] >= 0 ? left_[i] : 0;
      std::memcpy(p, &l, sizeof l);
      p += sizeof l;
    }
    return k;
  }

  bool dfs(std::int64_t t) {
    if (*nodes_ >= max_nodes_) throw Stopped{Stop::node_limit};
    if (time_limit_.passed_every(++*nodes_, kTimeCheckNodes)) throw Stopped{Stop::time_limit};
    bool done = true;
    for (int i = 0; i < n_ && done; ++i) done = rem_[0][i] == 0 && rem_[1][i] == 0;
    const std::int64_t lb = remaining_bound();
    if (lb >= kInf || t + lb > deadline_) return false;
    if (done) {
      std::int64_t end = t;
      for (int i = 0; i < n_; ++i)
        if (dir_[i] >= 0) end = std::max(end, t + left_[i]);
      makespan = end;
      transfers = path_;
      return true;
    }
    const std::string k = key();
    auto it = memo_.find(k);
    if (it != memo_.end() && t + it->second > deadline_) return false;
    if (choose(0, t)) return true;
    const std::int64_t need = std::max(lb, deadline_ - t + 1);
    it = memo_.find(k);
    if (it == memo_.end()) {
      memo_.emplace(k, need);
    } else {
      it->second = std::max(it->second, need);
    }
    return false;
  }

  // Decides, for processors i.. in turn, whether their free send port starts an item now.
  bool choose(int i, std::int64_t t) {
    if (i == n_) return advance(t);
    if (dir_[i] >= 0 || held_[i] == 0 || rem_[0][i] + rem_[1][i] == 0) return choose(i + 1, t);
    int options[2];
    int count = 0;
    for (int d = 0; d < 2; ++d) {
      if (rem_[d][i] == 0) continue;
      const int r = receiver(i, d);
      if (incoming_left(r) >= 0) continue;
      options[count++] = d;
    }
    // Dominance (c): the only link left at i that is also the only link left into its receiver.
    bool forced = false;
    if (count == 1 && rem_[1 - options[0]][i] == 0) {
      const int d = options[0];
      const int r = receiver(i, d);
      // The other link into r: (next(r), prev) when d is next, else (prev(r), next).
      forced = (d == 0 ? rem_[1][next(r)] : rem_[0][prev(r)]) == 0;
    }
    // Prefer the receiver with more left to receive.
    if (count == 2) {
      auto to_receive = [&](int r) { return rem_[0][prev(r)] + rem_[1][next(r)]; };
      if (to_receive(receiver(i, 1)) > to_receive(receiver(i, 0)))
        std::swap(options[0], options[1]);
    }
    for (int o = 0; o < count; ++o) {
      const int d = options[o];
      --rem_[d][i];
      --held_[i];
      dir_[i] = d;
      left_[i] = cost_[d][i];
      path_.push_back({i, d, t});
      if (choose(i + 1, t)) return true;
      path_.pop_back();
      ++rem_[d][i];
      ++held_[i];
      dir_[i] = -1;
      left_[i] = 0;
    }
    if (forced) return false;
    return choose(i + 1, t);
  }

  // Moves to the next event (the earliest end of a transfer in flight).
  bool advance(std::int64_t t) {
    std::int64_t dt = kInf;
    for (int i = 0; i < n_; ++i)
      if (dir_[i] >= 0) dt = std::min(dt, left_[i]);
    if (dt >= kInf) return false;  // nothing in flight and nothing started: stuck
    int saved_dir[kMaxN];
    std::int64_t saved_left[kMaxN];
    int saved_held[kMaxN];
    std::copy(dir_, dir_ + n_, saved_dir);
    std::copy(left_, left_ + n_, saved_left);
    std::copy(held_, held_ + n_, saved_held);
    for (int i = 0; i < n_; ++i) {
      if (dir_[i] < 0) continue;
      left_[i] -= dt;
      if (left_[i] == 0) {
        ++held_[receiver(i, dir_[i])];
        dir_[i] = -1;
      }
    }
    const bool ok = dfs(t + dt);
    std::copy(saved_dir, saved_dir + n_, dir_);
    std::copy(saved_left, saved_left + n_, left_);
    std::copy(saved_held, saved_held + n_, held_);
    return ok;
  }

  int n_;
  std::int64_t* nodes_;
  std::int64_t max_nodes_;
  const Deadline& time_limit_;
  std::int64_t cost_[2][kMaxN] = {};
  std::int64_t load_[kMaxN] = {};
  int rem_[2][kMaxN] = {};
  int held_[kMaxN] = {};
  int dir_[kMaxN] = {};
  std::int64_t left_[kMaxN] = {};
  std::int64_t deadline_ = 0;
  std::vector<Transfer> path_;
  std::vector<std::int64_t> flows_;
  std::unordered_map<std::string, std::int64_t> memo_;
};

// Refuses rings with more processors than the search handles.
void check_ring_size(const Instance& in, const ExactLimits& lim) {
  const std::size_t n = in.size();
  if (n > lim.max_n || n > static_cast<std::size_t>(kMaxN)) {
    throw Declined{fmt::format("exact handles rings of at most {} processors, got {}",
                               std::min<std::size_t>(lim.max_n, kMaxN), n),
                   "loads"};
  }
}

// The link costs times the common denominator D: integers, in scaled time units. On a
// unidirectional ring the prev costs stay 0.
struct ScaledCosts {
  std::vector<std::int64_t> next;
  std::vector<std::int64_t> prev;
};

ScaledCosts scale_costs(const Instance& in, std::int64_t D) {
  const std::size_t n = in.size();
  ScaledCosts costs{std::vector<std::int64_t>(n), std::vector<std::int64_t>(n)};
  for (std::size_t i = 0; i < n; ++i) {
    costs.next[i] = std::llround(in.cost_next[i] * static_cast<double>(D));
    if (in.bidirectional) costs.prev[i] = std::llround(in.cost_prev[i] * static_cast<double>(D));
  }
  return costs;
}

// Refuses instances whose surplus alone exceeds the items the search may move: every surplus
// item leaves its processor at least once, whatever the flows.
void check_surplus(const Instance& in, const ExactLimits& lim) {
  std::int64_t surplus = 0;
  for (std::size_t i = 0; i < in.size(); ++i) surplus += std::max<std::int64_t>(in.imbalance(i), 0);
  if (surplus > lim.max_items) {
    throw Declined{fmt::format("exact handles instances whose optimal System 6 flows move at "
                               "most {} items, these move at least {}",
                               lim.max_items, surplus),
                   "loads"};
  }
}

// The flows that balance the ring form a one-parameter family: the flow on link i -> succ(i) is
// x + prefix[i] for an integer x. tau(x) is the System 6 time of those flows (the busiest port
// sending or receiving its items back to back), whose minimiser lies in [lo, hi].
class FlowFamily {
 public:
  FlowFamily(const Instance& in, const ScaledCosts& costs)
      : in_(in), costs_(costs), prefix_(prefix_imbalances(in)) {
    const auto [min_it, max_it] = std::minmax_element(prefix_.begin(), prefix_.end());
    lo = -*max_it;
    hi = -*min_it;
  }

  std::vector<std::int64_t> flows(std::int64_t x) const {
    std::vector<std::int64_t> f(prefix_.size());
    for (std::size_t i = 0; i < prefix_.size(); ++i) f[i] = x + prefix_[i];
    return f;
  }

  // In scaled units; kInf when the flows are invalid (a backward flow on a unidirectional ring)
  // or the time is too large.
  std::int64_t tau(std::int64_t x) const {
    if (!in_.bidirectional && x < hi) return kInf;
    const std::vector<std::int64_t> f = flows(x);
    const std::vector<std::int64_t>& cn = costs_.next;
    const std::vector<std::int64_t>& cp = costs_.prev;
    std::int64_t worst = 0;
    for (std::size_t i = 0; i < f.size(); ++i) {
      const std::size_t p = in_.pred(i), s = in_.succ(i);
      const Int128 send = static_cast<Int128>(std::max<std::int64_t>(f[i], 0)) * cn[i] +
                          static_cast<Int128>(std::max<std::int64_t>(-f[p], 0)) * cp[i];
      const Int128 recv = static_cast<Int128>(std::max<std::int64_t>(f[p], 0)) * cn[p] +
                          static_cast<Int128>(std::max<std::int64_t>(-f[i], 0)) * cp[s];
      const Int128 m = std::max(send, recv);
      if (m >= kInf) return kInf;
      worst = std::max(worst, static_cast<std::int64_t>(m));
    }
    return worst;
  }

  std::int64_t lo = 0;
  std::int64_t hi = 0;

 private:
  const Instance& in_;
  const ScaledCosts& costs_;
  std::vector<std::int64_t> prefix_;
};

// The smallest x minimising tau: over [lo, hi] on a bidirectional ring, x = hi (all flows
// forward) on a unidirectional one.
std::int64_t system6_optimum(const FlowFamily& family, bool bidirectional) {
  std::int64_t x_star = bidirectional ? family.lo : family.hi;
  for (std::int64_t x = x_star; x <= family.hi; ++x)
    if (family.tau(x) < family.tau(x_star)) x_star = x;
  return x_star;
}

// Refuses System 6 flows that move more items than the search may place.
void check_moved(const std::vector<std::int64_t>& flows, const ExactLimits& lim) {
  std::int64_t moved = 0;
  for (std::int64_t f : flows) moved += std::abs(f);
  if (moved > lim.max_items) {
    throw Declined{fmt::format("exact handles instances whose optimal System 6 flows move at "
                               "most {} items, these move {}",
                               lim.max_items, moved),
                   "loads"};
  }
}

// The best schedule known so far, in scaled units; transfers are set once the search has beaten
// the ASAP schedule it starts from.
struct Incumbent {
  std::int64_t makespan = 0;
  std::vector<std::int64_t> flows;
  std::vector<Transfer> transfers;
  bool improved = false;
};

// Searches choices of flows for schedules shorter than the incumbent, outwards from x_star on
// the side of smaller tau first. Flows whose tau is not below the incumbent cannot beat it, and
// once the incumbent meets tau6 nothing can: the search stops there (Stop::at_bound). Throws
// Stopped at a limit.
Stop search_flows(const FlowFamily& family, std::int64_t x_star, std::int64_t tau6, Search& search,
                  Incumbent& best) {
  auto try_flow = [&](std::int64_t x) {
    search.set_flows(family.flows(x));
    while (best.makespan > tau6 && family.tau(x) < best.makespan &&
           search.feasible(best.makespan - 1)) {
      best.makespan = search.makespan;
      best.transfers = search.transfers;
      best.flows = family.flows(x);
      best.improved = true;
    }
  };
  if (best.makespan <= tau6) return Stop::at_bound;
  try_flow(x_star);
  std::int64_t left = x_star - 1, right = x_star + 1;
  while (best.makespan > tau6) {
    const std::int64_t tl = family.tau(left), tr = family.tau(right);
    if (std::min(tl, tr) >= best.makespan) return Stop::finished;
    if (tl <= tr) {
      try_flow(left--);
    } else {
      try_flow(right++);
    }
  }
  return Stop::at_bound;
}

// Merges the single-item transfers the search placed into runs: back-to-back items of one link.
std::vector<Run> merge_into_runs(std::vector<Transfer> transfers, const ScaledCosts& costs,
                                 std::int64_t D) {
  std::sort(transfers.begin(), transfers.end(), [](const Transfer& a, const Transfer& b) {
    return std::tie(a.from, a.dir, a.start) < std::tie(b.from, b.dir, b.start);
  });
  std::vector<Run> runs;
  std::int64_t run_start = 0, count = 0;
  for (std::size_t k = 0; k < transfers.size(); ++k) {
    const Transfer& tr = transfers[k];
    const std::int64_t c = tr.dir == 0 ? costs.next[tr.from] : costs.prev[tr.from];
    const bool extends = count > 0 && transfers[k - 1].from == tr.from &&
                         transfers[k - 1].dir == tr.dir && tr.start == run_start + count * c;
    if (!extends) {
      run_start = tr.start;
      count = 0;
      Run r;
      r.from = tr.from;
      r.dir = tr.dir == 0 ? Direction::next : Direction::prev;
      r.start = static_cast<double>(tr.start) / static_cast<double>(D);
      runs.push_back(r);
    }
    ++count;
    runs.back().count = count;
  }
  return runs;
}

// What the search ended with, in scaled units: the runs of its best schedule and their flows,
// System 6's optimum tau6, the scale D, the nodes searched and why it stopped.
struct Outcome {
  std::vector<Run> runs;
  std::vector<std::int64_t> flows;
  std::int64_t tau6 = 0;
  std::int64_t D = 1;
  std::int64_t nodes = 0;
  Stop stop = Stop::finished;
};

// The note of a search that ended: its effort, and what it proved or which limit stopped it.
std::string outcome_note(const Outcome& o, double makespan, const ExactLimits& lim) {
  const double tau6 = static_cast<double>(o.tau6) / static_cast<double>(o.D);
  switch (o.stop) {
    case Stop::at_bound:
      return fmt::format(
          "exact stopped at the lower bound (the System 6 integer optimum {}) "
          "after {} search nodes",
          tau6, o.nodes);
    case Stop::node_limit:
      return fmt::format(
          "exact stopped at its limit of {} search nodes without finishing its "
          "search: the best schedule found, not proven optimal unless it meets "
          "the lower bound",
          lim.max_search_nodes);
    case Stop::time_limit:
      return time_limit_note(lim.time_limit, fmt::format("{} search nodes", o.nodes));
    case Stop::finished:
      break;
  }
  return fmt::format("exact: optimum {} vs System 6 integer optimum {}; {} search nodes", makespan,
                     tau6, o.nodes);
}

// The schedule of the search's best runs with its claims: the proven optimum when the search
// finished or met the System 6 bound (lower_bound = makespan), else (a limit stopped it) the
// System 6 optimum as lower bound, optimal only if the makespan meets it (plan() adds the other
// bounds).
Schedule outcome_schedule(const Instance& in, Outcome o, const ExactLimits& lim) {
  Schedule out;
  out.algorithm = "exact";
  out.transfers = std::move(o.runs);
  out.flows = std::move(o.flows);
  out.makespan = schedule_makespan(in, out.transfers);
  out.notes.push_back(outcome_note(o, out.makespan, lim));
  const double tau6 = static_cast<double>(o.tau6) / static_cast<double>(o.D);
  if (o.stop == Stop::node_limit || o.stop == Stop::time_limit) {
    out.lower_bound = tau6;
    if (at_most(out.makespan, tau6, kSearchResolution)) {
      out.prove_optimal(Proof::lower_bound);
    } else {
      out.stop_at(o.stop == Stop::time_limit ? Status::time_limit : Status::node_limit);
    }
    return out;
  }
  out.lower_bound = out.makespan;  // the proven optimum (>= tau6)
  out.bound_terms.push_back({"exact", out.makespan});
  out.prove_optimal(o.stop == Stop::at_bound ? Proof::lower_bound : Proof::search);
  return out;
}

// The search of plan_exact on a valid instance; throws Declined beyond the size limits, before
// searching. It starts from the ASAP schedule of the System 6 optimal flows and searches for
// shorter schedules until one meets the System 6 bound or no choice of flows can do better, or a
// limit (search nodes, time) stops it.
Schedule search_exact(const Instance& in, const ExactLimits& lim) {
  check_ring_size(in, lim);
  const std::int64_t D = common_denominator(in, lim);
  const ScaledCosts costs = scale_costs(in, D);
  check_surplus(in, lim);
  const FlowFamily family(in, costs);
  const std::int64_t x_star = system6_optimum(family, in.bidirectional);
  const std::int64_t tau6 = family.tau(x_star);
  const std::vector<std::int64_t> flows6 = family.flows(x_star);
  check_moved(flows6, lim);

  // Upper bound: the ASAP list schedule of the tau6 flows.
  std::vector<Run> asap_runs = execute_flows_asap(in, flows6);
  Incumbent best;
  best.makespan = std::llround(schedule_makespan(in, asap_runs) * static_cast<double>(D));
  best.flows = flows6;

  Outcome o;
  o.tau6 = tau6;
  o.D = D;
  Search search(in, costs.next, costs.prev, &o.nodes, lim.max_search_nodes, lim.time_limit);
  try {
    o.stop = search_flows(family, x_star, tau6, search, best);
  } catch (const Stopped& s) {
    o.stop = s.why;
  }
  o.runs =
      best.improved ? merge_into_runs(std::move(best.transfers), costs, D) : std::move(asap_runs);
  o.flows = std::move(best.flows);
  return outcome_schedule(in, std::move(o), lim);
}

}  // namespace

Schedule plan_exact(const Instance& in, const ExactLimits& lim) {
  validate_instance(in);
  try {
    return search_exact(in, lim);
  } catch (const Declined& d) {
    throw InputError(d.reason, d.field);
  }
}

std::optional<Schedule> try_plan_exact(const Instance& in, const ExactLimits& lim) {
  validate_instance(in);
  try {
    return search_exact(in, lim);
  } catch (const Declined&) {
    return std::nullopt;
  }
}

}  // namespace redist::ring
