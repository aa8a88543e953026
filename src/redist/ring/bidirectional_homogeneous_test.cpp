// Tests of RRV04 Algorithm 3 (plan_bidirectional_homogeneous).
//
// Every schedule is checked by the independent validator (check) and against the
// Lemma 6 bound (lemma6_bound, plus a brute-force O(n^2) bound of this file). A literal,
// slice-enumerating transcription of Algorithm 3 (reference_rounds below) cross-checks the O(n)
// rule evaluation round by round on small instances.
#include "redist/ring/bidirectional_homogeneous.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <map>
#include <random>
#include <set>
#include <stdexcept>
#include <string>
#include <vector>

#include "redist/common/error.hpp"
#include "redist/ring/bounds.hpp"
#include "redist/ring/flow_executor.hpp"
#include "redist/ring/model.hpp"
#include "redist/ring/validate.hpp"
#include "redist/testing/random_cases.hpp"

namespace redist::ring {
namespace {

using Rng = std::mt19937_64;

Instance make_instance(std::vector<std::int64_t> loads, std::vector<std::int64_t> targets,
                       double cost) {
  Instance in;
  in.bidirectional = true;
  const std::size_t n = loads.size();
  in.loads = std::move(loads);
  in.targets = std::move(targets);
  in.cost_next.assign(n, cost);
  in.cost_prev.assign(n, cost);
  return in;
}

// Targets 3 everywhere, loads 3 + delta: meets the paper's assumptions when every delta >= -2.
Instance from_deltas(const std::vector<std::int64_t>& delta, double cost = 1.0) {
  std::vector<std::int64_t> loads, targets;
  for (std::int64_t d : delta) {
    loads.push_back(3 + d);
    targets.push_back(3);
  }
  return make_instance(loads, targets, cost);
}

std::int64_t ceil_half(std::int64_t x) { return x >= 0 ? (x + 1) / 2 : -((-x + 1) / 2); }

// delta_max of RRV04 Lemma 6 by enumerating every non-trivial slice: O(n^2).
std::int64_t brute_delta_max(const std::vector<std::int64_t>& delta) {
  const std::size_t n = delta.size();
  std::int64_t best = 0;
  for (std::int64_t d : delta) best = std::max(best, std::abs(d));
  for (std::size_t k = 0; k < n; ++k) {
    std::int64_t sum = delta[k];
    for (std::size_t len = 2; len <= n - 1; ++len) {
      sum += delta[(k + len - 1) % n];
      best = std::max(best, std::abs(ceil_half(sum)));
    }
  }
  return best;
}

// Literal transcription of RRV04 Algorithm 3 (Steps 1-30), enumerating all slices. Returns, per
// round, send[i] = 0 (none), 1 (to succ), 2 (to pred); throws on a one-port conflict.
std::vector<std::vector<int>> reference_rounds(std::vector<std::int64_t> delta) {
  const std::size_t n = delta.size();
  auto succ = [n](std::size_t i) { return (i + 1) % n; };
  auto pred = [n](std::size_t i) { return (i + n - 1) % n; };
  std::vector<std::vector<int>> rounds;
  for (std::int64_t dmax = brute_delta_max(delta); dmax > 0; dmax = brute_delta_max(delta)) {
    std::vector<bool> next(n, false), prev(n, false);  // next[i]: i -> succ(i); prev[i]: i -> pred
    for (std::size_t k = 0; k < n; ++k) {
      std::int64_t sum = delta[k];
      for (std::size_t len = 2; len <= n - 1; ++len) {
        const std::size_t l = (k + len - 1) % n;
        sum += delta[l];
        const bool maximal = std::abs(ceil_half(sum)) == dmax;
        if (dmax != 2) {
          if (sum > 1 && maximal) prev[k] = next[l] = true;               // Steps 4-6
          if (sum < -1 && maximal) next[pred(k)] = prev[succ(l)] = true;  // Steps 7-9
        } else {
          if (sum >= 3) next[l] = true;         // Steps 11-12
          if (sum == 4) prev[k] = true;         // Steps 13-14
          if (sum <= -3) next[pred(k)] = true;  // Steps 15-16
          if (sum == -4) prev[succ(l)] = true;  // Steps 17-18
        }
      }
    }
    for (std::size_t i = 0; i < n; ++i) {  // Steps 19-21
      if (delta[i] == dmax && !next[i] && !prev[i]) next[i] = true;
    }
    for (std::size_t i = 0; i < n; ++i) {  // Steps 22-24
      if (delta[i] == -dmax && !next[pred(i)] && !prev[succ(i)]) next[pred(i)] = true;
    }
    if (dmax == 1) {  // Steps 25-30, to a fixed point
      for (bool changed = true; changed;) {
        changed = false;
        for (std::size_t i = 0; i < n; ++i) {
          if (delta[i] != 0) continue;
          if (next[pred(i)] && !next[i]) next[i] = changed = true;
          if (prev[succ(i)] && !prev[i]) prev[i] = changed = true;
        }
      }
    }
    std::vector<int> send(n, 0);
    for (std::size_t i = 0; i < n; ++i) {
      if (next[i] && prev[i]) throw std::logic_error("reference: sends twice");
      if (next[pred(i)] && prev[succ(i)]) throw std::logic_error("reference: receives twice");
      send[i] = next[i] ? 1 : prev[i] ? 2 : 0;
    }
    for (std::size_t i = 0; i < n; ++i) {
      if (send[i] == 1) --delta[i], ++delta[succ(i)];
      if (send[i] == 2) --delta[i], ++delta[pred(i)];
    }
    if (brute_delta_max(delta) != dmax - 1) throw std::logic_error("reference: no decrease");
    rounds.push_back(send);
  }
  return rounds;
}

// The sends of a synchronous schedule, round by round (same encoding as reference_rounds).
std::vector<std::vector<int>> schedule_rounds(const Instance& in, const Schedule& s) {
  const double c = in.cost_next[0];
  const auto rounds = static_cast<std::size_t>(std::llround(s.makespan / c));
  std::vector<std::vector<int>> out(rounds, std::vector<int>(in.size(), 0));
  for (const Run& r : s.transfers) {
    const auto first = static_cast<std::size_t>(std::llround(r.start / c));
    EXPECT_NEAR(r.start, static_cast<double>(first) * c, 1e-9 * c);
    EXPECT_EQ(r.period, 0.0);
    for (std::int64_t j = 0; j < r.count; ++j) {
      auto& cell = out.at(first + static_cast<std::size_t>(j)).at(static_cast<std::size_t>(r.from));
      EXPECT_EQ(cell, 0) << "two runs of one processor in one round";
      cell = r.dir == Direction::next ? 1 : 2;
    }
  }
  return out;
}

bool near(double a, double b) { return std::abs(a - b) <= 1e-9 * std::max(1.0, std::abs(b)); }

// Uniform random composition of `sum` into n parts >= 1 (n - 1 distinct cut points in
// 1..sum-1, Floyd's sampling). Requires sum >= n.
std::vector<std::int64_t> random_positive_composition(std::int64_t sum, std::size_t n, Rng& rng) {
  std::set<std::int64_t> cuts;
  const std::int64_t slots = sum - 1;
  for (std::int64_t j = slots - static_cast<std::int64_t>(n - 1) + 1; j <= slots; ++j) {
    const std::int64_t t = std::uniform_int_distribution<std::int64_t>(1, j)(rng);
    if (!cuts.insert(t).second) cuts.insert(j);
  }
  std::vector<std::int64_t> parts;
  std::int64_t last = 0;
  for (std::int64_t cut : cuts) {
    parts.push_back(cut - last);
    last = cut;
  }
  parts.push_back(sum - last);
  return parts;
}

// Targets = loads after `moves` random single-item moves between processors, each keeping the
// source's target >= min_target: small imbalances, so every delta_max <= 2 pattern is frequent.
std::vector<std::int64_t> perturbed_targets(const std::vector<std::int64_t>& loads, int moves,
                                            std::int64_t min_target, Rng& rng) {
  std::vector<std::int64_t> t = loads;
  std::uniform_int_distribution<std::size_t> pick(0, t.size() - 1);
  for (int m = 0; m < moves; ++m) {
    const std::size_t from = pick(rng), to = pick(rng);
    if (t[from] > min_target) --t[from], ++t[to];
  }
  return t;
}

struct Stats {
  int instances = 0;
  int optimal = 0;
  int rounds = 0;    // Algorithm 3's synchronous rounds kept as they are
  int retimed = 0;   // rounds broke the holding rule; their flows re-timed in as many rounds
  int executor = 0;  // neither: flows scheduled by execute_flows_asap
};

enum class Path { rounds, retimed, executor };

Path path_of(const Schedule& s) {
  if (s.notes.empty()) return Path::rounds;
  return s.notes.front().find("re-timed") != std::string::npos ? Path::retimed : Path::executor;
}

// Plans, validates and compares with the bounds. With expect_optimal (loads and targets >= 1,
// RRV04 Theorem 3) the makespan must equal the Lemma 6 bound.
void check_plan(const Instance& in, Stats& stats, bool expect_optimal) {
  const Schedule s = plan_bidirectional_homogeneous(in);
  ++stats.instances;
  const double c = in.cost_next[0];
  const double bound = static_cast<double>(brute_delta_max(imbalances(in))) * c;
  EXPECT_EQ(s.algorithm, "bidirectional-homogeneous");
  EXPECT_TRUE(near(s.lower_bound.value(), bound)) << s.lower_bound.value() << " vs " << bound;
  EXPECT_TRUE(near(lemma6_bound(in), bound)) << lemma6_bound(in) << " vs " << bound;
  const CheckResult v = check(in, s);
  EXPECT_TRUE(v.valid) << v.reason;
  EXPECT_TRUE(near(v.makespan, s.makespan));
  EXPECT_EQ(s.flows, flows_of_runs(in, s.transfers));
  EXPECT_GE(s.makespan, bound * (1 - 1e-9));
  EXPECT_EQ(s.optimal, near(s.makespan, bound));
  if (s.optimal) ++stats.optimal;
  const Path path = path_of(s);
  if (path == Path::rounds) ++stats.rounds;
  if (path == Path::retimed) ++stats.retimed;
  if (path == Path::executor) ++stats.executor;
  if (path != Path::executor) {
    EXPECT_TRUE(near(s.makespan, bound)) << "rounds or re-timed rounds always meet the bound";
  }
  if (expect_optimal) {
    EXPECT_TRUE(near(s.makespan, bound)) << s.makespan << " vs " << bound;
    EXPECT_TRUE(s.optimal);
    EXPECT_NE(path, Path::executor) << s.notes.front();
  }
}

// (1) RRV04's assumptions (loads, targets >= 1): always valid and exactly on the Lemma 6 bound.
// n uniform in 2..64, loads uniform in 1..1000, cost uniform in [0.1, 10]. Even instances draw the
// targets as a uniform random composition of the total into n parts >= 1 (large imbalances);
// odd instances move 1..3n random single items from the loads (small imbalances, so the
// delta_max = 1, 2 rules run from the first round, with many balanced processors).
TEST(BidirectionalHomogeneous, PaperAssumptionsRandomAlwaysOptimal) {
  Rng rng(20240601);
  Stats stats;
  const int cases = testkit::random_cases(10000);
  for (int t = 0; t < cases; ++t) {
    const auto n = std::uniform_int_distribution<std::size_t>(2, 64)(rng);
    std::vector<std::int64_t> loads(n);
    for (auto& l : loads) l = std::uniform_int_distribution<std::int64_t>(1, 1000)(rng);
    std::vector<std::int64_t> targets;
    if (t % 2 == 0) {
      std::int64_t sum = 0;
      for (auto l : loads) sum += l;
      targets = random_positive_composition(sum, n, rng);
    } else {
      const int moves = std::uniform_int_distribution<int>(1, 3 * static_cast<int>(n))(rng);
      targets = perturbed_targets(loads, moves, 1, rng);
    }
    const double cost = std::uniform_real_distribution<double>(0.1, 10.0)(rng);
    const Instance in = make_instance(loads, targets, cost);
    ASSERT_TRUE(in.meets_paper_assumptions());
    check_plan(in, stats, /*expect_optimal=*/true);
    if (HasFailure()) FAIL() << "first failing instance: " << t;
  }
  EXPECT_EQ(stats.instances, cases);
  EXPECT_EQ(stats.optimal, cases);
  EXPECT_EQ(stats.executor, 0);
  // Both the paper's rounds and their re-timing (holding rule) occur.
  EXPECT_GT(stats.rounds, 0);
  EXPECT_GT(stats.retimed, 0);
  std::printf("paper assumptions: %d instances, %d optimal, %d rounds as is, %d re-timed\n",
              stats.instances, stats.optimal, stats.rounds, stats.retimed);
}

// Small loads (1..3) and targets >= 1: many balanced processors and short chains; still optimal.
TEST(BidirectionalHomogeneous, PaperAssumptionsSmallCountsAlwaysOptimal) {
  Rng rng(7);
  Stats stats;
  for (int t = 0; t < 5000; ++t) {
    const auto n = std::uniform_int_distribution<std::size_t>(2, 16)(rng);
    std::vector<std::int64_t> loads(n);
    for (auto& l : loads) l = std::uniform_int_distribution<std::int64_t>(1, 3)(rng);
    const int moves = std::uniform_int_distribution<int>(0, 2 * static_cast<int>(n))(rng);
    const Instance in = make_instance(loads, perturbed_targets(loads, moves, 1, rng), 1.0);
    check_plan(in, stats, /*expect_optimal=*/true);
    if (HasFailure()) FAIL() << "first failing instance: " << t;
  }
  EXPECT_EQ(stats.optimal, stats.instances);
  EXPECT_EQ(stats.executor, 0);
}

// (2) Loads and targets may be 0 (outside the paper's assumptions): always valid; `optimal` iff
// the makespan equals the bound. Loads: 0 with probability 1/3, else uniform in 0..1000. Targets:
// like (1) (composition of the total, here into parts >= 0: n - 1 cut points drawn with
// repetition) or the loads perturbed by random moves down to 0, each half of the time.
TEST(BidirectionalHomogeneous, ZeroLoadsOrTargetsRandomAlwaysValid) {
  Rng rng(424242);
  Stats stats;
  const int cases = testkit::random_cases(10000);
  for (int t = 0; t < cases; ++t) {
    const auto n = std::uniform_int_distribution<std::size_t>(2, 64)(rng);
    std::vector<std::int64_t> loads(n);
    for (auto& l : loads) {
      l = std::uniform_int_distribution<int>(0, 2)(rng) == 0
              ? 0
              : std::uniform_int_distribution<std::int64_t>(0, 1000)(rng);
    }
    std::int64_t sum = 0;
    for (auto l : loads) sum += l;
    std::vector<std::int64_t> targets;
    if (t % 2 == 0) {
      std::vector<std::int64_t> cuts(n - 1);
      for (auto& cut : cuts) cut = std::uniform_int_distribution<std::int64_t>(0, sum)(rng);
      std::sort(cuts.begin(), cuts.end());
      std::int64_t last = 0;
      for (auto cut : cuts) targets.push_back(cut - last), last = cut;
      targets.push_back(sum - last);
    } else {
      const int moves = std::uniform_int_distribution<int>(1, 3 * static_cast<int>(n))(rng);
      targets = perturbed_targets(loads, moves, 0, rng);
    }
    const double cost = std::uniform_real_distribution<double>(0.1, 10.0)(rng);
    check_plan(make_instance(loads, targets, cost), stats, /*expect_optimal=*/false);
    if (HasFailure()) FAIL() << "first failing instance: " << t;
  }
  EXPECT_EQ(stats.instances, cases);
  // Every path is exercised.
  EXPECT_GT(stats.optimal, cases / 2);
  EXPECT_GT(stats.rounds, 0);
  EXPECT_GT(stats.retimed, 0);
  EXPECT_GT(stats.executor, 0);
  std::printf(
      "zero loads/targets: %d instances, %d optimal, %d rounds as is, %d re-timed, %d executor\n",
      stats.instances, stats.optimal, stats.rounds, stats.retimed, stats.executor);
}

// Small counts with zeros (0..2) on small rings: the holding rule bites often.
TEST(BidirectionalHomogeneous, ZeroLoadsSmallCountsAlwaysValid) {
  Rng rng(99);
  Stats stats;
  for (int t = 0; t < 5000; ++t) {
    const auto n = std::uniform_int_distribution<std::size_t>(2, 12)(rng);
    std::vector<std::int64_t> loads(n);
    for (auto& l : loads) l = std::uniform_int_distribution<std::int64_t>(0, 2)(rng);
    const int moves = std::uniform_int_distribution<int>(0, 3 * static_cast<int>(n))(rng);
    check_plan(make_instance(loads, perturbed_targets(loads, moves, 0, rng), 2.5), stats, false);
    if (HasFailure()) FAIL() << "first failing instance: " << t;
  }
  EXPECT_GT(stats.executor, 0);
  EXPECT_GT(stats.optimal, 0);
}

// Whether the synchronous rounds respect the holding rule: every sender holds an item at the
// start of its round (items received in a round are held from its end).
bool rounds_hold(const Instance& in, const std::vector<std::vector<int>>& rounds) {
  std::vector<std::int64_t> load = in.loads;
  const std::size_t n = in.size();
  for (const auto& send : rounds) {
    for (std::size_t i = 0; i < n; ++i) {
      if (send[i] != 0 && load[i] < 1) return false;
    }
    for (std::size_t i = 0; i < n; ++i) {
      if (send[i] == 0) continue;
      --load[i];
      ++load[send[i] == 1 ? (i + 1) % n : (i + n - 1) % n];
    }
  }
  return true;
}

std::vector<std::int64_t> flows_of_rounds(const std::vector<std::vector<int>>& rounds,
                                          std::size_t n) {
  std::vector<std::int64_t> flows(n, 0);
  for (const auto& send : rounds) {
    for (std::size_t i = 0; i < n; ++i) {
      if (send[i] == 1) ++flows[i];
      if (send[i] == 2) --flows[(i + n - 1) % n];
    }
  }
  return flows;
}

// The O(n) rule evaluation sends exactly what the literal slice-enumerating transcription of
// Algorithm 3 sends, round by round: same flows always, same rounds whenever the rounds respect
// the holding rule (they are then emitted as they are), and a re-timing only when they do not.
TEST(BidirectionalHomogeneous, MatchesLiteralAlgorithmRoundByRound) {
  Rng rng(31337);
  int compared_rounds = 0;
  int broken = 0;
  for (int t = 0; t < 6000; ++t) {
    const auto n = std::uniform_int_distribution<std::size_t>(2, 14)(rng);
    std::vector<std::int64_t> loads(n);
    const std::int64_t top = t % 3 == 0 ? 3 : 40;
    for (auto& l : loads) l = std::uniform_int_distribution<std::int64_t>(1, top)(rng);
    const int moves = std::uniform_int_distribution<int>(0, 6 * static_cast<int>(n))(rng);
    const Instance in = make_instance(loads, perturbed_targets(loads, moves, 1, rng), 1.0);
    const Schedule s = plan_bidirectional_homogeneous(in);
    const auto expected = reference_rounds(imbalances(in));
    ASSERT_EQ(s.flows, flows_of_rounds(expected, n)) << "instance " << t;
    ASSERT_DOUBLE_EQ(s.makespan, static_cast<double>(expected.size()));
    if (rounds_hold(in, expected)) {
      ASSERT_EQ(path_of(s), Path::rounds) << "instance " << t;
      ASSERT_EQ(schedule_rounds(in, s), expected) << "instance " << t;
      compared_rounds += static_cast<int>(expected.size());
    } else {
      ASSERT_EQ(path_of(s), Path::retimed) << "instance " << t;
      ++broken;
    }
  }
  EXPECT_GT(compared_rounds, 10000);
  EXPECT_GT(broken, 0);
}

// --- (3) hand-made instances -------------------------------------------------------------------

// Round-1 sends as {processor: 'n' or 'p'}.
std::map<std::size_t, char> first_round(const Instance& in, const Schedule& s) {
  std::map<std::size_t, char> out;
  const auto rounds = schedule_rounds(in, s);
  if (rounds.empty()) return out;
  for (std::size_t i = 0; i < in.size(); ++i) {
    if (rounds[0][i] != 0) out[i] = rounds[0][i] == 1 ? 'n' : 'p';
  }
  return out;
}

void expect_valid_optimal_any_path(const Instance& in, const Schedule& s, std::int64_t rounds) {
  const CheckResult v = check(in, s);
  EXPECT_TRUE(v.valid) << v.reason;
  const double c = in.cost_next[0];
  EXPECT_DOUBLE_EQ(s.makespan, static_cast<double>(rounds) * c);
  EXPECT_DOUBLE_EQ(s.lower_bound.value(), static_cast<double>(rounds) * c);
  EXPECT_DOUBLE_EQ(lemma6_bound(in), static_cast<double>(rounds) * c);
  EXPECT_EQ(s.optimal, true);
}

// Valid, optimal, and Algorithm 3's rounds emitted as they are.
void expect_valid_and_optimal(const Instance& in, const Schedule& s, std::int64_t rounds) {
  expect_valid_optimal_any_path(in, s, rounds);
  EXPECT_TRUE(s.notes.empty());
}

// RRV04 Figure 4 (Lemma 7, case 1(a)iii): positive maximal slices C_{0,1} = 2+1 = 3 and
// C_{3,4} = 1+2 = 3 around P_2 = -2, so C_{0,4} = 4. The general rules would make P_1 and P_3
// both send to P_2. Steps 11-14: right ends of the slices >= 3 send forward (P_1 -> P_2,
// P_4 -> P_5); the left end of the slice of 4 sends backward (P_0 -> P_6).
TEST(BidirectionalHomogeneous, Figure4TwoPositiveSlicesAroundMinusTwo) {
  const Instance in = from_deltas({2, 1, -2, 1, 2, -2, -2}, 0.5);
  const Schedule s = plan_bidirectional_homogeneous(in);
  expect_valid_and_optimal(in, s, 2);
  const std::map<std::size_t, char> expected{{0, 'p'}, {1, 'n'}, {4, 'n'}};
  EXPECT_EQ(first_round(in, s), expected);
}

// RRV04 Figure 5 (case 1(b)ii): negative maximal slices C_{0,1} = -3 and C_{1,2} = -3 sharing
// P_1 = -2, C_{0,2} = -4. The general rules would make P_0 and P_2 both send to P_1. Steps 15-18:
// left ends of the slices <= -3 receive from their left (P_4 -> P_0, P_0 -> P_1), the right end
// of the slice of -4 from its right (P_3 -> P_2).
TEST(BidirectionalHomogeneous, Figure5TwoNegativeSlicesSharingMinusTwo) {
  const Instance in = from_deltas({-1, -2, -1, 2, 2}, 3.0);
  const Schedule s = plan_bidirectional_homogeneous(in);
  expect_valid_and_optimal(in, s, 2);
  const std::map<std::size_t, char> expected{{0, 'n'}, {3, 'p'}, {4, 'n'}};
  EXPECT_EQ(first_round(in, s), expected);
}

// RRV04 Figure 8 (case 1(c)iB): the negative slice C_{0,4} = -3 contains the positive slice
// C_{2,3} = 3, with P_4 = -2 and C_{0,1} = -4. The general rules would make P_3 (right end of
// C_{2,3}) and P_5 (right neighbour of C_{0,4}) both send to P_4. Special rules: C_{0,4} inputs
// only through its left end (P_6 -> P_0), C_{2,3} outputs only through its right end
// (P_3 -> P_4), and P_2 sends to P_1 because C_{0,1} = -4 (Step 18).
TEST(BidirectionalHomogeneous, Figure8PositiveSliceInsideNegativeSlice) {
  const Instance in = from_deltas({-2, -2, 2, 1, -2, 2, 1});
  const Schedule s = plan_bidirectional_homogeneous(in);
  expect_valid_and_optimal(in, s, 2);
  const auto round1 = first_round(in, s);
  EXPECT_EQ(round1.at(6), 'n');
  EXPECT_EQ(round1.at(3), 'n');
  EXPECT_EQ(round1.at(2), 'p');
  EXPECT_FALSE(round1.contains(5) && round1.at(5) == 'p');  // P_5 does not also feed P_4
  EXPECT_EQ(round1, (std::map<std::size_t, char>{{2, 'p'}, {3, 'n'}, {5, 'n'}, {6, 'n'}}));
}

TEST(BidirectionalHomogeneous, TwoProcessors) {
  const Instance in = make_instance({7, 1}, {3, 5}, 1.5);
  const Schedule s = plan_bidirectional_homogeneous(in);
  expect_valid_and_optimal(in, s, 4);
  ASSERT_EQ(s.transfers.size(), 1u);  // four rounds merged into one run
  EXPECT_EQ(s.transfers[0].from, 0);
  EXPECT_EQ(s.transfers[0].dir, Direction::next);
  EXPECT_EQ(s.transfers[0].count, 4);
  EXPECT_EQ(s.flows, (std::vector<std::int64_t>{4, 0}));
}

TEST(BidirectionalHomogeneous, AlreadyBalanced) {
  const Instance in = make_instance({4, 0, 9}, {4, 0, 9}, 2.0);
  const Schedule s = plan_bidirectional_homogeneous(in);
  EXPECT_TRUE(s.transfers.empty());
  EXPECT_EQ(s.makespan, 0.0);
  EXPECT_EQ(s.lower_bound, 0.0);
  EXPECT_EQ(s.optimal, true);
  EXPECT_EQ(s.flows, (std::vector<std::int64_t>{0, 0, 0}));
  EXPECT_TRUE(check(in, s).valid);
}

// One processor holds everything: it sends one item per round, delta_0 = 49 rounds in all,
// while its slices (at most 49 - 7 = 42, ceil 21) are not the bottleneck.
TEST(BidirectionalHomogeneous, OneHeavyProcessor) {
  const Instance in = make_instance({57, 1, 1, 1, 1, 1, 1, 1}, {8, 8, 8, 8, 8, 8, 8, 8}, 1.0);
  const Schedule s = plan_bidirectional_homogeneous(in);
  expect_valid_and_optimal(in, s, 49);
  std::int64_t sent_by_0 = 0;
  for (const redist::ring::Run& r : s.transfers) {
    if (r.from == 0) sent_by_0 += r.count;
  }
  EXPECT_EQ(sent_by_0, 49);
  EXPECT_EQ(s.flows[0] - s.flows[7], 49);  // net out of processor 0
}

// A processor holding nothing that must forward: the rounds ask it to send in round 1, so the
// planner falls back to the flow executor and says so; the result is still valid.
TEST(BidirectionalHomogeneous, ZeroLoadForwarderFallsBack) {
  const Instance in = make_instance({2, 0, 0}, {0, 0, 2}, 1.0);
  const Schedule s = plan_bidirectional_homogeneous(in);
  EXPECT_TRUE(check(in, s).valid);
  EXPECT_EQ(s.lower_bound, 2.0);
  EXPECT_GE(s.makespan, 2.0);
  EXPECT_EQ(s.optimal, s.makespan == 2.0);
}

// The smallest instances (exhaustive search: n <= 6, counts <= 5) where Algorithm 3's rounds
// break the holding rule although loads and targets are >= 1. delta = (0, 0, -3, 3):
// round 1: P_3 -> P_0 (Step 21) and P_1 -> P_2 (Step 24: P_2 = -3 pulls from its predecessor),
// leaving P_1 with no item; round 2 (delta_max = 2): P_2 = -2 again pulls from P_1 (Step 24),
// which receives its next item from P_0 only during that round. The flows of the rounds,
// re-timed, still take the 3 rounds of the bound.
TEST(BidirectionalHomogeneous, HoldingRuleBrokenByPaperRoundsIsRepaired) {
  const Instance in = make_instance({1, 1, 1, 4}, {1, 1, 4, 1}, 1.0);
  const auto paper = reference_rounds(imbalances(in));
  ASSERT_EQ(paper.size(), 3u);
  EXPECT_FALSE(rounds_hold(in, paper));
  EXPECT_EQ(paper[0], (std::vector<int>{0, 1, 0, 1}));
  EXPECT_EQ(paper[1][1], 1);  // P_1 sends in round 2 holding nothing
  const Schedule s = plan_bidirectional_homogeneous(in);
  EXPECT_EQ(path_of(s), Path::retimed);
  expect_valid_optimal_any_path(in, s, 3);
  EXPECT_EQ(s.flows, flows_of_rounds(paper, 4));
}

// Here the generic flow executor on the same flows would need 4 rounds (found by exhaustive
// search over n <= 6, counts <= 5: the smallest such case); the re-timing needs the bound, 3.
TEST(BidirectionalHomogeneous, RetimingBeatsGenericExecutor) {
  const Instance in = make_instance({1, 2, 3, 1, 1, 4}, {4, 1, 1, 1, 4, 1}, 1.0);
  const Schedule s = plan_bidirectional_homogeneous(in);
  EXPECT_EQ(path_of(s), Path::retimed);
  expect_valid_optimal_any_path(in, s, 3);
  const std::vector<redist::ring::Run> asap = execute_flows_asap(in, s.flows);
  EXPECT_DOUBLE_EQ(schedule_makespan(in, asap), 4.0);
}

TEST(BidirectionalHomogeneous, RejectsUnidirectionalAndHeterogeneousRings) {
  Instance uni = make_instance({2, 0}, {1, 1}, 1.0);
  uni.bidirectional = false;
  uni.cost_prev.clear();
  try {
    plan_bidirectional_homogeneous(uni);
    FAIL() << "accepted a unidirectional ring";
  } catch (const InputError& e) {
    EXPECT_EQ(e.path(), "algorithm");
  }
  Instance het = make_instance({2, 0, 1}, {1, 1, 1}, 1.0);
  het.cost_prev[2] = 2.0;
  try {
    plan_bidirectional_homogeneous(het);
    FAIL() << "accepted a heterogeneous ring";
  } catch (const InputError& e) {
    EXPECT_EQ(e.path(), "algorithm");
  }
}

TEST(BidirectionalHomogeneous, RefusesHugeCountsQuickly) {
  const Instance in =
      make_instance({4'000'000'000'000LL, 0, 0, 0}, {0, 0, 0, 4'000'000'000'000LL}, 1.0);
  try {
    plan_bidirectional_homogeneous(in);
    FAIL() << "accepted 10^12 rounds";
  } catch (const InputError& e) {
    EXPECT_EQ(e.path(), "loads");
  }
}

// --- (4) O(n) extremity detection against brute force -------------------------------------------

TEST(BidirectionalHomogeneous, SliceExtremesMatchBruteForce) {
  Rng rng(5);
  int checked = 0;
  for (int t = 0; t < 20000; ++t) {
    const auto n = std::uniform_int_distribution<std::size_t>(2, 12)(rng);
    const std::int64_t span = t % 2 == 0 ? 2 : 6;  // small values: many ties among prefixes
    std::vector<std::int64_t> delta(n);
    for (auto& d : delta) d = std::uniform_int_distribution<std::int64_t>(-span, span)(rng);
    std::int64_t sum = 0;
    for (auto d : delta) sum += d;
    delta[std::uniform_int_distribution<std::size_t>(0, n - 1)(rng)] -= sum;  // total 0
    std::vector<std::int64_t> prefix(n);
    sum = 0;
    for (std::size_t i = 0; i < n; ++i) prefix[i] = sum += delta[i];
    const detail::SliceExtremes ext(prefix);
    using X = detail::SliceExtremes;
    std::vector<std::int64_t> max_end(n, X::kNoMax), min_end(n, X::kNoMin);
    std::vector<std::int64_t> max_start(n, X::kNoMax), min_start(n, X::kNoMin);
    std::int64_t max_all = X::kNoMax, min_all = X::kNoMin;
    for (std::size_t k = 0; k < n; ++k) {
      std::int64_t s = delta[k];
      for (std::size_t len = 2; len <= n - 1; ++len) {
        const std::size_t l = (k + len - 1) % n;
        s += delta[l];
        max_end[l] = std::max(max_end[l], s);
        min_end[l] = std::min(min_end[l], s);
        max_start[k] = std::max(max_start[k], s);
        min_start[k] = std::min(min_start[k], s);
        max_all = std::max(max_all, s);
        min_all = std::min(min_all, s);
      }
    }
    for (std::size_t i = 0; i < n; ++i) {
      ASSERT_EQ(ext.max_ending_at(i), max_end[i]) << "t=" << t << " i=" << i;
      ASSERT_EQ(ext.min_ending_at(i), min_end[i]) << "t=" << t << " i=" << i;
      ASSERT_EQ(ext.max_starting_at(i), max_start[i]) << "t=" << t << " i=" << i;
      ASSERT_EQ(ext.min_starting_at(i), min_start[i]) << "t=" << t << " i=" << i;
      ++checked;
    }
    ASSERT_EQ(ext.max_slice(), max_all);
    ASSERT_EQ(ext.min_slice(), min_all);
  }
  EXPECT_GT(checked, 100000);
}

}  // namespace
}  // namespace redist::ring
