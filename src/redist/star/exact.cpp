#include "redist/star/exact.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstring>
#include <limits>
#include <numeric>
#include <unordered_map>
#include <utility>

#include <fmt/format.h>

#include "redist/common/error.hpp"
#include "redist/common/tolerance.hpp"
#include "redist/star/bba.hpp"
#include "redist/star/lower_bound.hpp"
#include "redist/star/mbbsa.hpp"
#include "redist/star/rbsa.hpp"

namespace redist::star {

namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();

// The number of j >= 1 with x + j * y < limit.
double strictly_before(double limit, double x, double y) {
  return limit > x ? std::ceil((limit - x) / y) - 1 : 0;
}

// One vector of send counts (n_i), the senders' tasks arriving at the master back to back.
static_assert(kExactMaxTasks <= 255, "a worker's task count fits in one byte");
struct Counts {
  std::array<std::uint8_t, kExactMaxWorkers> n{};  // each at most kExactMaxTasks
  double bound = 0;  // lower bound on every schedule with these counts
};

// A search state after k forwards: its key for the memo of visited states.
struct StateKey {
  std::array<double, kExactMaxWorkers + 1> t{};  // master_out, then each worker's end
  std::size_t k = 0;
  bool operator==(const StateKey& o) const { return k == o.k && t == o.t; }
};
struct StateHash {
  std::size_t operator()(const StateKey& s) const {
    std::size_t h = s.k;
    for (double x : s.t) {
      std::uint64_t bits;
      std::memcpy(&bits, &x, sizeof bits);
      h = (h ^ bits) * 0x9E3779B97F4A7C15ULL;
      h ^= h >> 29;
    }
    return h;
  }
};
constexpr std::size_t kMaxMemo = 1 << 18;  // about 30 MB

struct Search {
  const Instance& in;
  std::size_t m;
  std::int64_t max_nodes;
  const Deadline& time_limit;
  double best;
  double target;  // star_lower_bound: once best meets it, nothing is left to find
  std::vector<std::int64_t> best_counts;
  std::vector<std::size_t> best_receivers;
  // stopped: by a limit (timed_out: the time limit, else the node cap) or at the bound.
  bool found = false, stopped = false, timed_out = false, at_bound = false;
  std::int64_t nodes = 0;
  double cmin = kInf, min_cw = kInf;
  std::vector<std::size_t> sender_order;
  // Current count vector and branch.
  std::vector<std::int64_t> counts;
  std::vector<double> arrival;           // k-th task at the master
  std::vector<std::size_t> task_sender;  // sender of the k-th task
  std::vector<std::size_t> last_send;    // 1 + index of the worker's last task (0: none)
  std::vector<double> pipe;              // pipe[k] = max_{j >= k} arrival[j] + (n - 1 - j) cmin
  std::vector<double> end;
  std::vector<std::size_t> receivers;
  std::unordered_map<StateKey, double, StateHash> memo;

  Search(const Instance& instance, double upper, double lower, std::int64_t node_cap,
         const Deadline& limit)
      : in(instance),
        m(instance.workers()),
        max_nodes(node_cap),
        time_limit(limit),
        best(upper),
        target(lower),
        counts(m, 0) {
    for (std::size_t i = 0; i < m; ++i) {
      cmin = std::min(cmin, in.c[i]);
      min_cw = std::min(min_cw, in.c[i] + in.w[i]);
    }
    sender_order.resize(m);
    std::iota(sender_order.begin(), sender_order.end(), std::size_t{0});
    std::stable_sort(sender_order.begin(), sender_order.end(),
                     [&](std::size_t a, std::size_t b) { return in.c[a] < in.c[b]; });
  }

  // Arrivals, senders, own ends and the pipeline suffix for `counts`; returns the own max.
  double load_counts() {
    arrival.clear();
    task_sender.clear();
    double t = 0;
    for (std::size_t s : sender_order) {
      for (std::int64_t j = 0; j < counts[s]; ++j) {
        arrival.push_back(t += in.c[s]);
        task_sender.push_back(s);
      }
    }
    const std::size_t n = arrival.size();
    last_send.assign(m, 0);
    for (std::size_t j = 0; j < n; ++j) last_send[task_sender[j]] = j + 1;
    pipe.assign(n + 1, -kInf);
    for (std::size_t j = n; j-- > 0;) {
      pipe[j] = std::max(pipe[j + 1], arrival[j] + static_cast<double>(n - 1 - j) * cmin);
    }
    end.assign(m, 0);
    double own = 0;
    for (std::size_t q = 0; q < m; ++q) {
      end[q] = static_cast<double>(in.loads[q] - counts[q]) * in.w[q];
      own = std::max(own, end[q]);
    }
    return own;
  }

  // A lower bound on every completion of the state (k forwards done, master free at
  // master_out): the remaining forwards, each >= cmin, after their arrivals, the last one
  // followed by some c_r + w_r.
  double node_bound(std::size_t k, double master_out, double current_max) const {
    const std::size_t n = arrival.size();
    if (k == n) return current_max;
    const double last_start = std::max(master_out + static_cast<double>(n - k - 1) * cmin, pipe[k]);
    return std::max(current_max, last_start + min_cw);
  }

  // Can the n - k remaining tasks all be computed before `best`? Worker r receives its first
  // one at >= max(master_out, arrival[k]) + c_r, then one per c_r, and computes them one per w_r
  // after its current end: that gives it a number of slots. The remaining forwards use distinct
  // slots, each costing its worker's c on the master's port: forwards j..n-1 end at >=
  // arrival[j] (or master_out) + the n - j cheapest slot costs, and the last one is followed by
  // a computation of some worker with a slot.
  bool fits(std::size_t k, double master_out) const {
    const std::size_t n = arrival.size();
    const double first = std::max(master_out, arrival[k]);
    double need = static_cast<double>(n - k), w_last = kInf;
    std::array<double, kExactMaxTasks + 1> cheapest{};  // cheapest[t]: sum of t cheapest slots
    std::size_t filled = 0;
    for (std::size_t r : sender_order) {  // by non-decreasing c
      const double e = first + in.c[r];
      const double by_compute = strictly_before(best, std::max(end[r], e), in.w[r]);
      const double by_port = best > e + in.w[r] ? std::ceil((best - e - in.w[r]) / in.c[r]) : 0;
      const double slots = std::min(by_compute, by_port);
      if (slots <= 0) continue;
      w_last = std::min(w_last, in.w[r]);
      for (double t = 0; t < slots && need > 0; ++t, --need, ++filled) {
        cheapest[filled + 1] = cheapest[filled] + in.c[r];
      }
    }
    if (need > 0) return false;
    double last_end = master_out + cheapest[n - k];
    for (std::size_t j = k; j < n; ++j) last_end = std::max(last_end, arrival[j] + cheapest[n - j]);
    return last_end + w_last < best;
  }

  // Sorts the ends of interchangeable workers (equal c and w, sending no task from k on) in the
  // key: states that differ by a permutation of them have the same completions.
  void canonical_ends(std::size_t k, StateKey& key) const {
    for (std::size_t i = 0; i < m; ++i) {  // selection sort within each class
      if (!done_sending(i, k)) continue;
      for (std::size_t j = i + 1; j < m; ++j) {
        const bool same = in.c[j] == in.c[i] && in.w[j] == in.w[i] && done_sending(j, k);
        if (same && key.t[i + 1] > key.t[j + 1]) std::swap(key.t[i + 1], key.t[j + 1]);
      }
    }
  }

  // True when an equal or better visit of this state was already searched.
  bool seen(std::size_t k, double master_out, double current_max) {
    StateKey key;
    key.k = k;
    key.t[0] = master_out;
    for (std::size_t q = 0; q < m; ++q) key.t[q + 1] = end[q];
    canonical_ends(k, key);
    auto it = memo.find(key);
    if (it != memo.end()) {
      if (it->second <= current_max) return true;
      it->second = current_max;
      return false;
    }
    if (memo.size() >= kMaxMemo) memo.clear();  // keeps the memory bounded, recent states kept
    memo.emplace(key, current_max);
    return false;
  }

  // A schedule shorter than the incumbent; the search stops when it meets the lower bound.
  void record(double current_max) {
    best = current_max;
    best_counts = counts;
    best_receivers = receivers;
    found = true;
    if (at_most(best, target, kSearchResolution)) stopped = at_bound = true;
  }

  // True when worker q sends none of the tasks k, k + 1, ... (it may receive any of them).
  bool done_sending(std::size_t q, std::size_t k) const { return last_send[q] < k + 1; }

  // Receivers for the k-th forward, most promising (earliest new end) first; workers with equal
  // c, w and current end that send no later task are interchangeable: only the first is tried.
  std::size_t candidates(std::size_t k, double b, std::array<std::size_t, kExactMaxWorkers>& out,
                         std::array<double, kExactMaxWorkers>& new_end) const {
    std::size_t count = 0;
    for (std::size_t r = 0; r < m; ++r) {
      if (r == task_sender[k]) continue;
      bool duplicate = false;
      for (std::size_t q = 0; q < r && !duplicate && done_sending(r, k); ++q) {
        duplicate =
            done_sending(q, k) && in.c[q] == in.c[r] && in.w[q] == in.w[r] && end[q] == end[r];
      }
      if (duplicate) continue;
      new_end[r] = std::max(end[r], b + in.c[r]) + in.w[r];
      out[count++] = r;
    }
    for (std::size_t i = 1; i < count; ++i) {  // insertion sort: at most 6 receivers
      for (std::size_t j = i; j > 0 && new_end[out[j]] < new_end[out[j - 1]]; --j) {
        std::swap(out[j], out[j - 1]);
      }
    }
    return count;
  }

  void receivers_dfs(std::size_t k, double master_out, double current_max) {
    if (k == arrival.size()) {
      if (current_max < best) record(current_max);
      return;
    }
    if (stopped || ++nodes > max_nodes) {
      stopped = true;
      return;
    }
    if (time_limit.passed_every(nodes)) {
      stopped = timed_out = true;
      return;
    }
    if (node_bound(k, master_out, current_max) >= best || !fits(k, master_out)) return;
    if (seen(k, master_out, current_max)) return;
    const double b = std::max(arrival[k], master_out);
    std::array<std::size_t, kExactMaxWorkers> order{};
    std::array<double, kExactMaxWorkers> new_end{};
    const std::size_t count = candidates(k, b, order, new_end);
    for (std::size_t i = 0; i < count && !stopped; ++i) {
      const std::size_t r = order[i];
      const double new_max = std::max(current_max, new_end[r]);
      if (new_max >= best) continue;
      const double saved = end[r];
      end[r] = new_end[r];
      receivers.push_back(r);
      receivers_dfs(k + 1, b + in.c[r], new_max);
      receivers.pop_back();
      end[r] = saved;
    }
  }

  // Every count vector whose own ends stay below the incumbent, with its root bound.
  void enumerate(std::size_t i, std::vector<Counts>& out) {
    if (i == m) {
      const double own = load_counts();
      Counts c;
      for (std::size_t q = 0; q < m; ++q) c.n[q] = static_cast<std::uint8_t>(counts[q]);
      c.bound = node_bound(0, 0, own);
      if (c.bound < best) out.push_back(c);
      return;
    }
    for (std::int64_t n = 0; n <= in.loads[i]; ++n) {
      if (static_cast<double>(in.loads[i] - n) * in.w[i] >= best) continue;
      counts[i] = n;
      enumerate(i + 1, out);
    }
    counts[i] = 0;
  }

  // Searches the count vectors by non-decreasing bound; returns the least bound of a vector
  // left unsearched when a limit stopped the search (kInf when all were searched or pruned, or
  // when the best schedule met the lower bound).
  double run() {
    std::vector<Counts> all;
    enumerate(0, all);
    std::stable_sort(all.begin(), all.end(),
                     [](const Counts& a, const Counts& b) { return a.bound < b.bound; });
    for (const Counts& c : all) {
      if (c.bound >= best) break;
      for (std::size_t q = 0; q < m; ++q) counts[q] = c.n[q];
      const double own = load_counts();
      memo.clear();
      receivers_dfs(0, 0, own);
      if (at_bound) return kInf;
      if (stopped) return c.bound;
    }
    return kInf;
  }
};

Schedule best_heuristic(const Instance& in) {
  Schedule start = plan_bba(in);
  for (Schedule s : {plan_mbbsa(in), plan_rbsa(in)}) {
    if (s.makespan < start.makespan) start = std::move(s);
  }
  return start;
}

// The normal-form schedule of the search's best counts and receivers.
Schedule rebuild(const Instance& in, const Search& search) {
  Schedule s;
  double t = 0, master_out = 0;
  std::size_t k = 0;
  for (std::size_t sender : search.sender_order) {
    for (std::int64_t j = 0; j < search.best_counts[sender]; ++j, ++k) {
      s.transfers.push_back(relay_task(in.c, sender, search.best_receivers[k], t, master_out));
    }
  }
  finish_times(in, s);
  return s;
}

// The claims of the search's best schedule `s`: the proven optimum when the search finished
// (Proof::search) or met the lower bound (Proof::lower_bound); after a limit, the larger of
// star_lower_bound and the least bound of the count vectors left unsearched, optimal only if the
// makespan meets it, and a note naming the limit.
void claim(const Search& search, double unsearched, Schedule& s) {
  if (search.at_bound) {
    s.prove_optimal(Proof::lower_bound);
    s.notes.push_back(
        fmt::format("exact stopped at the lower bound after {} search nodes", search.nodes));
  } else if (unsearched == kInf) {
    s.prove_optimal(Proof::search);
  }
  if (s.optimal) {
    s.lower_bound = s.makespan;
    return;
  }
  s.lower_bound = std::max(search.target, std::min(unsearched, s.makespan));
  if (at_most(s.makespan, *s.lower_bound, kSearchResolution)) {
    s.prove_optimal(Proof::lower_bound);
  } else {
    s.stop_at(search.timed_out ? Status::time_limit : Status::node_limit);
  }
  if (search.timed_out) {
    s.notes.push_back(time_limit_note(search.time_limit, "exact's branch and bound"));
  } else {
    s.notes.push_back(
        fmt::format("exact stopped at its node cap ({} nodes) without finishing its "
                    "search: the best schedule found, not proven optimal unless it "
                    "meets the lower bound",
                    search.max_nodes));
  }
}

}  // namespace

bool exact_accepts(const Instance& in) {
  std::int64_t total = 0;
  for (std::int64_t l : in.loads) total += l;
  return in.workers() <= kExactMaxWorkers && total <= kExactMaxTasks;
}

Schedule plan_exact(const Instance& in, std::int64_t max_nodes, const Deadline& time_limit) {
  return plan_exact_from(in, best_heuristic(in), max_nodes, time_limit);
}

Schedule plan_exact_from(const Instance& in, const Schedule& start, std::int64_t max_nodes,
                         const Deadline& time_limit) {
  if (!exact_accepts(in)) {
    throw InputError(fmt::format("instance too large for exact (at most {} workers and {} "
                                 "tasks); use algorithm best",
                                 kExactMaxWorkers, kExactMaxTasks),
                     "loads");
  }
  const double bound = star_lower_bound(in);
  Schedule s = start;
  s.notes.clear();
  s.algorithm = "exact";
  s.drop_proof();
  if (at_most(start.makespan, bound, kSearchResolution)) {
    s.prove_optimal(Proof::lower_bound);
    s.lower_bound = s.makespan;
    return s;
  }
  // Raised by one ulp so that the search finds a schedule of its own at the start's makespan.
  Search search(in, std::nextafter(start.makespan, kInf), bound, max_nodes, time_limit);
  const double unsearched = search.run();
  if (search.found && search.best < start.makespan) {
    s = rebuild(in, search);
    s.algorithm = "exact";
  }
  claim(search, unsearched, s);
  return s;
}

}  // namespace redist::star
