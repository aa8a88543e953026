// The independent validator of ring schedules (docs/formats.md). See validate.hpp for the rules.
//
// Phases, in this order; the first phase that finds a problem reports it and stops:
//  1. fields of every run, in transfer order (processor, direction, start, count, period, end),
//     then the first run that starts after the horizon;
//  2. one-port: for every port, the earliest conflict (runs sorted by start); over all ports, the
//     conflict at the earliest time is reported (ties: smaller transfer index); then the busy
//     time of each port (send ports first, smallest processor first);
//  3. holding: for every processor, the earliest departure of an item it does not hold; over all
//     processors, the earliest one (ties: smaller transfer index);
//  4. final loads (smallest processor first), 5. the `flows` field, 6. the `makespan` field
//     (5 and 6 only when the schedule states them: Stated::flows, Stated::makespan), 7. a
//     planner's `lower_bound` and `optimal` (Stated::bound_claims).
//
// Tolerance (common/overlap.hpp). Two times compared may differ by their allowance: kTimeTolerance
// of the later one plus the instance's resolution R = kTimeResolution * busiest_port(instance), a
// time the instance fixes; never a tolerance of the makespan, which one run far in the future
// would widen for every other.
//  - Two runs on one port conflict when they share more than the allowance of the end of the
//    time they share. The runs of a port are swept by (start, end descending, transfer index),
//    each compared with the earlier run that ends last: exact, and the same verdict for any order
//    of the transfers.
//  - The runs of a port take in all (their spans summed with Neumaier's compensation) at most
//    the time they cover (the length of their union), plus the allowance of their last end:
//    overlaps each within their allowance cannot add up, whatever gaps the port has.
//  - An item that arrives at time a counts as held from a minus the allowance of a on: forwarding
//    at the arrival time (or within the allowance before it) is accepted.
//  - A period is accepted when period >= c * (1 - kTimeTolerance) (c the link cost): the items of
//    a run then overlap one another by at most kTimeTolerance * c, within their allowance.
//    Negative, non-finite or explicit 0 periods (the reader stores them as -1) are rejected.
//    Fields of runs of count 0 are checked too.
//  - No run (of count > 0) starts after the horizon H, the sum of the runs' spans
//    (count - 1) * p + c: every run one after the other. A later start leaves an instant before it
//    when no run is under way, so that the schedule only waits, and the durations would vanish
//    next to the times.
//  - The `makespan` field must be the same time as M (same_time, kTimeTolerance).
//
// Holding, without looking at single items. Sort a processor's send runs by start: the k-th item
// it sends (k = 1, 2, ...) leaves at d_k. Sort its receive runs by start: the m-th item it receives
// arrives at a_m. One-port makes both sequences non-decreasing (up to the allowances), and the rule
// "at every departure, load + arrivals so far - departures so far (this one included) >= 0" is
// equivalent to "for every k > L (L the initial load), a_{k-L} exists and arrives by d_k, within
// its allowance". Split the index range k = L+1 .. (items sent) at the boundaries of the send runs
// and (shifted by L) of the receive runs: on each piece, k lies in one send run
// (d_k = s + (k - Q - 1) p) and k - L in one receive run (a_{k-L} = b + c + (k - L - P - 1) q), so
// the slack d_k + R - (1 - kTimeTolerance) a_{k-L} (>= 0: the item is held) is linear in k and its
// minimum is at an end of the piece. That is O(runs) evaluations per processor, whatever the item
// counts; item indices are 128-bit integers and times are evaluated in long double.
#include "redist/ring/validate.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "redist/common/overlap.hpp"
#include "redist/common/tolerance.hpp"

namespace redist::ring {

namespace {

__extension__ typedef __int128 i128;  // item counts: sums of 64-bit counts

// An item index as a long double: through int64 when it fits (one instruction instead of the
// 128-bit conversion routine; the same value, as both are exact there).
long double to_real(i128 v) {
  const auto narrow = static_cast<std::int64_t>(v);
  return narrow == v ? static_cast<long double>(narrow) : static_cast<long double>(v);
}

std::string to_string(i128 v) {
  if (v == 0) return "0";
  const bool negative = v < 0;
  std::string digits;
  while (v != 0) {
    const int d = static_cast<int>(v % 10);
    digits.push_back(static_cast<char>('0' + (d < 0 ? -d : d)));
    v /= 10;
  }
  if (negative) digits.push_back('-');
  std::reverse(digits.begin(), digits.end());
  return digits;
}

// A run that passed the field checks and has count > 0, as seen by one of its two ports.
struct Slot {
  double start;
  double first_arrival;  // start + cost
  double period;         // effective: the given period, or the cost when absent
  double end;            // start + (count - 1) * period + cost
  std::int64_t count;
  std::size_t index;  // in schedule.transfers
  // By start; among equal starts the longer run first, so that a run starting with a longer one
  // on the same port is always compared against it (the order of the transfers does not matter).
  bool operator<(const Slot& o) const {
    if (start != o.start) return start < o.start;
    if (end != o.end) return end > o.end;
    return index < o.index;
  }
};

// A problem found in phase 2 or 3, ordered by time, then by transfer index.
struct Finding {
  bool found = false;
  double time = 0.0;
  std::size_t index = 0;
  Violation violation;

  // `entries`: the transfers the reason names, idx first.
  void offer(double t, std::size_t idx, const auto& make_reason, std::vector<std::size_t> entries) {
    if (found && (time < t || (time == t && index <= idx))) return;
    found = true;
    time = t;
    index = idx;
    violation = {make_reason(), std::move(entries)};
  }
};

// The runs on each processor's send (or receive) port, as compressed rows: processor i has
// runs[offset[i]] .. runs[offset[i + 1] - 1], sorted by (start, end descending, transfer index).
struct Port {
  std::vector<std::size_t> offset;  // n + 1; phase 1 counts the runs of processor i in offset[i+1]
  std::vector<Slot> runs;

  explicit Port(std::size_t n) : offset(n + 1, 0) {}

  void count(std::size_t i) { ++offset[i + 1]; }
  // After the counts: prefix sums, so that offset[i + 1] is the end of the rows of i.
  void allocate() {
    for (std::size_t i = 0; i + 1 < offset.size(); ++i) offset[i + 1] += offset[i];
    runs.resize(offset.back());
  }
  // Fills the rows from their ends: calls must come in decreasing transfer order. Afterwards
  // offset[i + 1] is the start of the rows of i, which finish() shifts into place.
  void place(std::size_t i, const Slot& slot) { runs[--offset[i + 1]] = slot; }
  void finish() {
    const std::size_t n = offset.size() - 1;
    for (std::size_t i = 0; i < n; ++i) offset[i] = offset[i + 1];
    offset[n] = runs.size();
    for (std::size_t i = 0; i < n; ++i) {
      const auto first = runs.begin() + static_cast<std::ptrdiff_t>(offset[i]);
      const auto last = runs.begin() + static_cast<std::ptrdiff_t>(offset[i + 1]);
      if (last - first > 1 && !std::is_sorted(first, last)) std::sort(first, last);
    }
  }
};

// Two runs on one port share more than the allowance of the end of the time they share.
bool overlap(const Slot& earlier, const Slot& later, double resolution) {
  const double shared_end = std::min(earlier.end, later.end);
  return shared_end - later.start > allowance(shared_end, resolution);
}

void check_ports(const Port& g, bool send, double resolution, Finding& finding) {
  const std::size_t n = g.offset.size() - 1;
  for (std::size_t i = 0; i < n; ++i) {
    const std::size_t first = g.offset[i], last = g.offset[i + 1];
    if (last - first < 2) continue;
    std::size_t busiest = first;  // the run with the latest end so far
    for (std::size_t k = first + 1; k < last; ++k) {
      const Slot& s = g.runs[k];
      if (overlap(g.runs[busiest], s, resolution)) {
        // Reported on the later run by (start, transfer index), whichever the sweep met first.
        const bool swap = g.runs[busiest].start == s.start && g.runs[busiest].index > s.index;
        const Slot& late = swap ? g.runs[busiest] : s;
        const Slot& other = swap ? s : g.runs[busiest];
        finding.offer(
            late.start, late.index,
            [&] {
              return fmt::format(
                  "transfers[{}]: the {} port of processor {} is still busy with transfers[{}] at "
                  "time {}",
                  late.index, send ? "send" : "receive", i, other.index, late.start);
            },
            {late.index, other.index});
        break;  // later conflicts of this port start later
      }
      if (s.end > g.runs[busiest].end) busiest = k;
    }
  }
}

// Phase 2, after the sweep: the runs of each port take in all no more time than the span from
// their first start to their last end (plus the allowance of that end). The reason, or empty.
std::string busy_problem(const Port& g, bool send, double resolution) {
  std::vector<Span> spans;
  for (std::size_t i = 0; i + 1 < g.offset.size(); ++i) {
    spans.clear();
    for (std::size_t k = g.offset[i]; k < g.offset[i + 1]; ++k) {
      spans.push_back({g.runs[k].start, g.runs[k].end, g.runs[k].index});
    }
    if (const BusyTime b = busy_time(spans, resolution); b.exceeds(resolution)) {
      return fmt::format(
          "the runs on the {} port of processor {} take {} in all, more than the "
          "{} they cover: they overlap",
          send ? "send" : "receive", i, b.busy, b.covered);
    }
  }
  return {};
}

i128 total_count(const Port& g, std::size_t i) {
  i128 sum = 0;
  for (std::size_t k = g.offset[i]; k < g.offset[i + 1]; ++k) sum += g.runs[k].count;
  return sum;
}

void check_holding(const Instance& in, const Port& sends, const Port& receives, double resolution,
                   Finding& finding) {
  const std::size_t n = in.size();
  for (std::size_t i = 0; i < n; ++i) {
    const i128 load = in.loads[i];
    const i128 sent = total_count(sends, i);
    if (sent <= load) continue;  // never sends more than it holds from the start
    const i128 received = total_count(receives, i);

    // Cursor on the send runs: run s_at carries the items k = q_before + 1 .. q_before + count.
    std::size_t s_at = sends.offset[i];
    i128 q_before = 0;
    const auto seek_send = [&](i128 k) {
      while (q_before + sends.runs[s_at].count < k) q_before += sends.runs[s_at++].count;
    };
    const auto report = [&](i128 k) {
      seek_send(k);
      const Slot& s = sends.runs[s_at];
      const double t =
          static_cast<double>(static_cast<long double>(s.start) +
                              to_real(k - q_before - 1) * static_cast<long double>(s.period));
      finding.offer(t, s.index,
                    [&] {
                      return fmt::format(
                          "transfers[{}]: processor {} sends an item it does not hold at time {}",
                          s.index, i, t);
                    },
                    {s.index});
    };

    // Cursor on the receive runs: run r_at carries the arrivals m = p_before + 1 .. + count.
    std::size_t r_at = receives.offset[i];
    i128 p_before = 0;
    const i128 m_end = std::min(received, sent - load);
    bool violated = false;
    for (i128 m = 1; m <= m_end;) {
      while (p_before + receives.runs[r_at].count < m) p_before += receives.runs[r_at++].count;
      seek_send(m + load);
      const Slot& r = receives.runs[r_at];
      const Slot& s = sends.runs[s_at];
      const i128 piece_end = std::min(q_before + s.count - load, p_before + r.count);
      // slack(m) = d_{m+L} + R - (1 - kTimeTolerance) a_m (>= 0: a_m arrives by d_{m+L}
      // within its allowance), linear in m on [m, piece_end].
      const auto slack = [&](i128 mm) {
        const long double d =
            static_cast<long double>(s.start) +
            to_real(mm + load - q_before - 1) * static_cast<long double>(s.period);
        const long double a = static_cast<long double>(r.first_arrival) +
                              to_real(mm - p_before - 1) * static_cast<long double>(r.period);
        return d + static_cast<long double>(resolution) - (1 - kTimeTolerance) * a;
      };
      if (slack(m) < 0) {
        report(m + load);
        violated = true;
        break;
      }
      if (slack(piece_end) < 0) {
        // The first negative slack of the piece: slack(lo) >= 0, slack(hi) < 0.
        i128 lo = m, hi = piece_end;
        while (hi - lo > 1) {
          const i128 mid = lo + (hi - lo) / 2;
          (slack(mid) < 0 ? hi : lo) = mid;
        }
        report(hi + load);
        violated = true;
        break;
      }
      m = piece_end + 1;
    }
    // Items sent beyond the initial load plus everything received were never held.
    if (!violated && sent - load > received) report(load + received + 1);
  }
}

// Phase 5: the flows field, when stated (an empty array is stated, and wrong). The reason it is
// wrong, or empty.
std::string wrong_flows(const Instance& instance, const Schedule& schedule, const Stated& stated) {
  if (!stated.flows) return {};
  const std::size_t n = instance.size();
  if (schedule.flows.size() != n) {
    return fmt::format("flows has {} entries, the ring has {} processors", schedule.flows.size(),
                       n);
  }
  std::vector<i128> net(n, 0);
  for (const Run& r : schedule.transfers) {
    const auto from = static_cast<std::size_t>(r.from);
    if (r.dir == Direction::next) {
      net[from] += r.count;
    } else {
      net[from == 0 ? n - 1 : from - 1] -= r.count;  // over the link pred(from) -> from, backwards
    }
  }
  for (std::size_t i = 0; i < n; ++i) {
    if (schedule.flows[i] != net[i]) {
      return fmt::format("flows[{}] is {}, the transfers move {} items over that link", i,
                         schedule.flows[i], to_string(net[i]));
    }
  }
  return {};
}

// Phases 6 and 7: the makespan field when stated (a negative one is compared, and wrong), then a
// planner's bound claims (lower_bound at most the makespan; optimal only when the makespan meets
// it). The reason one is wrong, or empty.
std::string wrong_claims(const Schedule& schedule, const Stated& stated, double makespan) {
  if (stated.makespan && !same_time(schedule.makespan, makespan)) {
    return fmt::format("makespan {} differs from the recomputed makespan {}", schedule.makespan,
                       makespan);
  }
  if (!stated.bound_claims) return {};
  const double bound = schedule.lower_bound.value_or(0.0);  // no bound stated: 0, a valid one
  if (!at_most(bound, makespan)) {
    return fmt::format("lower_bound {} exceeds the recomputed makespan {}", bound, makespan);
  }
  if (schedule.optimal && !at_most(makespan, bound)) {
    return fmt::format("optimal is claimed but the makespan {} is above the lower_bound {}",
                       makespan, bound);
  }
  return {};
}

// The cost of the link a run uses.
double link_cost(const Instance& instance, const Run& r) {
  const auto from = static_cast<std::size_t>(r.from);
  return r.dir == Direction::next ? instance.cost_next[from] : instance.cost_prev[from];
}

// The processor at the other end of a run's link.
std::size_t receiver_of(std::size_t n, const Run& r) {
  const auto from = static_cast<std::size_t>(r.from);
  return r.dir == Direction::next ? (from + 1 == n ? 0 : from + 1) : (from == 0 ? n - 1 : from - 1);
}

// When the last item of a run (cost c, effective period p) arrives.
long double run_end(const Run& r, double c, double p) {
  return static_cast<long double>(r.start) +
         static_cast<long double>(r.count - 1) * static_cast<long double>(p) +
         static_cast<long double>(c);
}

// Phase 1 for transfers[k], except its end: processor, direction, start, count and period. The
// reason a field is wrong, or empty.
std::string wrong_fields(const Instance& instance, const Stated& stated, std::size_t k,
                         const Run& r) {
  const std::size_t n = instance.size();
  if (r.from < 0 || static_cast<std::uint64_t>(r.from) >= n) {
    return fmt::format("transfers[{}]: processor {} does not exist (n = {})", k, r.from, n);
  }
  if (std::binary_search(stated.unknown_directions.begin(), stated.unknown_directions.end(), k)) {
    return fmt::format("transfers[{}]: unknown direction", k);
  }
  if (r.dir == Direction::prev && !instance.bidirectional) {
    return fmt::format("transfers[{}]: direction prev on a unidirectional ring", k);
  }
  if (!std::isfinite(r.start)) return fmt::format("transfers[{}]: start is not finite", k);
  if (r.start < 0) return fmt::format("transfers[{}]: start {} is negative", k, r.start);
  if (r.count < 0) return fmt::format("transfers[{}]: count {} is negative", k, r.count);
  if (r.period != 0.0) {
    const double c = link_cost(instance, r);
    if (!(r.period > 0) || !std::isfinite(r.period)) {
      return fmt::format("transfers[{}]: period must be a finite number > 0", k);
    }
    if (r.period < c * (1.0 - kTimeTolerance)) {
      return fmt::format("transfers[{}]: period {} is shorter than the link cost {}", k, r.period,
                         c);
    }
  }
  return {};
}

// Phase 1: the fields of every run, in transfer order. Counts the runs of count > 0 on each send
// and receive port and sets `latest` to the end of the last one. The first wrong run, if any.
Violation wrong_runs(const Instance& instance, const Schedule& schedule, const Stated& stated,
                     Port& sends, Port& receives, long double& latest) {
  const auto& runs = schedule.transfers;
  for (std::size_t k = 0; k < runs.size(); ++k) {
    const Run& r = runs[k];
    std::string wrong = wrong_fields(instance, stated, k, r);
    if (!wrong.empty()) return {std::move(wrong), {k}};
    if (r.count == 0) continue;
    const double c = link_cost(instance, r);
    const long double end = run_end(r, c, r.period > 0 ? r.period : c);
    if (!std::isfinite(static_cast<double>(end))) {
      return {fmt::format("transfers[{}]: the run ends at a non-finite time", k), {k}};
    }
    latest = std::max(latest, end);
    sends.count(static_cast<std::size_t>(r.from));
    receives.count(receiver_of(instance.size(), r));
  }
  return {};
}

// After phase 1: places every run of count > 0 on the send port of its sender and the receive
// port of its receiver, in decreasing transfer order as Port::place requires.
void fill_ports(const Instance& instance, const Schedule& schedule, Port& sends, Port& receives) {
  const auto& runs = schedule.transfers;
  sends.allocate();
  receives.allocate();
  for (std::size_t k = runs.size(); k-- > 0;) {
    const Run& r = runs[k];
    if (r.count == 0) continue;
    const double c = link_cost(instance, r);
    const double p = r.period > 0 ? r.period : c;
    const Slot slot{r.start, r.start + c, p, static_cast<double>(run_end(r, c, p)), r.count, k};
    sends.place(static_cast<std::size_t>(r.from), slot);
    receives.place(receiver_of(instance.size(), r), slot);
  }
  sends.finish();
  receives.finish();
}

// The horizon of runs that passed phase 1: every run one after the other, each as long as its
// span (count - 1) * p + c.
long double horizon_of(const Instance& instance, const std::vector<Run>& runs) {
  long double total = 0.0L;
  for (const Run& r : runs) {
    if (r.count == 0) continue;
    const double c = link_cost(instance, r);
    const long double p = r.period > 0 ? r.period : c;
    total += static_cast<long double>(r.count - 1) * p + static_cast<long double>(c);
  }
  return total;
}

// Phase 1, last: the first run, in transfer order, that starts after the horizon, if any.
Violation late_run(const Instance& instance, const std::vector<Run>& runs) {
  const long double horizon = horizon_of(instance, runs);
  for (std::size_t k = 0; k < runs.size(); ++k) {
    if (runs[k].count > 0 && runs[k].start > horizon + kTimeTolerance * horizon) {
      return {fmt::format("transfers[{}]: start {} is after the horizon {}: the time to run every "
                          "run of the schedule one after the other",
                          k, runs[k].start, static_cast<double>(horizon)),
              {k}};
    }
  }
  return {};
}

// Phase 4: the load each processor ends with, smallest processor first. The reason one misses
// its target, or empty.
std::string wrong_final_loads(const Instance& instance, const Port& sends, const Port& receives) {
  for (std::size_t i = 0; i < instance.size(); ++i) {
    const i128 final_load = instance.loads[i] - total_count(sends, i) + total_count(receives, i);
    if (final_load != instance.targets[i]) {
      return fmt::format("processor {} ends with {} items, its target is {}", i,
                         to_string(final_load), instance.targets[i]);
    }
  }
  return {};
}

}  // namespace

double busiest_port(const Instance& instance) {
  const std::size_t n = instance.size();
  const long double none = std::numeric_limits<long double>::infinity();
  long double busiest = 0.0L;
  for (std::size_t i = 0; i < n; ++i) {
    const std::size_t pred = i == 0 ? n - 1 : i - 1, succ = i + 1 == n ? 0 : i + 1;
    const bool both = instance.bidirectional;
    const long double send =
        std::min<long double>(instance.cost_next[i], both ? instance.cost_prev[i] : none);
    const long double receive =
        std::min<long double>(instance.cost_next[pred], both ? instance.cost_prev[succ] : none);
    const long double surplus =
        static_cast<long double>(instance.loads[i]) - static_cast<long double>(instance.targets[i]);
    busiest = std::max(busiest, surplus > 0 ? surplus * send : -surplus * receive);
  }
  return static_cast<double>(std::min<long double>(busiest, std::numeric_limits<double>::max()));
}

CheckResult check(const Instance& instance, const Schedule& schedule, const Stated& stated) {
  validate_instance(instance);  // throws InputError: a bad instance is bad input, not a bad plan
  const std::size_t n = instance.size();
  const auto invalid = [](std::string reason, double makespan = 0.0) {
    return CheckResult{false, makespan, std::move(reason)};
  };

  // Phase 1: the fields of each run; makespan; runs per port.
  Port sends(n), receives(n);
  long double latest = 0.0L;
  if (Violation wrong = wrong_runs(instance, schedule, stated, sends, receives, latest);
      wrong.found()) {
    return invalid_result(std::move(wrong));
  }
  if (Violation late = late_run(instance, schedule.transfers); late.found()) {
    return invalid_result(std::move(late));
  }
  const double makespan = static_cast<double>(latest);
  const double resolution = kTimeResolution * busiest_port(instance);

  // Phase 2: one-port, pairs of runs then each port's busy time.
  fill_ports(instance, schedule, sends, receives);
  Finding finding;
  check_ports(sends, true, resolution, finding);
  check_ports(receives, false, resolution, finding);
  if (finding.found) return invalid_result(std::move(finding.violation), makespan);
  std::string busy = busy_problem(sends, true, resolution);
  if (busy.empty()) busy = busy_problem(receives, false, resolution);
  if (!busy.empty()) return invalid(std::move(busy), makespan);

  // Phase 3: holding.
  check_holding(instance, sends, receives, resolution, finding);
  if (finding.found) return invalid_result(std::move(finding.violation), makespan);

  // Phase 4: final loads; phases 5 to 7: the claims.
  std::string wrong = wrong_final_loads(instance, sends, receives);
  if (wrong.empty()) wrong = wrong_flows(instance, schedule, stated);
  if (wrong.empty()) wrong = wrong_claims(schedule, stated, makespan);
  if (!wrong.empty()) return invalid(std::move(wrong), makespan);
  return CheckResult{true, makespan, ""};
}

}  // namespace redist::ring
