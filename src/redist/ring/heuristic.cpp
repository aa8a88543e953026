#include "redist/ring/heuristic.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>
#include <utility>

#include <fmt/format.h>

#include "redist/common/checked.hpp"
#include "redist/common/error.hpp"
#include "redist/common/tolerance.hpp"
#include "redist/ring/bounds.hpp"
#include "redist/ring/flow_executor.hpp"
#include "redist/ring/pipeline.hpp"
#include "redist/ring/validate.hpp"

namespace redist::ring {

namespace detail {

namespace {

// One maximal chain: `senders` in flow order, each sending `counts[k]` items in direction `dir`.
struct Chain {
  Direction dir;
  std::vector<std::size_t> senders;
  std::vector<std::int64_t> counts;
  std::size_t tail;  // receiver of the last sender
};

// Maximal runs of consecutive links whose flow has the sign of `dir`, in flow order.
std::vector<Chain> chains_of(const Instance& in, const std::vector<std::int64_t>& flows,
                             Direction dir, std::size_t anchor) {
  const std::size_t n = in.size();
  const auto along = [&](std::size_t link) {
    return dir == Direction::next ? flows[link] > 0 : flows[link] < 0;
  };
  std::vector<Chain> chains;
  // `anchor` is a link outside every chain of this direction, so no chain wraps past it.
  for (std::size_t step = 1; step <= n; ++step) {
    const std::size_t link = (anchor + step) % n;
    if (!along(link)) continue;
    const std::size_t sender = dir == Direction::next ? link : in.succ(link);
    const std::int64_t count = flows[link] > 0 ? flows[link] : -flows[link];
    const std::size_t previous = (anchor + step - 1) % n;
    if (step == 1 || !along(previous)) chains.push_back(Chain{dir, {}, {}, 0});
    chains.back().senders.push_back(sender);
    chains.back().counts.push_back(count);
    chains.back().tail = in.receiver(sender, dir);
  }
  if (dir == Direction::prev) {
    // Links were visited clockwise; prev items flow counter-clockwise.
    for (Chain& c : chains) {
      std::reverse(c.senders.begin(), c.senders.end());
      std::reverse(c.counts.begin(), c.counts.end());
      c.tail = in.receiver(c.senders.back(), dir);
    }
  }
  return chains;
}

// A chain's schedule for given release times of its first and last senders (the only senders
// that can wait for another chain): its runs, when its head releases its source's send port,
// when its tail releases its sink's receive port, and its latest end; and, so that a new release
// time of the last sender alone reschedules only that sender, the arrivals at the last sender and
// the number of runs before its own.
struct ChainTimes {
  double release_first = 0.0;
  double release_last = 0.0;
  std::vector<Run> runs;
  double head_free = 0.0;
  double tail_free = 0.0;
  double latest = 0.0;
  std::vector<Pace> last_arrivals;
  std::size_t runs_before_last = 0;
};

// Algorithm 2 down the chain from sender `from` on: each sender forwards as soon as possible what
// the previous one sent. t.runs and `arrivals` hold what the senders before `from` produced.
void schedule_chain(const Instance& in, const Chain& ch, std::size_t from, ChainTimes& t,
                    std::vector<Pace>& arrivals, std::vector<Pace>& departures) {
  const std::size_t last = ch.senders.size() - 1;
  for (std::size_t k = from; k <= last; ++k) {
    if (k == last) {
      t.last_arrivals = arrivals;
      t.runs_before_last = t.runs.size();
    }
    const std::size_t s = ch.senders[k];
    const double cost = in.cost(s, ch.dir);
    const double release = k == last ? t.release_last : k == 0 ? t.release_first : 0.0;
    asap_departures(in.loads[s], ch.counts[k], cost, release, arrivals, departures);
    if (k == 0) t.head_free = departures.back().last() + cost;
    for (Pace& d : departures) {
      t.runs.push_back(Run{static_cast<std::int64_t>(s), ch.dir, d.start, d.count,
                           d.period == cost ? 0.0 : d.period});
      d.start += cost;  // now the arrival at the next processor
    }
    std::swap(arrivals, departures);
  }
  t.tail_free = arrivals.back().last();  // arrival times are reception ends
  t.latest = schedule_makespan(in, t.runs);
}

// The chains of fixed flows, scheduled under any number of orders. A chain's schedule depends on
// the orders only through the release times of its first and last senders, so each chain keeps
// its two most recent schedules: an order that changes the waits of a few chains (one flip of the
// descent, or its undoing) recomputes only the chains whose release times change, and of those
// whose first release time stays, only the last sender.
class ChainSet {
  static constexpr std::size_t kNone = static_cast<std::size_t>(-1);

 public:
  ChainSet(const Instance& in, const std::vector<std::int64_t>& flows) : in_(in) {
    const std::size_t n = in.size();
    std::size_t not_next = n, not_prev = n;  // a link with flow <= 0, and one with flow >= 0
    for (std::size_t i = 0; i < n; ++i) {
      if (flows[i] <= 0 && not_next == n) not_next = i;
      if (flows[i] >= 0 && not_prev == n) not_prev = i;
    }
    circulates_ = not_next == n || not_prev == n;
    if (circulates_) return;
    chains_ = chains_of(in, flows, Direction::next, not_next);
    std::vector<Chain> prev_chains = chains_of(in, flows, Direction::prev, not_prev);
    chains_.insert(chains_.end(), prev_chains.begin(), prev_chains.end());
    meet_at_ends();
    const std::size_t m = chains_.size();
    memo_.resize(m);
    newest_.assign(m, 0);
    known_.assign(m, 0);
    wait_source_.resize(m);
    wait_sink_.resize(m);
    waiting_on_.resize(m);
    pending_.resize(m);
    head_free_.resize(m);
    tail_free_.resize(m);
  }

  // The makespan of the chain schedule under `orders`; std::nullopt when the flows circulate all
  // the way round (no source) or when the orders wait in a cycle. O(chains) plus the chains whose
  // release times changed since their last two schedules.
  std::optional<double> makespan(const ChainOrders& orders) {
    if (circulates_) return std::nullopt;
    set_waits(orders);
    // Chains in an order that respects the waits (Kahn); a cycle means infeasible orders.
    const std::size_t m = chains_.size();
    std::vector<std::size_t>& ready = ready_;
    ready.clear();
    for (std::size_t c = 0; c < m; ++c) {
      if (pending_[c] == 0) ready.push_back(c);
    }
    order_.clear();
    double latest = 0.0;
    while (!ready.empty()) {
      const std::size_t c = ready.back();
      ready.pop_back();
      const ChainTimes& t = times(c);
      head_free_[c] = t.head_free;
      tail_free_[c] = t.tail_free;
      latest = std::max(latest, t.latest);
      order_.push_back(c);
      for (std::size_t w : waiting_on_[c]) {
        if (--pending_[w] == 0) ready.push_back(w);
      }
    }
    if (order_.size() != m) return std::nullopt;  // the orders wait in a cycle
    return latest;
  }

  // The runs of the schedule of the last call to makespan (which returned a value), chain after
  // chain in the order they were scheduled.
  std::vector<Run> runs() const {
    std::size_t total = 0;
    for (std::size_t c : order_) total += memo_[c][newest_[c]].runs.size();
    std::vector<Run> all;
    all.reserve(total);
    for (std::size_t c : order_) {
      const std::vector<Run>& r = memo_[c][newest_[c]].runs;
      all.insert(all.end(), r.begin(), r.end());
    }
    return all;
  }

 private:
  // For every chain, the chain of the other direction that shares its source, and its sink.
  void meet_at_ends() {
    const std::size_t n = in_.size();
    std::vector<std::size_t> heads(2 * n, kNone), tails(2 * n, kNone);
    auto slot = [](std::size_t i, Direction d) { return 2 * i + (d == Direction::next ? 0 : 1); };
    for (std::size_t c = 0; c < chains_.size(); ++c) {
      heads[slot(chains_[c].senders.front(), chains_[c].dir)] = c;
      tails[slot(chains_[c].tail, chains_[c].dir)] = c;
    }
    const std::size_t m = chains_.size();
    at_source_.resize(m);
    at_sink_.resize(m);
    for (std::size_t c = 0; c < m; ++c) {
      const Direction other = chains_[c].dir == Direction::next ? Direction::prev : Direction::next;
      at_source_[c] = heads[slot(chains_[c].senders.front(), other)];
      at_sink_[c] = tails[slot(chains_[c].tail, other)];
    }
  }

  // A chain waits for the other chain at its source when the source serves the other direction
  // first, and at its sink when the sink receives the other side first.
  void set_waits(const ChainOrders& orders) {
    const std::size_t m = chains_.size();
    for (std::size_t c = 0; c < m; ++c) {
      waiting_on_[c].clear();
      pending_[c] = 0;
    }
    for (std::size_t c = 0; c < m; ++c) {
      const Chain& ch = chains_[c];
      const bool next = ch.dir == Direction::next;
      const std::size_t head = ch.senders.front();
      wait_source_[c] =
          at_source_[c] != kNone && next != static_cast<bool>(orders.source_next_first[head])
              ? at_source_[c]
              : kNone;
      wait_sink_[c] =
          at_sink_[c] != kNone && next != static_cast<bool>(orders.sink_pred_first[ch.tail])
              ? at_sink_[c]
              : kNone;
      for (std::size_t w : {wait_source_[c], wait_sink_[c]}) {
        if (w == kNone) continue;
        waiting_on_[w].push_back(c);
        ++pending_[c];
      }
    }
  }

  // The release times of chain c's first and last senders under the current waits.
  std::pair<double, double> release_times(std::size_t c) const {
    const bool single = chains_[c].senders.size() == 1;
    double first = wait_source_[c] != kNone ? head_free_[wait_source_[c]] : 0.0;
    double last = single ? first : 0.0;
    if (wait_sink_[c] != kNone) last = std::max(last, tail_free_[wait_sink_[c]]);
    return {single ? last : first, last};
  }

  // The schedule of chain c for the release times its waits give: from the memo when one of its
  // last two schedules had the same release times, else computed into the older entry. A kept
  // schedule with the same first release time (when the chain has more than one sender) is the
  // same up to the last sender, which alone is then scheduled again.
  const ChainTimes& times(std::size_t c) {
    const auto [first, last] = release_times(c);
    const ChainTimes* same_start = nullptr;
    for (int e = 0; e < known_[c]; ++e) {
      const ChainTimes& kept = memo_[c][e];
      if (kept.release_first != first) continue;
      if (kept.release_last == last) {
        newest_[c] = e;
        return kept;
      }
      if (chains_[c].senders.size() > 1) same_start = &kept;
    }
    const int e = known_[c] < 2 ? known_[c]++ : 1 - newest_[c];
    ChainTimes& t = memo_[c][e];
    if (same_start == nullptr) {
      t.runs.clear();
      arrivals_.clear();
    } else {
      keep_all_but_last_sender(*same_start, t);
    }
    t.release_first = first;
    t.release_last = last;
    const std::size_t from = same_start == nullptr ? 0 : chains_[c].senders.size() - 1;
    schedule_chain(in_, chains_[c], from, t, arrivals_, departures_);
    newest_[c] = e;
    return t;
  }

  // Sets t (possibly `kept` itself) and arrivals_ to `kept` up to its last sender.
  void keep_all_but_last_sender(const ChainTimes& kept, ChainTimes& t) {
    if (&kept != &t) {
      const auto before_last = static_cast<std::ptrdiff_t>(kept.runs_before_last);
      t.runs.assign(kept.runs.begin(), kept.runs.begin() + before_last);
      t.head_free = kept.head_free;
      t.last_arrivals = kept.last_arrivals;
      t.runs_before_last = kept.runs_before_last;
    }
    t.runs.resize(t.runs_before_last);
    arrivals_ = t.last_arrivals;
  }

  const Instance& in_;
  bool circulates_ = false;
  std::vector<Chain> chains_;
  std::vector<std::size_t> at_source_, at_sink_;
  std::vector<std::array<ChainTimes, 2>> memo_;
  std::vector<int> newest_, known_;  // per chain: the memo entry last used, entries filled
  // State of the last call to makespan.
  std::vector<std::size_t> wait_source_, wait_sink_;
  std::vector<std::vector<std::size_t>> waiting_on_;
  std::vector<int> pending_;
  std::vector<double> head_free_, tail_free_;  // ports released by each chain
  std::vector<std::size_t> order_;
  std::vector<std::size_t> ready_;
  std::vector<Pace> arrivals_, departures_;
};

}  // namespace

std::optional<std::vector<Run>> chain_schedule(const Instance& in,
                                               const std::vector<std::int64_t>& flows,
                                               const ChainOrders& orders) {
  ChainSet chains(in, flows);
  if (!chains.makespan(orders)) return std::nullopt;
  return chains.runs();
}

Instance reversed_instance(const Instance& in) {
  Instance r;
  r.bidirectional = in.bidirectional;
  r.loads = in.targets;
  r.targets = in.loads;
  const std::size_t n = in.size();
  r.cost_next.resize(n);
  if (in.bidirectional) {
    r.cost_prev.resize(n);
    for (std::size_t i = 0; i < n; ++i) {
      r.cost_next[i] = in.cost_prev[in.succ(i)];
      r.cost_prev[i] = in.cost_next[in.pred(i)];
    }
  }
  return r;
}

std::vector<Run> unreverse_runs(const Instance& in, const std::vector<Run>& reversed_runs) {
  const Instance rev = reversed_instance(in);
  const double horizon = schedule_makespan(rev, reversed_runs);
  std::vector<Run> runs;
  runs.reserve(reversed_runs.size());
  for (const Run& r : reversed_runs) {
    if (r.count <= 0) continue;
    const auto from = static_cast<std::size_t>(r.from);
    const double c = rev.cost(from, r.dir);
    const double p = r.period > 0 ? r.period : c;
    const double last_end = r.start + static_cast<double>(r.count - 1) * p + c;
    const Direction back = r.dir == Direction::next ? Direction::prev : Direction::next;
    runs.push_back(Run{static_cast<std::int64_t>(rev.receiver(from, r.dir)), back,
                       horizon - last_end, r.count, r.period});
  }
  return runs;
}

}  // namespace detail

namespace {

struct Candidate {
  std::vector<Run> runs;
  double makespan = std::numeric_limits<double>::infinity();
  std::vector<std::int64_t> flows;
  std::string how;
};

class Portfolio {
  static constexpr std::int64_t kNoLimit = std::numeric_limits<std::int64_t>::max();

 public:
  Portfolio(const Instance& in, const HeuristicOptions& o)
      : in_(in), rev_(in.bidirectional ? detail::reversed_instance(in) : in), options_(o) {}

  void try_flows(const std::vector<std::int64_t>& flows) {
    std::vector<std::int64_t> reversed(flows.size());
    for (std::size_t i = 0; i < flows.size(); ++i) reversed[i] = -flows[i];
    search_orders(in_, flows, false);
    if (in_.bidirectional) search_orders(rev_, reversed, true);
  }

  void try_executor(const std::vector<std::int64_t>& flows) {
    std::vector<std::int64_t> reversed(flows.size());
    for (std::size_t i = 0; i < flows.size(); ++i) reversed[i] = -flows[i];
    for (SendPriority rule :
         {SendPriority::receiver_backlog, SendPriority::next_first, SendPriority::prev_first}) {
      offer(execute_flows_asap(in_, flows, kNoLimit, rule), flows, "list scheduling");
      if (in_.bidirectional) {
        offer(detail::unreverse_runs(in_, execute_flows_asap(rev_, reversed, kNoLimit, rule)),
              flows, "list scheduling, time-reversed");
      }
    }
  }

  const Candidate& best() const { return best_; }
  int rejected() const { return rejected_; }

 private:
  // Lemma 9's order and its opposite, then coordinate descent from the better one.
  void search_orders(const Instance& in, const std::vector<std::int64_t>& flows, bool reversed) {
    const std::size_t n = in.size();
    detail::ChainSet chains(in, flows);
    detail::ChainOrders orders{std::vector<char>(n, 1), std::vector<char>(n, 1)};
    double here = evaluate(chains, flows, orders, reversed);
    detail::ChainOrders other{std::vector<char>(n, 0), std::vector<char>(n, 0)};
    const double there = evaluate(chains, flows, other, reversed);
    if (there < here) {
      orders = other;
      here = there;
    }
    if (!std::isfinite(here) || n > options_.descent_max_n) return;
    std::vector<std::size_t> choices;  // sources and sinks
    for (std::size_t i = 0; i < n; ++i) {
      const std::int64_t left = flows[in.pred(i)], right = flows[i];
      if ((left < 0 && right > 0) || (left > 0 && right < 0)) choices.push_back(i);
    }
    for (int pass = 0; pass < options_.descent_passes; ++pass) {
      bool improved = false;
      for (std::size_t i : choices) {
        std::vector<char>& bit = flows[i] > 0 ? orders.source_next_first : orders.sink_pred_first;
        bit[i] = !bit[i];
        const double t = evaluate(chains, flows, orders, reversed);
        if (t < here) {
          here = t;
          improved = true;
        } else {
          bit[i] = !bit[i];
        }
      }
      if (!improved) break;
    }
  }

  double evaluate(detail::ChainSet& chains, const std::vector<std::int64_t>& flows,
                  const detail::ChainOrders& orders, bool reversed) {
    const std::optional<double> makespan = chains.makespan(orders);
    if (!makespan) return std::numeric_limits<double>::infinity();
    if (*makespan < best_.makespan) {
      std::vector<Run> runs = chains.runs();
      std::vector<std::int64_t> original_flows(flows);
      if (reversed) {
        for (auto& f : original_flows) f = -f;
        runs = detail::unreverse_runs(in_, runs);
      }
      offer(std::move(runs), original_flows,
            reversed ? "chain schedule, time-reversed" : "chain schedule");
    }
    return *makespan;
  }

  // Keeps the runs when shorter than the best so far and valid: with counts beyond 2^53 item
  // costs fall below the resolution of the times, and a chain's release time can be rounded onto
  // the start of another chain, so each new best is checked by the validator.
  void offer(std::vector<Run> runs, const std::vector<std::int64_t>& flows, const char* how) {
    const double makespan = schedule_makespan(in_, runs);
    if (!(makespan < best_.makespan)) return;
    Schedule s;
    s.transfers = std::move(runs);
    if (!check(in_, s, Stated{false, false, {}}).valid) {
      ++rejected_;
      return;
    }
    best_ = Candidate{std::move(s.transfers), makespan, flows, how};
  }

  const Instance& in_;
  Instance rev_;
  HeuristicOptions options_;
  Candidate best_;
  int rejected_ = 0;  // candidates the validator refused (times too coarse for single items)
};

std::int64_t items_moved(const std::vector<std::int64_t>& flows) {
  Int128 total = 0;
  for (std::int64_t f : flows) total += f < 0 ? -static_cast<Int128>(f) : f;
  return total > INT64_MAX ? INT64_MAX : static_cast<std::int64_t>(total);
}

}  // namespace

Schedule plan_heuristic(const Instance& in, const HeuristicOptions& options) {
  return detail::plan_heuristic(in, options, system6_integer_optimum(in));
}

Schedule detail::plan_heuristic(const Instance& in, const HeuristicOptions& options,
                                const System6Solution& tau6) {
  Portfolio portfolio(in, options);
  portfolio.try_flows(tau6.flows);
  // Neighbouring flows while their System 6 time leaves room to do better.
  for (int side : {+1, -1}) {
    if (!in.bidirectional && side < 0) continue;  // flows must stay >= 0
    for (int k = 1; k <= options.flow_radius; ++k) {
      std::vector<std::int64_t> flows(tau6.flows);
      bool representable = true;
      for (auto& f : flows) {
        const auto moved = checked_add(f, side * k);
        representable = representable && moved.has_value();
        if (moved) f = *moved;
      }
      if (!representable || system6_time(in, flows) >= portfolio.best().makespan) break;
      portfolio.try_flows(flows);
    }
  }
  // The list scheduler interleaves directions, which chain orders cannot; try it when the chains
  // left a gap and the item-level simulation stays small.
  const Candidate& chain_best = portfolio.best();
  const std::vector<std::int64_t>& flows = chain_best.flows.empty() ? tau6.flows : chain_best.flows;
  if (!at_most(chain_best.makespan, tau6.tau) && items_moved(flows) <= options.executor_max_items) {
    portfolio.try_executor(flows);
  }

  const Candidate& best = portfolio.best();
  if (best.runs.empty() && !std::isfinite(best.makespan) && !tau6.flows.empty() &&
      items_moved(tau6.flows) > 0) {
    throw InputError(
        fmt::format("no schedule the heuristic built is valid at double precision ({} rejected): "
                    "with counts this large single items cannot be timed; scale the counts down",
                    portfolio.rejected()),
        "loads");
  }
  Schedule s;
  s.algorithm = "heuristic";
  s.transfers = best.runs;
  std::sort(s.transfers.begin(), s.transfers.end(), [](const Run& a, const Run& b) {
    return a.from != b.from ? a.from < b.from : a.start < b.start;
  });
  s.flows = best.flows;
  s.makespan = schedule_makespan(in, s.transfers);
  s.lower_bound = tau6.tau;
  if (at_most(s.makespan, tau6.tau)) s.prove_optimal(Proof::lower_bound);
  s.notes.push_back("best schedule found by: " + best.how);
  return s;
}

}  // namespace redist::ring
