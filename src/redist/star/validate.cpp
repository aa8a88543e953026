#include "redist/star/validate.hpp"

#include <algorithm>
#include <cmath>
#include <set>
#include <utility>

#include <fmt/format.h>

#include "redist/common/error.hpp"
#include "redist/common/overlap.hpp"
#include "redist/common/tolerance.hpp"

namespace redist::star {

namespace {

// The structure of each transfer (no times needed): the first wrong one, if any.
Violation structure_problem(const Instance& in, const Schedule& s) {
  const std::int64_t m = static_cast<std::int64_t>(in.loads.size());
  for (std::size_t k = 0; k < s.transfers.size(); ++k) {
    const Transfer& t = s.transfers[k];
    if (t.from < 0 || t.from >= m) {
      return {fmt::format("transfer {}: unknown worker {} in from", k, t.from), {k}};
    }
    if (t.to < 0 || t.to >= m)
      return {fmt::format("transfer {}: unknown worker {} in to", k, t.to), {k}};
    if (t.from == t.to) return {fmt::format("transfer {}: from equals to ({})", k, t.to), {k}};
    if (!std::isfinite(t.send_start) || t.send_start < 0) {
      return {fmt::format("transfer {}: send_start must be >= 0", k), {k}};
    }
    if (!std::isfinite(t.forward_start) || t.forward_start < 0) {
      return {fmt::format("transfer {}: forward_start must be >= 0", k), {k}};
    }
  }
  return {};
}

// Each worker's send times and arrival times, sorted. InputError naming the transfer when a time
// overflows a double.
struct WorkerTimes {
  std::vector<std::vector<double>> sends, arrivals;
};

WorkerTimes worker_times(const Instance& in, const Schedule& s) {
  WorkerTimes times{std::vector<std::vector<double>>(in.workers()),
                    std::vector<std::vector<double>>(in.workers())};
  for (std::size_t k = 0; k < s.transfers.size(); ++k) {
    const Transfer& t = s.transfers[k];
    const double arrival = t.forward_start + in.c[static_cast<std::size_t>(t.to)];
    if (!std::isfinite(t.send_start + in.c[static_cast<std::size_t>(t.from)])) {
      throw InputError("send_start + c[from] overflows a double",
                       fmt::format("$.transfers[{}].send_start", k));
    }
    if (!std::isfinite(arrival)) {
      throw InputError("forward_start + c[to] overflows a double",
                       fmt::format("$.transfers[{}].forward_start", k));
    }
    times.sends[static_cast<std::size_t>(t.from)].push_back(t.send_start);
    times.arrivals[static_cast<std::size_t>(t.to)].push_back(arrival);
  }
  for (std::size_t i = 0; i < in.workers(); ++i) {
    std::sort(times.sends[i].begin(), times.sends[i].end());
    std::sort(times.arrivals[i].begin(), times.arrivals[i].end());
  }
  return times;
}

// What the workers compute: each one's finish and the makespan, or the reason a worker sends a
// task it does not hold.
struct Computation {
  std::vector<double> finish;
  double makespan = 0.0;
  std::string problem;
};

// The latest arrival of a task that a send at `a` may forward: one arriving within its allowance
// after the send (relative to that arrival, the later of the two times).
double latest_arrival_held(double a, double resolution) {
  return (a + resolution) / (1 - kTimeTolerance);
}

// Worker i by the holding rule: its own tasks leave first, later sends forward the
// latest-arrived received tasks; then it computes its kept own tasks from 0 and its kept
// received tasks in arrival order.
double worker_finish(const Instance& in, const WorkerTimes& times, std::size_t i, double resolution,
                     std::string& problem) {
  const std::vector<double>& sends = times.sends[i];
  const std::int64_t sent = static_cast<std::int64_t>(sends.size());
  const std::int64_t own_sent = std::min<std::int64_t>(sent, in.loads[i]);
  std::multiset<double> held(times.arrivals[i].begin(), times.arrivals[i].end());
  for (std::size_t j = static_cast<std::size_t>(own_sent); j < sends.size(); ++j) {
    const double a = sends[j];
    auto it = held.upper_bound(latest_arrival_held(a, resolution));
    if (it == held.begin()) {
      problem = fmt::format(
          "worker {} sends at {} a task it does not hold (its {} own tasks are already sent and "
          "no received task has arrived)",
          i, a, in.loads[i]);
      return 0.0;
    }
    held.erase(std::prev(it));
  }
  double end = static_cast<double>(in.loads[i] - own_sent) * in.w[i];
  for (double arrival : held) end = std::max(end, arrival) + in.w[i];
  if (!std::isfinite(end)) {
    throw InputError(fmt::format("worker {} would compute beyond the largest double", i),
                     "$.transfers");
  }
  return end;
}

Computation computation(const Instance& in, const WorkerTimes& times, double resolution) {
  Computation c;
  c.finish.assign(in.workers(), 0.0);
  for (std::size_t i = 0; i < in.workers(); ++i) {
    c.finish[i] = worker_finish(in, times, i, resolution, c.problem);
    if (!c.problem.empty()) return c;
    c.makespan = std::max(c.makespan, c.finish[i]);
  }
  return c;
}

// The master forwards a task only once it has arrived (within the allowance of the arrival): the
// first transfer it forwards early, if any.
Violation forward_problem(const Instance& in, const Schedule& s, double resolution) {
  for (std::size_t k = 0; k < s.transfers.size(); ++k) {
    const Transfer& t = s.transfers[k];
    const double arrival = t.send_start + in.c[static_cast<std::size_t>(t.from)];
    if (arrival - t.forward_start > allowance(arrival, resolution)) {
      return {fmt::format("transfer {}: the master forwards at {} a task that arrives only at {}",
                          k, t.forward_start, arrival),
              {k}};
    }
  }
  return {};
}

// The spans of the transfers on the master's receive port (sends: [a, a + c[from])) or on its
// send port (forwards: [b, b + c[to])).
std::vector<Span> master_spans(const Instance& in, const Schedule& s, bool receive) {
  std::vector<Span> spans(s.transfers.size());
  for (std::size_t k = 0; k < spans.size(); ++k) {
    const Transfer& t = s.transfers[k];
    const double start = receive ? t.send_start : t.forward_start;
    const auto worker = static_cast<std::size_t>(receive ? t.from : t.to);
    spans[k] = {start, start + in.c[worker], k};
  }
  return spans;
}

// The busy time of each worker's spans among `spans` (its sends, or its receptions): every
// communication of a worker is one of the master's, but a worker's port may have no gap where the
// master's has one. The reason one exceeds its span, or empty.
std::string worker_busy_problem(const Instance& in, const Schedule& s,
                                const std::vector<Span>& spans, bool receive, double resolution) {
  std::vector<std::vector<Span>> by_worker(in.workers());
  for (const Span& span : spans) {
    const Transfer& t = s.transfers[span.index];
    by_worker[static_cast<std::size_t>(receive ? t.from : t.to)].push_back(span);
  }
  for (std::size_t i = 0; i < by_worker.size(); ++i) {
    if (const BusyTime b = busy_time(by_worker[i], resolution); b.exceeds(resolution)) {
      return fmt::format(
          "the {} of worker {} take {} in all, more than the {} they cover: they "
          "overlap",
          receive ? "sends" : "receptions", i, b.busy, b.covered);
    }
  }
  return {};
}

// One port of the master: no two transfers overlap on it, its busy time (and that of each
// worker's share of it) fits its span. The first violation, if any.
Violation port_problem(const Instance& in, const Schedule& s, bool receive, double resolution) {
  const char* port = receive ? "receive" : "send";
  std::vector<Span> spans = master_spans(in, s, receive);
  if (const auto o = first_overlap(spans, resolution)) {
    return {fmt::format("transfers {} and {} overlap on the master's {} port", o->first, o->second,
                        port),
            {o->first, o->second}};
  }
  if (const BusyTime b = busy_time(spans, resolution); b.exceeds(resolution)) {
    return {
        fmt::format("the transfers on the master's {} port take {} in all, more than the {} "
                    "they cover: they overlap",
                    port, b.busy, b.covered)};
  }
  return {worker_busy_problem(in, s, spans, receive, resolution)};
}

// The master forwards a task only once it has arrived, and uses each port for one task at a
// time: the first violation, if any.
Violation master_problem(const Instance& in, const Schedule& s, double resolution) {
  Violation why = forward_problem(in, s, resolution);
  if (!why.found()) why = port_problem(in, s, true, resolution);
  if (!why.found()) why = port_problem(in, s, false, resolution);
  return why;
}

// A transfer that starts after the horizon: beyond it a schedule only waits, and the durations
// of its communications would vanish next to their start times. The first such transfer, if any.
Violation horizon_problem(const Instance& in, const Schedule& s) {
  const double h = horizon(in);
  for (std::size_t k = 0; k < s.transfers.size(); ++k) {
    const Transfer& t = s.transfers[k];
    for (const auto& [start, name] :
         {std::pair{t.send_start, "send_start"}, std::pair{t.forward_start, "forward_start"}}) {
      if (start > h + kTimeTolerance * h) {
        return {fmt::format("transfer {}: {} {} is after the horizon {}: every task through the "
                            "master, twice, then the longest computation of a worker's own tasks",
                            k, name, start, h),
                {k}};
      }
    }
  }
  return {};
}

// A claimed time against the recomputed one, within the allowance of the larger.
bool same_claim(double claimed, double recomputed, double resolution) {
  return std::abs(claimed - recomputed) <=
         allowance(std::max(std::abs(claimed), recomputed), resolution);
}

// The stated makespan and finish against the recomputed ones; an empty reason when they agree.
std::string claim_problem(const Schedule& s, const Stated& stated, const Computation& c,
                          double resolution) {
  if (stated.makespan && !same_claim(s.makespan, c.makespan, resolution)) {
    return fmt::format("makespan {} differs from the recomputed makespan {}", s.makespan,
                       c.makespan);
  }
  if (!stated.finish) return {};
  if (s.finish.size() != c.finish.size()) {
    return fmt::format("finish has {} entries, expected {}", s.finish.size(), c.finish.size());
  }
  for (std::size_t i = 0; i < s.finish.size(); ++i) {
    if (!same_claim(s.finish[i], c.finish[i], resolution)) {
      return fmt::format("finish[{}] = {} differs from the recomputed {}", i, s.finish[i],
                         c.finish[i]);
    }
  }
  return {};
}

}  // namespace

double horizon(const Instance& in) {
  double sends = 0, tasks = 0, own = 0;
  for (std::size_t i = 0; i < in.workers(); ++i) {
    const auto load = static_cast<double>(in.loads[i]);
    sends += load * in.c[i];
    tasks += load;
    own = std::max(own, load * in.w[i]);
  }
  const double c_max = *std::max_element(in.c.begin(), in.c.end());
  const double w_max = *std::max_element(in.w.begin(), in.w.end());
  return 2 * (sends + tasks * c_max) + own + c_max + w_max;
}

double resolution(const Instance& in) {
  double own = 0;
  for (std::size_t i = 0; i < in.workers(); ++i) {
    own = std::max(own, static_cast<double>(in.loads[i]) * in.w[i]);
  }
  return kTimeResolution * own;
}

CheckResult check(const Instance& in, const Schedule& s, const Stated& stated) {
  validate_instance(in);
  if (Violation why = structure_problem(in, s); why.found()) return invalid_result(why);
  if (Violation why = horizon_problem(in, s); why.found()) return invalid_result(why);
  const double res = resolution(in);
  const Computation c = computation(in, worker_times(in, s), res);
  if (!c.problem.empty()) return invalid_result({c.problem});
  if (Violation why = master_problem(in, s, res); why.found()) return invalid_result(why);
  if (std::string why = claim_problem(s, stated, c, res); !why.empty()) {
    return invalid_result({why});
  }
  CheckResult r;
  r.valid = true;
  r.makespan = c.makespan;
  return r;
}

}  // namespace redist::star
