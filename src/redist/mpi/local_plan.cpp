#include "redist/mpi/local_plan.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

#include <fmt/format.h>

#include "redist/common/error.hpp"
#include "redist/common/tolerance.hpp"
#include "redist/ring/flow_executor.hpp"
#include "redist/ring/planner.hpp"

namespace redist::mpi {

const char* to_string(Mode mode) { return mode == Mode::ring ? "ring" : "linear"; }

namespace {

// The ASAP schedule of the flows (ring/flow_executor.hpp) and its makespan.
void schedule_asap(const ring::Instance& instance, FlowPlan& plan) {
  plan.transfers = ring::execute_flows_asap(instance, plan.flows);
  plan.makespan = ring::schedule_makespan(instance, plan.transfers);
}

}  // namespace

FlowPlan plan_flows(const ring::Instance& instance, Mode mode, std::string_view algorithm) {
  ring::validate_instance(instance);
  const std::size_t n = instance.size();
  FlowPlan plan;
  if (mode == Mode::linear) {
    plan.flows = ring::prefix_imbalances(instance);
    plan.flows[n - 1] = 0;
    if (!instance.bidirectional) {
      for (std::size_t i = 0; i < n; ++i) {
        if (plan.flows[i] < 0) {
          throw OptionError(fmt::format("linear mode on a unidirectional ring needs every prefix "
                                        "imbalance >= 0, but link {} -> {} would carry {} items "
                                        "backwards",
                                        i, instance.succ(i), -plan.flows[i]),
                            "mode");
        }
      }
    }
    plan.algorithm = "linear-asap";
    schedule_asap(instance, plan);
  } else {
    ring::Schedule s = ring::plan(instance, {std::string(algorithm)});
    plan.flows = s.flows;
    plan.algorithm = s.algorithm;
    plan.makespan = s.makespan;
    plan.transfers = std::move(s.transfers);
    const auto [lo, hi] = std::minmax_element(plan.flows.begin(), plan.flows.end());
    const std::int64_t circulation = *lo > 0 ? *lo : (*hi < 0 ? *hi : 0);
    if (circulation != 0) {
      for (std::int64_t& f : plan.flows) f -= circulation;
      plan.algorithm += "+no-circulation";
      schedule_asap(instance, plan);
    }
  }
  plan.rotation = plan.flows[n - 1];
  return plan;
}

DepartureTimes::DepartureTimes(const ring::Instance& instance, const std::vector<ring::Run>& runs,
                               std::int64_t rank, ring::Direction dir) {
  for (const ring::Run& r : runs) {
    if (r.from == rank && r.dir == dir && r.count > 0) runs_.push_back(r);
  }
  // A unidirectional ring has no prev costs (and no prev runs).
  if (!runs_.empty()) cost_ = instance.cost(static_cast<std::size_t>(rank), dir);
  std::sort(runs_.begin(), runs_.end(),
            [](const ring::Run& a, const ring::Run& b) { return a.start < b.start; });
  std::int64_t k = 0;
  for (const ring::Run& r : runs_) {
    first_.push_back(k);
    k += r.count;
  }
  first_.push_back(k);
}

double DepartureTimes::at(std::int64_t k) const {
  if (k < 0 || k >= first_.back()) return std::numeric_limits<double>::infinity();
  const std::size_t i =
      static_cast<std::size_t>(std::upper_bound(first_.begin(), first_.end(), k) - first_.begin()) -
      1;
  const ring::Run& r = runs_[i];
  const double p = r.period > 0 ? r.period : cost_;
  return r.start + static_cast<double>(k - first_[i]) * p;
}

std::int64_t DepartureTimes::count_until(double t) const {
  const double eps = kTimeTolerance * std::max(1.0, std::abs(t));
  // The last run starting at or before t (runs do not overlap in time).
  const auto it = std::upper_bound(runs_.begin(), runs_.end(), t + eps,
                                   [](double x, const ring::Run& r) { return x < r.start; });
  if (it == runs_.begin()) return 0;
  const std::size_t i = static_cast<std::size_t>(it - runs_.begin()) - 1;
  const ring::Run& r = runs_[i];
  const double p = r.period > 0 ? r.period : cost_;
  return first_[i] +
         std::min<std::int64_t>(r.count, static_cast<std::int64_t>((t + eps - r.start) / p) + 1);
}

std::vector<double> DepartureTimes::breakpoints() const {
  std::vector<double> t;
  for (std::size_t i = 0; i < runs_.size(); ++i) {
    t.push_back(at(first_[i]));
    t.push_back(at(first_[i + 1] - 1));
  }
  return t;
}

std::int64_t peak_forwarded(const ring::Instance& instance, const std::vector<ring::Run>& runs,
                            const LocalPlan& p, Side side, const Group& group) {
  if (group.hops <= 1 || group.last <= group.first) return 0;
  const std::int64_t n = static_cast<std::int64_t>(instance.size());
  const ring::Direction dir = side == Side::right ? ring::Direction::next : ring::Direction::prev;
  const std::int64_t up = side == Side::right ? (p.rank + n - 1) % n : (p.rank + 1) % n;
  const DepartureTimes upstream(instance, runs, up, dir), mine(instance, runs, p.rank, dir);
  const double cost = instance.cost(static_cast<std::size_t>(up), dir);
  const std::int64_t own = p.stream(side).own_out;
  // Items of the group arrived by t, and departed (as positions own + k) by t.
  auto arrived = [&](double t) {
    return std::clamp<std::int64_t>(upstream.count_until(t - cost), group.first, group.last) -
           group.first;
  };
  auto departed = [&](double t) {
    return std::clamp<std::int64_t>(mine.count_until(t) - own, group.first, group.last) -
           group.first;
  };
  // The holding count only rises at arrivals. Between breakpoints of either schedule, arrivals
  // and departures are evenly spaced, so the count at successive arrivals is monotone (it rises by
  // 0 or 1 per arrival when departures are sparser, else falls): its maximum is at an arrival
  // next to a breakpoint (including where the group's own departures start and end).
  std::vector<double> candidates;
  for (double t : upstream.breakpoints()) candidates.push_back(t + cost);
  std::vector<double> departure_breaks = mine.breakpoints();
  departure_breaks.push_back(mine.at(own + group.first));  // where the group's departures start
  departure_breaks.push_back(mine.at(own + group.last - 1));
  for (double t : departure_breaks) {
    const std::int64_t k = upstream.count_until(t - cost);  // arrivals at or before t
    if (k > 0) candidates.push_back(upstream.at(k - 1) + cost);
    candidates.push_back(upstream.at(k) + cost);  // the first one after t
  }
  candidates.push_back(upstream.at(group.first) + cost);
  candidates.push_back(upstream.at(group.last - 1) + cost);
  std::int64_t peak = 0;
  for (double t : candidates) {
    if (std::isfinite(t)) peak = std::max(peak, arrived(t) - departed(t));
  }
  return peak;
}

namespace {

// The stream sizes of one rank (everything but out_fwd), checked.
LocalPlan local_streams(const ring::Instance& instance, const std::vector<std::int64_t>& flows,
                        std::int64_t rank) {
  const std::int64_t n = static_cast<std::int64_t>(instance.size());
  if (static_cast<std::int64_t>(flows.size()) != n || rank < 0 || rank >= n) {
    throw InputError("flows and rank must match the ring", "flows");
  }
  LocalPlan p;
  p.rank = rank;
  for (std::int64_t i = 0; i < n; ++i) {
    if (i < rank) p.start += instance.loads[i];
    p.total += instance.loads[i];
  }
  p.load = instance.loads[rank];
  p.target = instance.targets[rank];
  const std::int64_t f_prev = flows[(rank + n - 1) % n];  // link pred -> rank
  const std::int64_t f_next = flows[rank];                // link rank -> succ
  if (f_next - f_prev != p.load - p.target) {
    throw InputError(fmt::format("flows do not balance rank {}", rank), "flows");
  }
  p.final_start = p.start - f_prev;
  p.right.in = std::max<std::int64_t>(f_prev, 0);
  p.right.out = std::max<std::int64_t>(f_next, 0);
  p.left.in = std::max<std::int64_t>(-f_next, 0);
  p.left.out = std::max<std::int64_t>(-f_prev, 0);
  p.right.own_out = std::min(p.right.out, p.load);
  p.left.own_out = std::min(p.left.out, p.load - p.right.own_out);
  for (Stream* s : {&p.right, &p.left}) {
    s->fwd = s->out - s->own_out;
    s->placed = s->in - s->fwd;
    if (s->placed < 0)
      throw InputError(fmt::format("rank {} would forward items it never receives", rank), "flows");
  }
  p.kept = p.load - p.right.own_out - p.left.own_out;
  p.kept_from = p.left.own_out;
  p.kept_to = p.right.placed;
  if (p.right.placed + p.kept + p.left.placed != p.target) {
    throw InputError(fmt::format("flows do not give rank {} its target", rank), "flows");
  }
  return p;
}

}  // namespace

std::vector<Group> outgoing_groups(const ring::Instance& instance,
                                   const std::vector<std::int64_t>& flows, std::int64_t rank,
                                   Side side) {
  const std::int64_t n = static_cast<std::int64_t>(instance.size());
  // Only the stream sizes matter here, which depend on the rank's load and its two links.
  auto stream = [&](std::int64_t r) {
    const std::int64_t f_prev = flows[static_cast<std::size_t>((r + n - 1) % n)];
    const std::int64_t f_next = flows[static_cast<std::size_t>(r)];
    LocalPlan p;
    p.load = instance.loads[static_cast<std::size_t>(r)];
    p.right.in = std::max<std::int64_t>(f_prev, 0);
    p.right.out = std::max<std::int64_t>(f_next, 0);
    p.left.in = std::max<std::int64_t>(-f_next, 0);
    p.left.out = std::max<std::int64_t>(-f_prev, 0);
    p.right.own_out = std::min(p.right.out, p.load);
    p.left.own_out = std::min(p.left.out, p.load - p.right.own_out);
    for (Stream* s : {&p.right, &p.left}) s->fwd = s->out - s->own_out;
    return side == Side::right ? p.right : p.left;
  };
  std::vector<Group> groups;
  // Positions [lo, hi) of this stream still travelling; on the link entering `cur` they are
  // items [lo + offset, hi + offset).
  std::int64_t lo = 0, hi = stream(rank).out, offset = 0;
  std::int64_t cur = rank;
  for (std::int64_t hops = 1; lo < hi; ++hops) {
    if (hops >= n) throw InputError("flows circulate around the ring", "flows");
    cur = side == Side::right ? (cur + 1) % n : (cur + n - 1) % n;
    const Stream s = stream(cur);
    const std::int64_t kept_from = std::max(lo, s.fwd - offset);
    if (kept_from < hi) groups.push_back({kept_from, hi, hops});
    hi = std::min(hi, s.fwd - offset);
    offset += s.own_out;
  }
  std::reverse(groups.begin(), groups.end());
  return groups;
}

LocalPlan make_local_plan(const ring::Instance& instance, const std::vector<std::int64_t>& flows,
                          std::int64_t rank) {
  LocalPlan p = local_streams(instance, flows, rank);
  const std::int64_t n = static_cast<std::int64_t>(instance.size());
  if (p.right.out > 0) p.right.out_fwd = local_streams(instance, flows, (rank + 1) % n).right.fwd;
  if (p.left.out > 0) p.left.out_fwd = local_streams(instance, flows, (rank + n - 1) % n).left.fwd;
  return p;
}

}  // namespace redist::mpi
