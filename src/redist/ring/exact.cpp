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

// Why exact declines an instance that is valid but beyond its limits (size, costs, search nodes):
// plan_exact reports it as an InputError, try_plan_exact as an empty result.
struct Declined {
  std::string reason;
  std::string field;  // relative to the instance ("loads"), or "" for the instance as a whole
};

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
         const std::vector<std::int64_t>& cost_prev, std::int64_t* nodes, std::int64_t max_nodes)
      : n_(static_cast<int>(in.size())), nodes_(nodes), max_nodes_(max_nodes) {
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
    if (++*nodes_ > max_nodes_) {
      throw Declined{fmt::format("exact search exceeded its limit of {} search nodes; the "
                                 "instance is too hard for the exact planner",
                                 max_nodes_),
                     ""};
    }
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

// The search of plan_exact on a valid instance; throws Declined beyond the limits.
Schedule search_exact(const Instance& in, const ExactLimits& lim) {
  const std::size_t n = in.size();
  if (n > lim.max_n || n > static_cast<std::size_t>(kMaxN)) {
    throw Declined{fmt::format("exact handles rings of at most {} processors, got {}",
                               std::min<std::size_t>(lim.max_n, kMaxN), n),
                   "loads"};
  }
  const std::int64_t D = common_denominator(in, lim);
  std::vector<std::int64_t> cn(n), cp(n);
  for (std::size_t i = 0; i < n; ++i) {
    cn[i] = std::llround(in.cost_next[i] * static_cast<double>(D));
    if (in.bidirectional) cp[i] = std::llround(in.cost_prev[i] * static_cast<double>(D));
  }
  std::int64_t surplus = 0;  // every surplus item leaves its processor at least once
  for (std::size_t i = 0; i < n; ++i) surplus += std::max<std::int64_t>(in.imbalance(i), 0);
  if (surplus > lim.max_items) {
    throw Declined{fmt::format("exact handles instances whose optimal System 6 flows move at "
                               "most {} items, these move at least {}",
                               lim.max_items, surplus),
                   "loads"};
  }
  const std::vector<std::int64_t> prefix = prefix_imbalances(in);
  const auto [min_it, max_it] = std::minmax_element(prefix.begin(), prefix.end());
  const std::int64_t lo = -*max_it, hi = -*min_it;  // the minimiser of tau lies in [lo, hi]

  auto flows_of = [&](std::int64_t x) {
    std::vector<std::int64_t> f(n);
    for (std::size_t i = 0; i < n; ++i) f[i] = x + prefix[i];
    return f;
  };
  // System 6 time of the flows x + prefix, in scaled units (kInf when invalid or too large).
  auto tau = [&](std::int64_t x) -> std::int64_t {
    if (!in.bidirectional && x < hi) return kInf;
    const std::vector<std::int64_t> f = flows_of(x);
    std::int64_t worst = 0;
    for (std::size_t i = 0; i < n; ++i) {
      const std::size_t p = in.pred(i), s = in.succ(i);
      const Int128 send = static_cast<Int128>(std::max<std::int64_t>(f[i], 0)) * cn[i] +
                          static_cast<Int128>(std::max<std::int64_t>(-f[p], 0)) * cp[i];
      const Int128 recv = static_cast<Int128>(std::max<std::int64_t>(f[p], 0)) * cn[p] +
                          static_cast<Int128>(std::max<std::int64_t>(-f[i], 0)) * cp[s];
      const Int128 m = std::max(send, recv);
      if (m >= kInf) return kInf;
      worst = std::max(worst, static_cast<std::int64_t>(m));
    }
    return worst;
  };
  std::int64_t x_star = in.bidirectional ? lo : hi;
  for (std::int64_t x = x_star; x <= hi; ++x)
    if (tau(x) < tau(x_star)) x_star = x;
  const std::int64_t tau6 = tau(x_star);
  const std::vector<std::int64_t> flows6 = flows_of(x_star);
  std::int64_t moved = 0;
  for (std::int64_t f : flows6) moved += std::abs(f);
  if (moved > lim.max_items) {
    throw Declined{fmt::format("exact handles instances whose optimal System 6 flows move at "
                               "most {} items, these move {}",
                               lim.max_items, moved),
                   "loads"};
  }

  Schedule out;
  out.algorithm = "exact";
  // Upper bound: the ASAP list schedule of the tau6 flows.
  std::vector<Run> best_runs = execute_flows_asap(in, flows6);
  std::vector<std::int64_t> best_flows = flows6;
  std::int64_t best = std::llround(schedule_makespan(in, best_runs) * static_cast<double>(D));
  bool improved = false;
  std::vector<Transfer> best_transfers;

  std::int64_t nodes = 0;
  Search search(in, cn, cp, &nodes, lim.max_search_nodes);
  auto try_flow = [&](std::int64_t x) {
    search.set_flows(flows_of(x));
    while (best > tau6 && tau(x) < best && search.feasible(best - 1)) {
      best = search.makespan;
      best_transfers = search.transfers;
      best_flows = flows_of(x);
      improved = true;
    }
  };
  if (best > tau6) {
    try_flow(x_star);
    std::int64_t left = x_star - 1, right = x_star + 1;
    for (;;) {
      const std::int64_t tl = tau(left), tr = tau(right);
      if (std::min(tl, tr) >= best) break;
      if (tl <= tr) {
        try_flow(left--);
      } else {
        try_flow(right++);
      }
    }
  }

  if (improved) {
    // Merge back-to-back items of one link into runs.
    std::sort(best_transfers.begin(), best_transfers.end(),
              [](const Transfer& a, const Transfer& b) {
                return std::tie(a.from, a.dir, a.start) < std::tie(b.from, b.dir, b.start);
              });
    best_runs.clear();
    std::int64_t run_start = 0, count = 0;
    for (std::size_t k = 0; k < best_transfers.size(); ++k) {
      const Transfer& tr = best_transfers[k];
      const std::int64_t c = tr.dir == 0 ? cn[tr.from] : cp[tr.from];
      const bool extends = count > 0 && best_transfers[k - 1].from == tr.from &&
                           best_transfers[k - 1].dir == tr.dir && tr.start == run_start + count * c;
      if (!extends) {
        run_start = tr.start;
        count = 0;
        Run r;
        r.from = tr.from;
        r.dir = tr.dir == 0 ? Direction::next : Direction::prev;
        r.start = static_cast<double>(tr.start) / static_cast<double>(D);
        best_runs.push_back(r);
      }
      ++count;
      best_runs.back().count = count;
    }
  }
  out.transfers = std::move(best_runs);
  out.flows = best_flows;
  out.makespan = schedule_makespan(in, out.transfers);
  out.lower_bound = out.makespan;  // the proven optimum (>= tau6)
  out.bound_terms.push_back({"exact", out.makespan});
  out.prove_optimal(Proof::search);
  out.notes.push_back(
      fmt::format("exact: optimum {} vs System 6 integer optimum {}; {} search nodes", out.makespan,
                  static_cast<double>(tau6) / static_cast<double>(D), nodes));
  return out;
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
