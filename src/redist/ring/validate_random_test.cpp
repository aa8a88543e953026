// The ring validator (validate.hpp) against an item-by-item checker written here, on random
// schedules with fixed seeds: the same verdict class on every one.
#include "redist/ring/validate.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <limits>
#include <random>
#include <string>
#include <vector>

#include "redist/common/error.hpp"
#include "redist/common/tolerance.hpp"
#include "redist/ring/planner.hpp"
#include "redist/ring/validate_test.hpp"
#include "redist/testing/random_cases.hpp"
#include "redist/testing/random_ring.hpp"

namespace redist::ring {
namespace {

using namespace validate_testing;

// ---------------------------------------------------------------------------------------------
// Randomized comparison with an item-by-item checker.

enum class Verdict { valid, field, port, busy, holding, final_load, flows, makespan };

const char* name(Verdict v) {
  switch (v) {
    case Verdict::valid:
      return "valid";
    case Verdict::field:
      return "field";
    case Verdict::port:
      return "port";
    case Verdict::busy:
      return "busy";
    case Verdict::holding:
      return "holding";
    case Verdict::final_load:
      return "final";
    case Verdict::flows:
      return "flows";
    default:
      return "makespan";
  }
}

Verdict verdict_of(const CheckResult& r) {
  if (r.valid) return Verdict::valid;
  if (r.reason.find(" in all, more than ") != std::string::npos) return Verdict::busy;
  if (r.reason.find(" port of processor ") != std::string::npos) return Verdict::port;
  if (r.reason.find("does not hold") != std::string::npos) return Verdict::holding;
  if (r.reason.find("ends with") != std::string::npos) return Verdict::final_load;
  if (starts_with(r.reason, "flows")) return Verdict::flows;
  if (starts_with(r.reason, "makespan")) return Verdict::makespan;
  return Verdict::field;
}

// The resolution of the validator, from its definition: kTimeResolution of the longest time a
// port must be busy (a surplus sent over the cheapest outgoing link, a deficit received over the
// cheapest incoming one).
double resolution_of(const Instance& in) {
  const std::size_t n = in.size();
  double busiest = 0;
  for (std::size_t i = 0; i < n; ++i) {
    const std::size_t pred = (i + n - 1) % n, succ = (i + 1) % n;
    double out = in.cost_next[i], into = in.cost_next[pred];
    if (in.bidirectional) {
      out = std::min(out, in.cost_prev[i]);
      into = std::min(into, in.cost_prev[succ]);
    }
    const double surplus = static_cast<double>(in.loads[i] - in.targets[i]);
    busiest = std::max(busiest, surplus > 0 ? surplus * out : -surplus * into);
  }
  return 1e-12 * busiest;
}

// Straight from the definitions of docs/formats.md, item by item, in the same order of checks as
// the validator (fields, horizon, ports, busy times, holding, final loads, makespan field). For
// small counts only. `run` is the transfer the problem is reported on (fields, ports, holding),
// `time` when it happens (ports, holding): the earliest one, ties going to the smaller transfer
// index. Two times may differ by 1e-9 of the later one plus the resolution.
struct BruteResult {
  Verdict verdict;
  double makespan;
  std::size_t run = 0;
  double time = 0;
};

BruteResult brute_force(const Instance& in, const StatedSchedule& stated) {
  const Schedule& s = stated.schedule;
  const std::vector<std::size_t>& unknown = stated.stated.unknown_directions;
  const auto n = static_cast<std::int64_t>(in.size());
  struct Item {
    std::size_t run;
    std::int64_t from, to;
    double depart, arrive;
  };
  struct Span {
    std::size_t run;
    std::int64_t from, to;
    double lo, hi;
  };
  std::vector<Item> items;
  std::vector<Span> spans;
  double makespan = 0;
  for (std::size_t k = 0; k < s.transfers.size(); ++k) {
    const ring::Run& r = s.transfers[k];
    if (r.from < 0 || r.from >= n) return {Verdict::field, 0, k};
    if (std::find(unknown.begin(), unknown.end(), k) != unknown.end()) {
      return {Verdict::field, 0, k};
    }
    if (r.dir == kPrev && !in.bidirectional) return {Verdict::field, 0, k};
    if (!std::isfinite(r.start) || r.start < 0 || r.count < 0) return {Verdict::field, 0, k};
    const double c = r.dir == kNext ? in.cost_next[r.from] : in.cost_prev[r.from];
    if (r.period != 0 && !(r.period >= c)) return {Verdict::field, 0, k};
    const double p = r.period > 0 ? r.period : c;
    const std::int64_t to = r.dir == kNext ? (r.from + 1) % n : (r.from + n - 1) % n;
    for (std::int64_t j = 0; j < r.count; ++j) {
      items.push_back({k, r.from, to, r.start + j * p, r.start + j * p + c});
      makespan = std::max(makespan, r.start + j * p + c);
    }
    if (r.count > 0) spans.push_back({k, r.from, to, r.start, r.start + (r.count - 1) * p + c});
  }
  double horizon = 0;
  for (const Span& a : spans) horizon += a.hi - a.lo;
  for (const Span& a : spans) {
    if (a.lo > horizon * (1 + 1e-9)) return {Verdict::field, 0, a.run};
  }
  const double resolution = resolution_of(in);
  const auto allowance = [&](double t) { return 1e-9 * t + resolution; };
  // Earliest (time, run) of a problem; the time of a port conflict is the later start.
  BruteResult first{Verdict::valid, makespan, 0, std::numeric_limits<double>::infinity()};
  const auto note = [&](Verdict v, double time, std::size_t run) {
    if (time < first.time || (time == first.time && run < first.run))
      first = {v, makespan, run, time};
  };
  for (const Span& a : spans) {
    for (const Span& b : spans) {
      const bool b_later = a.lo < b.lo || (a.lo == b.lo && a.run < b.run);
      const bool shared = a.from == b.from || a.to == b.to;
      const double shared_end = std::min(a.hi, b.hi);
      if (b_later && shared && shared_end - b.lo > allowance(shared_end)) {
        note(Verdict::port, b.lo, b.run);
      }
    }
  }
  if (first.verdict != Verdict::valid) return first;
  for (const bool send : {true, false}) {
    for (std::int64_t i = 0; i < n; ++i) {
      double busy = 0, lo = std::numeric_limits<double>::infinity(), hi = 0;
      for (const Span& a : spans) {
        if ((send ? a.from : a.to) != i) continue;
        busy += a.hi - a.lo;
        lo = std::min(lo, a.lo);
        hi = std::max(hi, a.hi);
      }
      if (hi > 0 && busy > hi - lo + allowance(hi)) return {Verdict::busy, makespan};
    }
  }
  for (const Item& d : items) {
    // Held by d.from when d leaves: load + arrivals up to then - departures up to then.
    std::int64_t held = in.loads[d.from];
    for (const Item& e : items) {
      if (e.to == d.from && e.arrive - d.depart <= allowance(e.arrive)) ++held;
      if (e.from == d.from && e.depart <= d.depart) --held;
    }
    if (held < 0) note(Verdict::holding, d.depart, d.run);
  }
  if (first.verdict != Verdict::valid) return first;
  for (std::int64_t i = 0; i < n; ++i) {
    std::int64_t final_load = in.loads[i];
    for (const Item& e : items) final_load += (e.to == i) - (e.from == i);
    if (final_load != in.targets[i]) return {Verdict::final_load, makespan};
  }
  if (s.makespan >= 0 && std::fabs(s.makespan - makespan) > 1e-9 * makespan) {
    return {Verdict::makespan, makespan};
  }
  return {Verdict::valid, makespan};
}

// Random small instances and schedules: mostly port-respecting runs placed after the ports free
// up (so that holding and final loads get tested), with some free placements, relay pipelines
// with random periods and offsets around the arrival times, and a few broken fields.
struct Case {
  Instance instance;
  StatedSchedule schedule;
};

Case random_case(std::mt19937_64& rng) {
  const auto uniform = [&](std::int64_t lo, std::int64_t hi) {
    return std::uniform_int_distribution<std::int64_t>(lo, hi)(rng);
  };
  const double costs[] = {0.5, 1.0, 1.5, 2.0, 3.0};
  const std::int64_t n = uniform(2, 5);
  Instance in;
  in.bidirectional = uniform(0, 1) == 1;
  for (std::int64_t i = 0; i < n; ++i) {
    in.loads.push_back(uniform(0, 3));
    in.cost_next.push_back(costs[uniform(0, 4)]);
    if (in.bidirectional) in.cost_prev.push_back(costs[uniform(0, 4)]);
  }
  StatedSchedule stated;
  stated.stated = Stated{false, false, {}};
  Schedule& s = stated.schedule;
  s.makespan = -1;  // the brute-force checker's "absent"
  const auto cost = [&](std::int64_t from, Direction d) {
    return d == kNext ? in.cost_next[from] : in.cost_prev[from];
  };
  const auto period_for = [&](double c) {
    switch (uniform(0, 6)) {
      case 0:
      case 1:
      case 2:
        return 0.0;
      case 3:
        return c;
      case 4:
        return c + 0.5;
      case 5:
        return c + 1.0;
      default:
        return c + 2.5;
    }
  };
  // Some starts move 1e-12 earlier: within the allowance (1e-9 of the times >= 1 they move).
  const auto jitter = [&](double start) {
    return start >= 1 && uniform(0, 3) == 0 ? start - 1e-12 : start;
  };
  if (uniform(0, 2) == 0) {
    // Pipeline: 0 pushes k items along the ring; every hop starts near its first arrival.
    const std::int64_t k = uniform(1, 8);
    in.loads[0] += k;
    double first_arrival = 0;
    const std::int64_t hops = uniform(1, n - 1);
    for (std::int64_t h = 0; h < hops; ++h) {
      const double c = cost(h, kNext);
      const double p = period_for(c);
      const double offsets[] = {-1.0, -0.5, 0.0, 0.0, 0.0, 0.5, 1.0, 2.0};
      double start = h == 0 ? 0.0 : std::max(0.0, first_arrival + offsets[uniform(0, 7)]);
      const bool off_by_one = uniform(0, 3) == 0;
      const std::int64_t count = off_by_one ? std::max<std::int64_t>(0, k + uniform(-1, 1)) : k;
      start = jitter(start);
      s.transfers.push_back(run(h, kNext, start, count, p));
      first_arrival = start + c;
    }
  } else {
    std::vector<double> send_free(n, 0.0), receive_free(n, 0.0);
    const std::int64_t runs = uniform(1, 7);
    for (std::int64_t k = 0; k < runs; ++k) {
      const std::int64_t from = uniform(0, n - 1);
      const Direction dir = in.bidirectional && uniform(0, 1) ? kPrev : kNext;
      const std::int64_t to = dir == kNext ? (from + 1) % n : (from + n - 1) % n;
      const double c = cost(from, dir);
      const double p = period_for(c);
      const std::int64_t count = uniform(0, 6);
      double start = uniform(0, 3) > 0
                         ? std::max(send_free[from], receive_free[to]) + 0.5 * uniform(0, 2)
                         : 0.5 * uniform(0, 24);
      if (count > 0) {
        const double end = start + (count - 1) * (p > 0 ? p : c) + c;
        send_free[from] = std::max(send_free[from], end);
        receive_free[to] = std::max(receive_free[to], end);
      }
      start = jitter(start);
      s.transfers.push_back(run(from, dir, start, count, p));
    }
  }
  // Targets: the final loads when they are all >= 0 (so that holding decides), else the loads.
  in.targets = in.loads;
  for (const Run& r : s.transfers) {
    const std::int64_t to = r.dir == kNext ? (r.from + 1) % n : (r.from + n - 1) % n;
    in.targets[r.from] -= r.count;
    in.targets[to] += r.count;
  }
  if (std::any_of(in.targets.begin(), in.targets.end(), [](std::int64_t t) { return t < 0; })) {
    in.targets = in.loads;
  } else if (uniform(0, 9) == 0) {
    const std::int64_t a = uniform(0, n - 1), b = uniform(0, n - 1);
    if (in.targets[a] > 0) {
      --in.targets[a];
      ++in.targets[b];
    }
  }
  // A few broken fields (on a copy of a run) and makespan fields.
  if (!s.transfers.empty() && uniform(0, 19) == 0) {
    Run& r = s.transfers[uniform(0, static_cast<std::int64_t>(s.transfers.size()) - 1)];
    switch (uniform(0, 4)) {
      case 0:
        r.from = n;
        break;
      case 1:
        if (in.bidirectional) {
          stated.stated.unknown_directions = {static_cast<std::size_t>(&r - s.transfers.data())};
        } else {
          r.dir = kPrev;
        }
        break;
      case 2:
        r.start = -0.5;
        break;
      case 3:
        r.count = -1;
        break;
      default:
        r.period = cost(r.from, r.dir) - 0.25;
        break;
    }
  }
  return {in, stated};
}

TEST(ValidateSchedule, AgreesWithAnItemByItemCheckerOnRandomSchedules) {
  std::mt19937_64 rng(0x5eed2024);
  std::vector<int> seen(8, 0);
  constexpr int kCases = 5000;
  for (int t = 0; t < kCases; ++t) {
    Case c = random_case(rng);
    // Some cases carry a makespan field, right or wrong.
    const BruteResult first = brute_force(c.instance, c.schedule);
    if (t % 5 == 1) c.schedule.schedule.makespan = first.makespan;
    if (t % 5 == 2) c.schedule.schedule.makespan = first.makespan + 0.5;
    c.schedule.stated.makespan = t % 5 == 1 || t % 5 == 2;
    const BruteResult expected = brute_force(c.instance, c.schedule);
    const CheckResult got = check(c.instance, c.schedule);
    ASSERT_EQ(name(verdict_of(got)), std::string(name(expected.verdict)))
        << "case " << t << ": " << got.reason;
    if (got.valid) {
      EXPECT_NEAR(got.makespan, expected.makespan, 1e-9 * expected.makespan);
    }
    const Verdict v = expected.verdict;
    if (v == Verdict::field || v == Verdict::port || v == Verdict::holding) {
      const std::string prefix = "transfers[" + std::to_string(expected.run) + "]:";
      ASSERT_TRUE(starts_with(got.reason, prefix))
          << "case " << t << ": " << got.reason << ", expected " << prefix;
    }
    if (v == Verdict::port || v == Verdict::holding) {
      const std::size_t at = got.reason.rfind("at time ");
      ASSERT_NE(at, std::string::npos) << got.reason;
      EXPECT_DOUBLE_EQ(std::stod(got.reason.substr(at + 8)), expected.time) << got.reason;
    }
    ++seen[static_cast<int>(expected.verdict)];
  }
  // The generator exercises every kind of verdict a fair number of times.
  EXPECT_GT(seen[static_cast<int>(Verdict::valid)], kCases / 10);
  EXPECT_GT(seen[static_cast<int>(Verdict::port)], kCases / 20);
  EXPECT_GT(seen[static_cast<int>(Verdict::holding)], kCases / 10);
  EXPECT_GT(seen[static_cast<int>(Verdict::final_load)], kCases / 100);
  EXPECT_GT(seen[static_cast<int>(Verdict::field)], kCases / 100);
  EXPECT_GT(seen[static_cast<int>(Verdict::makespan)], kCases / 100);
}

}  // namespace
}  // namespace redist::ring
