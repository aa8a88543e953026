#include "redist/star/mbbsa.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <optional>
#include <random>
#include <vector>

#include <gtest/gtest.h>

#include "redist/star/exact.hpp"
#include "redist/star/moore.hpp"
#include "redist/star/random_instances.hpp"
#include "redist/star/validate.hpp"
#include "redist/testing/random_cases.hpp"
#include "redist/testing/star_checks.hpp"

namespace redist::star {
namespace {

using testkit::expect_valid_star;

TEST(StarMoore, TextbookExample) {
  // Processing 2, 3, 1, 4 with deadlines 2, 4, 5, 7 (sorted): the second job is late (2 + 3 > 4)
  // and is dropped, the other three finish at 2, 3 and 7, all on time.
  const std::vector<MooreJob> jobs{{2, 2}, {3, 4}, {1, 5}, {4, 7}};
  const auto on_time = moore_hodgson(jobs, 0);
  EXPECT_EQ(on_time.size(), 3u);
  double t = 0;
  for (std::size_t k : on_time) {
    t += jobs[k].processing;
    EXPECT_LE(t, jobs[k].deadline);
  }
  // Brute force over subsets.
  std::size_t best = 0;
  for (unsigned mask = 0; mask < 16; ++mask) {
    double time = 0;
    bool ok = true;
    std::size_t count = 0;
    for (std::size_t k = 0; k < 4; ++k) {
      if (!(mask >> k & 1)) continue;
      time += jobs[k].processing;
      ok = ok && time <= jobs[k].deadline;
      ++count;
    }
    if (ok) best = std::max(best, count);
  }
  EXPECT_EQ(on_time.size(), best);
}

TEST(StarMbbsa, TraceOfSection42) {
  const Instance in{{2, 2, 2, 2}, {3, 3, 4, 4}, {8, 1, 1, 0}};
  const Schedule s = plan_mbbsa(in);
  expect_valid_star(in, s);
  EXPECT_DOUBLE_EQ(s.makespan, 13);
  EXPECT_TRUE(s.optimal);
  EXPECT_FALSE(mbbsa_decide(in, 12.999).has_value());
  EXPECT_TRUE(mbbsa_decide(in, 13).has_value());
  EXPECT_FALSE(mbbsa_decide(in, 13, /*strict=*/true).has_value());
}

TEST(StarMbbsa, EqualsExactOnHomogeneousLinks) {
  std::mt19937_64 rng(3);
  for (int trial = 0; trial < 3000; ++trial) {
    Instance in = random_instance(rng, {true, false, Range::general}, {1, 6, 0, 14});
    in.c.assign(in.workers(), 1 + static_cast<double>(rng() % 6));
    for (double& w : in.w) w = 1 + static_cast<double>(rng() % 9);
    const Schedule s = plan_mbbsa(in);
    expect_valid_star(in, s);
    const Schedule e = plan_exact(in);
    ASSERT_DOUBLE_EQ(s.makespan, e.makespan) << "trial " << trial;
    EXPECT_TRUE(s.optimal) << "trial " << trial;
    // Theorem 3: the decision is exactly "a schedule of makespan <= M exists".
    EXPECT_TRUE(mbbsa_decide(in, e.makespan).has_value());
    if (e.makespan > 0) {
      EXPECT_FALSE(mbbsa_decide(in, e.makespan, true).has_value());
    }
  }
}

TEST(StarMbbsa, ValidOnRandomPlatforms) {
  std::mt19937_64 rng(4);
  for (int trial = 0; trial < 2000; ++trial) {
    const PlatformType type{trial % 2 == 0, trial % 3 == 0, static_cast<Range>(trial % 3)};
    const Instance in = random_instance(rng, type, {1, 12, 0, 300});
    const Schedule s = plan_mbbsa(in);
    expect_valid_star(in, s);
    EXPECT_LE(s.makespan, no_transfer_schedule(in, "").makespan);
  }
}

TEST(StarMbbsa, EdgeCases) {
  for (const Instance& in : {Instance{{1}, {1}, {5}}, Instance{{1, 1}, {1, 1}, {0, 0}},
                             Instance{{1, 1}, {1, 1}, {3, 3}}, Instance{{2, 2}, {1, 1}, {1, 0}}}) {
    const Schedule s = plan_mbbsa(in);
    expect_valid_star(in, s);
    EXPECT_TRUE(s.transfers.empty());
    EXPECT_TRUE(s.optimal);
  }
  // Non-integral times: still valid, and on homogeneous links still equal to exact.
  const Instance in{{0.3, 0.3, 0.3}, {0.7, 1.1, 0.9}, {9, 0, 2}};
  const Schedule s = plan_mbbsa(in);
  expect_valid_star(in, s);
  EXPECT_NEAR(s.makespan, plan_exact(in).makespan, 1e-9);
}

TEST(StarMbbsa, LargeCountsAreFast) {
  // A million tasks (an eighth of them under the sanitizers, where a million took 18 s).
  const std::int64_t tasks = 4 * testkit::random_cases(250000);
  Instance in;
  for (int i = 0; i < 100; ++i) {
    in.c.push_back(3);
    in.w.push_back(1 + i % 7);
    in.loads.push_back(i == 0 ? tasks : 0);
  }
  const Schedule s = plan_mbbsa(in);
  expect_valid_star(in, s);
  EXPECT_TRUE(s.optimal);
  // Worker 0 computes one task per unit, the master forwards one per 3 units at most.
  EXPECT_GE(s.makespan, static_cast<double>(tasks) / (1 + 1.0 / 3));
  EXPECT_LE(s.makespan, static_cast<double>(tasks) / (1 + 1.0 / 3) + 10);
}

// ---------------------------------------------------------------------------------------------
// Algorithm 3 (STAR §3.4.3) transcribed plainly from the paper, independently of mbbsa.cpp and
// moore_phase.cpp: every deadline in one list D, sorted once, Moore's loop over all of it with a
// linear search for the reception to remove, then the first L_send receptions of sigma.
// Returns the receiver of each forwarded task, or nothing when M fails.
std::optional<std::vector<std::size_t>> algorithm3(const Instance& in, double M) {
  const std::size_t m = in.workers();
  // Phase 1: f_i, receivers R (f < M) and senders S (f > M) by non-decreasing c.
  std::vector<double> f(m);
  std::vector<std::size_t> S, R;
  for (std::size_t i = 0; i < m; ++i) {
    f[i] = static_cast<double>(in.loads[i]) * in.w[i];
    if (f[i] > M) S.push_back(i);
    if (f[i] < M) R.push_back(i);
  }
  std::stable_sort(S.begin(), S.end(),
                   [&](std::size_t a, std::size_t b) { return in.c[a] < in.c[b]; });
  // Phase 2: l_s = ceil((f_s - M) / w_s); M is too small when floor(M / c_s) < l_s.
  std::int64_t L_send = 0;
  for (std::size_t s : S) {
    const double l = std::ceil((f[s] - M) / in.w[s]);
    if (std::floor(M / in.c[s]) < l) return std::nullopt;
    L_send += static_cast<std::int64_t>(l);
  }
  if (L_send == 0) return std::vector<std::size_t>{};
  // Phase 3: receiver r's deadlines M - l w_r while f_r <= M - (l + 1) w_r.
  std::vector<std::pair<double, std::size_t>> D;
  for (std::size_t r : R) {
    for (double l = 0; f[r] <= M - (l + 1) * in.w[r];) {
      l = l + 1;
      D.emplace_back(M - l * in.w[r], r);
    }
  }
  // Phase 4: D by non-decreasing deadline (stable: ties by receiver index); Moore's algorithm from
  // t = c_{s1}; a late reception removes the reception of largest c in sigma (the last added
  // among equal c).
  std::stable_sort(D.begin(), D.end(),
                   [](const auto& a, const auto& b) { return a.first < b.first; });
  std::vector<std::size_t> sigma;  // receivers, in the order their deadlines were added
  double t = in.c[S.front()];
  for (const auto& [d, r] : D) {
    sigma.push_back(r);
    t = t + in.c[r];
    if (t > d) {
      std::size_t largest = 0;
      for (std::size_t j = 0; j < sigma.size(); ++j) {
        if (in.c[sigma[j]] >= in.c[sigma[largest]]) largest = j;
      }
      t = t - in.c[sigma[largest]];
      sigma.erase(sigma.begin() + static_cast<std::ptrdiff_t>(largest));
    }
  }
  if (static_cast<std::int64_t>(sigma.size()) < L_send) return std::nullopt;
  sigma.resize(static_cast<std::size_t>(L_send));
  return sigma;
}

// The schedule forwarding, in the normal form of Theorem 1, the k-th task to reach the master to
// receivers[k]: senders in non-decreasing c send back to back their l_s = ceil((f_s - M) / w_s).
Schedule algorithm3_schedule(const Instance& in, double M, const std::vector<std::size_t>& to) {
  std::vector<std::size_t> S;
  for (std::size_t i = 0; i < in.workers(); ++i) {
    if (static_cast<double>(in.loads[i]) * in.w[i] > M) S.push_back(i);
  }
  std::stable_sort(S.begin(), S.end(),
                   [&](std::size_t a, std::size_t b) { return in.c[a] < in.c[b]; });
  Schedule s;
  double master_in = 0, master_out = 0;
  std::size_t k = 0;
  for (std::size_t sender : S) {
    const double f = static_cast<double>(in.loads[sender]) * in.w[sender];
    for (double l = std::ceil((f - M) / in.w[sender]); l > 0; l = l - 1) {
      s.transfers.push_back(relay_task(in.c, sender, to.at(k++), master_in, master_out));
    }
  }
  EXPECT_EQ(k, to.size());
  finish_times(in, s);
  return s;
}

// MBBSA's search (mbbsa.hpp) around the transcription: bisection over M in [0, no-transfer
// makespan] to a relative width of 1e-9, keeping the least real makespan of the schedules built.
double algorithm3_search(const Instance& in) {
  double best = no_transfer_schedule(in, "").makespan;
  double lo = 0, hi = best;
  for (int iteration = 0; iteration < 200 && hi - lo > 1e-9 * hi; ++iteration) {
    const double mid = lo + (hi - lo) / 2;
    if (const auto to = algorithm3(in, mid)) {
      best = std::min(best, algorithm3_schedule(in, mid, *to).makespan);
      hi = mid;
    } else {
      lo = mid;
    }
  }
  return best;
}

TEST(StarMbbsa, ReceiversAreAlgorithm3s) {
  // The STAR §4.1 platforms of `redist experiment star`, every type and range in turn: the same
  // decision and receivers as the transcription at integer, half-integer and random targets, and
  // the same makespan from the whole search.
  std::mt19937_64 rng(6005);
  int heterogeneous = 0, differs_from_lazy = 0;
  const int trials = testkit::random_cases(2400);  // a multiple of 12: every type as often
  for (int trial = 0; trial < trials; ++trial) {
    const PlatformType type{(trial / 3) % 2 == 0, (trial / 6) % 2 == 0,
                            static_cast<Range>(trial % 3)};
    const Instance in = random_instance(rng, type);
    const double none = no_transfer_schedule(in, "").makespan;
    std::uniform_real_distribution<double> target(0, none);
    for (int k = 0; k < 12; ++k) {
      const double M = k < 4   ? std::round(target(rng))
                       : k < 8 ? std::round(target(rng)) + 0.5
                               : target(rng);
      const auto expected = algorithm3(in, M);
      const auto got = mbbsa_receivers(in, M);
      ASSERT_EQ(got.has_value(), expected.has_value()) << "trial " << trial << " M " << M;
      if (got) {
        ASSERT_EQ(*got, *expected) << "trial " << trial << " M " << M;
      }
      // The lazy variant takes the same decisions.
      ASSERT_EQ(mbbsa_receivers(in, M, false, MooreStep::lazy).has_value(), got.has_value());
    }
    const Schedule s = plan_mbbsa(in);
    expect_valid_star(in, s);
    EXPECT_EQ(s.algorithm, "mbbsa");
    ASSERT_EQ(s.makespan, algorithm3_search(in)) << "trial " << trial;
    const Schedule lazy = plan_mbbsa_lazy(in);
    expect_valid_star(in, lazy);
    EXPECT_EQ(lazy.algorithm, "mbbsa-lazy");
    if (!type.homogeneous_links) {
      ++heterogeneous;
      differs_from_lazy += lazy.makespan != s.makespan;
    } else {
      EXPECT_EQ(lazy.makespan, s.makespan) << "trial " << trial;  // both optimal (Theorem 3)
    }
  }
  EXPECT_EQ(heterogeneous, trials / 2);
  EXPECT_GT(differs_from_lazy, 0);  // the lazy variant is another heuristic
}

TEST(StarMbbsa, ScansEveryDeadline) {
  // The lazy scan sends one of worker 2's tasks over worker 0's slow link (c = 80) and ends at 220;
  // Algorithm 3 scans every deadline and sends all three to worker 1 (c = 11): 185, the optimum.
  const Instance in{{80, 11, 42, 55}, {44, 44, 44, 44}, {1, 0, 7, 2}};
  const Schedule s = plan_mbbsa(in);
  expect_valid_star(in, s);
  EXPECT_DOUBLE_EQ(s.makespan, 185);
  EXPECT_DOUBLE_EQ(algorithm3_search(in), 185);
  const Schedule lazy = plan_mbbsa_lazy(in);
  expect_valid_star(in, lazy);
  EXPECT_DOUBLE_EQ(lazy.makespan, 220);
}

TEST(SlowPath, MbbsaHeterogeneousLinksWork) {
  // Heterogeneous links, 200 workers, 10^5 tasks: Algorithm 3 scans every deadline of every
  // receiver at each decision; the lazy variant stops once L_send are on time (here after about a
  // quarter of the deadlines it keeps).
  std::mt19937_64 rng(2006);
  const Instance in =
      random_instance(rng, {false, false, Range::general}, {200, 200, 100000, 100000});
  MbbsaWork paper, lazy;
  const Schedule s = plan_mbbsa(in, &paper);
  expect_valid_star(in, s);
  ASSERT_GT(paper.decisions, 10);
  EXPECT_EQ(paper.deadlines_scanned, paper.deadlines_available);
  const Schedule l = plan_mbbsa_lazy(in, &lazy);
  expect_valid_star(in, l);
  ASSERT_GT(lazy.decisions, 10);
  EXPECT_LT(lazy.deadlines_scanned * 3, lazy.deadlines_available)
      << lazy.deadlines_scanned << " of " << lazy.deadlines_available;
}

}  // namespace
}  // namespace redist::star
