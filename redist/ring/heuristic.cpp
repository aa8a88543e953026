#include "redist/ring/heuristic.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

#include <fmt/format.h>

#include "redist/common/checked.hpp"
#include "redist/common/error.hpp"
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

}  // namespace

std::optional<std::vector<Run>> chain_schedule(const Instance& in,
                                               const std::vector<std::int64_t>& flows,
                                               const ChainOrders& orders) {
  const std::size_t n = in.size();
  std::size_t not_next = n, not_prev = n;  // a link with flow <= 0, and one with flow >= 0
  for (std::size_t i = 0; i < n; ++i) {
    if (flows[i] <= 0 && not_next == n) not_next = i;
    if (flows[i] >= 0 && not_prev == n) not_prev = i;
  }
  if (not_next == n || not_prev == n) return std::nullopt;  // circulation all the way round

  std::vector<Chain> chains = chains_of(in, flows, Direction::next, not_next);
  std::vector<Chain> prev_chains = chains_of(in, flows, Direction::prev, not_prev);
  chains.insert(chains.end(), prev_chains.begin(), prev_chains.end());
  const std::size_t m = chains.size();

  // Chains meeting at a processor: the one it heads, the one it ends, per direction.
  constexpr std::size_t kNone = static_cast<std::size_t>(-1);
  std::vector<std::size_t> heads(2 * n, kNone), tails(2 * n, kNone);
  auto slot = [](std::size_t i, Direction d) { return 2 * i + (d == Direction::next ? 0 : 1); };
  for (std::size_t c = 0; c < m; ++c) {
    heads[slot(chains[c].senders.front(), chains[c].dir)] = c;
    tails[slot(chains[c].tail, chains[c].dir)] = c;
  }
  auto other = [](Direction d) { return d == Direction::next ? Direction::prev : Direction::next; };
  // A chain waits for the other chain at its source when the source serves the other direction
  // first, and at its sink when the sink receives the other side first.
  std::vector<std::size_t> wait_source(m, kNone), wait_sink(m, kNone);
  std::vector<std::vector<std::size_t>> waiting_on(m);
  std::vector<int> pending(m, 0);
  for (std::size_t c = 0; c < m; ++c) {
    const Chain& ch = chains[c];
    const std::size_t head = ch.senders.front();
    const std::size_t at_source = heads[slot(head, other(ch.dir))];
    if (at_source != kNone &&
        (ch.dir == Direction::next) != static_cast<bool>(orders.source_next_first[head])) {
      wait_source[c] = at_source;
    }
    const std::size_t at_sink = tails[slot(ch.tail, other(ch.dir))];
    if (at_sink != kNone &&
        (ch.dir == Direction::next) != static_cast<bool>(orders.sink_pred_first[ch.tail])) {
      wait_sink[c] = at_sink;
    }
    for (std::size_t w : {wait_source[c], wait_sink[c]}) {
      if (w == kNone) continue;
      waiting_on[w].push_back(c);
      ++pending[c];
    }
  }

  // Chains in an order that respects the waits (Kahn); a cycle means infeasible orders.
  std::vector<std::size_t> ready;
  for (std::size_t c = 0; c < m; ++c) {
    if (pending[c] == 0) ready.push_back(c);
  }
  std::vector<double> head_free(m, 0.0), tail_free(m, 0.0);  // ports released by each chain
  std::vector<Run> runs;
  std::vector<Pace> arrivals, departures;
  std::size_t done = 0;
  while (!ready.empty()) {
    const std::size_t c = ready.back();
    ready.pop_back();
    ++done;
    const Chain& ch = chains[c];
    arrivals.clear();
    for (std::size_t k = 0; k < ch.senders.size(); ++k) {
      const std::size_t s = ch.senders[k];
      const double cost = in.cost(s, ch.dir);
      double release = 0.0;
      if (k == 0 && wait_source[c] != kNone) release = head_free[wait_source[c]];
      if (k + 1 == ch.senders.size() && wait_sink[c] != kNone) {
        release = std::max(release, tail_free[wait_sink[c]]);
      }
      asap_departures(in.loads[s], ch.counts[k], cost, release, arrivals, departures);
      if (k == 0) head_free[c] = departures.back().last() + cost;
      arrivals.clear();
      for (const Pace& d : departures) {
        runs.push_back(Run{static_cast<std::int64_t>(s), ch.dir, d.start, d.count,
                           d.period == cost ? 0.0 : d.period});
        arrivals.push_back({d.start + cost, d.count, d.period});
      }
    }
    tail_free[c] = arrivals.back().last();  // arrival times are reception ends
    for (std::size_t w : waiting_on[c]) {
      if (--pending[w] == 0) ready.push_back(w);
    }
  }
  if (done != m) return std::nullopt;  // the orders wait in a cycle
  return runs;
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
    detail::ChainOrders orders{std::vector<char>(n, 1), std::vector<char>(n, 1)};
    double here = evaluate(in, flows, orders, reversed);
    detail::ChainOrders other{std::vector<char>(n, 0), std::vector<char>(n, 0)};
    const double there = evaluate(in, flows, other, reversed);
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
        const double t = evaluate(in, flows, orders, reversed);
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

  double evaluate(const Instance& in, const std::vector<std::int64_t>& flows,
                  const detail::ChainOrders& orders, bool reversed) {
    auto runs = detail::chain_schedule(in, flows, orders);
    if (!runs) return std::numeric_limits<double>::infinity();
    const double makespan = schedule_makespan(in, *runs);
    if (makespan < best_.makespan) {
      std::vector<std::int64_t> original_flows(flows);
      if (reversed) {
        for (auto& f : original_flows) f = -f;
        *runs = detail::unreverse_runs(in_, *runs);
      }
      offer(std::move(*runs), original_flows,
            reversed ? "chain schedule, time-reversed" : "chain schedule");
    }
    return makespan;
  }

  // Keeps the runs when shorter than the best so far and valid: with counts beyond 2^53 item
  // costs fall below the resolution of the times, and a chain's release time can be rounded onto
  // the start of another chain, so each new best is checked by the validator.
  void offer(std::vector<Run> runs, const std::vector<std::int64_t>& flows, const char* how) {
    const double makespan = schedule_makespan(in_, runs);
    if (!(makespan < best_.makespan)) return;
    Schedule s;
    s.transfers = std::move(runs);
    s.makespan_given = false;
    s.flows_given = false;
    if (!validate_schedule(in_, s).valid) {
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
  if (chain_best.makespan > tau6.tau * (1 + 1e-9) &&
      items_moved(flows) <= options.executor_max_items) {
    portfolio.try_executor(flows);
  }

  const Candidate& best = portfolio.best();
  if (best.runs.empty() && !std::isfinite(best.makespan) && !tau6.flows.empty() &&
      items_moved(tau6.flows) > 0) {
    throw InputError(
        fmt::format("no schedule the heuristic built is valid at double precision ({} rejected): "
                    "with counts this large single items cannot be timed; scale the counts down",
                    portfolio.rejected()),
        "$.ring.loads");
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
  s.optimal = s.makespan <= tau6.tau * (1 + 1e-9);
  s.notes.push_back("best schedule found by: " + best.how);
  return s;
}

}  // namespace redist::ring
