#include "redist/balance/speed_estimate.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <random>
#include <vector>

#include "redist/balance/targets.hpp"
#include "redist/common/error.hpp"

namespace redist::balance {
namespace {

// Multiplicative timing noise in [1 - amplitude, 1 + amplitude], the same sequence for a seed on
// every platform (no std distribution).
class Noise {
 public:
  Noise(std::uint64_t seed, double amplitude) : rng_(seed), amplitude_(amplitude) {}
  double factor() {
    const double u = static_cast<double>(rng_() >> 11) * 0x1p-53;  // [0, 1)
    return 1.0 + amplitude_ * (2.0 * u - 1.0);
  }

 private:
  std::mt19937_64 rng_;
  double amplitude_;
};

// One iteration: processor i processes work[i] items at speed[i], timed with noise.
void step(SpeedEstimator& e, const std::vector<double>& speed, const std::vector<double>& work,
          Noise& noise) {
  std::vector<double> seconds(speed.size());
  for (std::size_t i = 0; i < speed.size(); ++i) seconds[i] = work[i] / speed[i] * noise.factor();
  e.update(work, seconds);
}

double relative_error(double estimate, double truth) { return std::abs(estimate / truth - 1.0); }

TEST(SpeedEstimate, ExactMeasurementsGiveTheLastSpeedBitForBit) {
  SpeedEstimator e(3);
  std::vector<double> speed{10.0, 1.0 / 3.0, 17.3};
  for (int t = 0; t < 40; ++t) {
    if (t == 7) speed[1] = 2.5;
    if (t == 8) speed[1] = 0.7;  // two changes in a row
    if (t == 20) speed = {3.1, 0.9, 40.0};
    if (t == 31) speed[2] = 39.9;  // a small change
    // Counts change with the rebalances, so w / (w / s) differs from s by an ulp now and then.
    const std::vector<double> work{50.0 + t, 13.0 + 3 * (t % 5), 0.5 + 2 * t};
    std::vector<double> seconds(3);
    for (int i = 0; i < 3; ++i) seconds[i] = work[i] / speed[i];
    e.update(work, seconds);
    for (int i = 0; i < 3; ++i) {
      const double measured = work[i] / seconds[i];
      EXPECT_EQ(e.speeds()[i], measured) << "t " << t << " processor " << i;
    }
  }
}

TEST(SpeedEstimate, ExactRepeatedSamplesRaiseNoEvent) {
  SpeedEstimator e(2);
  const std::vector<double> work{6.0, 9.0}, seconds{2.0, 3.0};
  e.update(work, seconds);
  EXPECT_TRUE(e.changed());
  for (int t = 0; t < 10; ++t) {
    e.update(work, seconds);
    EXPECT_FALSE(e.changed());
    EXPECT_EQ(e.speeds(), (std::vector<double>{3.0, 3.0}));
  }
}

TEST(SpeedEstimate, ConvergesUnderNoiseAndTheTargetsStopMoving) {
  const std::vector<double> speed{1.0, 2.0, 3.0, 5.0};
  const std::vector<double> work{100.0, 200.0, 300.0, 500.0};
  for (std::uint64_t seed = 1; seed <= 20; ++seed) {
    SpeedEstimator e(4);
    Noise noise(seed, 0.2);
    std::vector<std::int64_t> targets;
    int target_moves = 0, events = 0;
    for (int t = 0; t < 200; ++t) {
      step(e, speed, work, noise);
      const auto now = balanced_targets(1000, e.speeds());
      if (t >= 100) {
        target_moves += now != targets;
        events += e.changed();
      }
      targets = now;
    }
    EXPECT_EQ(e.changes(), 0) << "seed " << seed;
    // +-20% uniform: the deviation of ln(1 + u) is 0.116 (the estimate assumes normal noise).
    EXPECT_GT(e.noise(), 0.08);
    EXPECT_LT(e.noise(), 0.2);
    EXPECT_LE(events, 2) << "seed " << seed;
    EXPECT_LE(target_moves, 2) << "seed " << seed;
    for (std::size_t i = 0; i < 4; ++i) {
      EXPECT_GE(e.level_samples(i), 195);  // an outlier now and then is held out
      EXPECT_LT(relative_error(e.speeds()[i], speed[i]), 0.04) << "seed " << seed << " i " << i;
    }
  }
}

// The sample of iteration `at` is the first at the new speed; returns the samples it took until
// the estimate followed (a new level, within 25% of the new speed).
int samples_to_follow(std::uint64_t seed, double factor, int at,
                      SpeedEstimateSettings settings = {}) {
  std::vector<double> speed{4.0, 4.0, 4.0, 4.0};
  const std::vector<double> work{40.0, 40.0, 40.0, 40.0};
  SpeedEstimator e(4, settings);
  Noise noise(seed, 0.2);
  for (int t = 0; t < at + 10; ++t) {
    if (t == at) speed[1] *= factor;
    const std::int64_t before = e.changes();
    step(e, speed, work, noise);
    if (t < at) {
      EXPECT_EQ(e.changes(), 0) << "seed " << seed << " t " << t;
      continue;
    }
    if (e.changes() > before && relative_error(e.speeds()[1], speed[1]) < 0.25) return t - at + 1;
  }
  return 1000;
}

TEST(SpeedEstimate, StepChangesAreFollowedWithinTwoSamples) {
  for (std::uint64_t seed = 1; seed <= 40; ++seed) {
    for (double factor : {2.0, 0.5, 3.0, 1.0 / 3.0}) {
      const int took = samples_to_follow(seed, factor, 30);
      EXPECT_GE(took, 1);
      EXPECT_LE(took, 2) << "seed " << seed << " factor " << factor;
    }
    // With a large-deviation rule, very large changes are followed at once.
    const SpeedEstimateSettings large{.large_deviation = 10};
    EXPECT_EQ(samples_to_follow(seed, 8.0, 30, large), 1) << "seed " << seed;
    EXPECT_EQ(samples_to_follow(seed, 1.0 / 8.0, 30, large), 1) << "seed " << seed;
    EXPECT_EQ(samples_to_follow(seed, 8.0, 30), 2) << "seed " << seed;
  }
}

// Timings of a shared machine: quiet (+-3%), but now and then a rank loses part of an iteration
// to another process and measures 2-3x slower, for one iteration.
TEST(SpeedEstimate, OneIterationDropsOfAQuietMachineAreIgnored) {
  for (std::uint64_t seed = 1; seed <= 20; ++seed) {
    for (SpeedEstimateSettings settings : {SpeedEstimateSettings{}, {.large_deviation = 10}}) {
      const std::vector<double> speed{5.0, 5.0, 5.0, 5.0}, work{50.0, 50.0, 50.0, 50.0};
      SpeedEstimator e(4, settings);
      Noise noise(seed, 0.03);
      std::mt19937_64 drops(seed);
      for (int t = 0; t < 100; ++t) {
        std::vector<double> now = speed;
        // One drop every 10 iterations on average, never on two iterations in a row.
        if (t % 2 == 1 && drops() % 5 == 0) now[drops() % 4] /= 2.0 + (drops() % 2);
        step(e, now, work, noise);
      }
      if (std::isinf(settings.large_deviation)) {
        EXPECT_EQ(e.changes(), 0) << "seed " << seed;
        for (double s : e.speeds()) EXPECT_LT(relative_error(s, 5.0), 0.05) << "seed " << seed;
      } else {
        EXPECT_GT(e.changes(), 4) << "seed " << seed;  // each drop there and back
      }
    }
  }
}

TEST(SpeedEstimate, SingleOutliersAreIgnored) {
  for (std::uint64_t seed = 1; seed <= 40; ++seed) {
    for (double factor : {1.8, 0.55, 2.2, 0.45}) {
      std::vector<double> speed{4.0, 4.0, 4.0, 4.0};
      const std::vector<double> work{40.0, 40.0, 40.0, 40.0};
      SpeedEstimator e(4);
      Noise noise(seed, 0.2);
      for (int t = 0; t < 60; ++t) {
        std::vector<double> now = speed;
        if (t == 30) now[2] *= factor;  // one iteration only
        step(e, now, work, noise);
        EXPECT_EQ(e.changes(), 0) << "seed " << seed << " factor " << factor << " t " << t;
        if (t >= 29 && t <= 31) {
          EXPECT_LT(relative_error(e.speeds()[2], 4.0), 0.15) << "seed " << seed << " t " << t;
        }
      }
    }
  }
}

TEST(SpeedEstimate, ZeroWorkCarriesNoSpeed) {
  SpeedEstimator e(3);
  e.update({0.0, 0.0, 0.0}, {0.0, 1.0, 0.0});  // nothing measured yet
  EXPECT_EQ(e.speeds(), (std::vector<double>{0.0, 0.0, 0.0}));
  EXPECT_FALSE(e.changed());
  Noise noise(7, 0.2);
  const std::vector<double> speed{2.0, 5.0, 1.0};
  for (int t = 0; t < 30; ++t) step(e, speed, {20.0, 50.0, 0.0}, noise);
  EXPECT_EQ(e.speeds()[2], 0.0);  // never measured
  const double before = e.speeds()[0];
  // Processor 0 stops working (no items): its estimate stays, its level too.
  for (int t = 0; t < 5; ++t) step(e, speed, {0.0, 50.0, 0.0}, noise);
  EXPECT_EQ(e.speeds()[0], before);
  EXPECT_EQ(e.level_samples(0), 30);
  // An outlier, a sample without work, then normal samples: the outlier is still alone.
  step(e, {2.0 * 2.2, 5.0, 1.0}, {20.0, 50.0, 0.0}, noise);
  step(e, speed, {0.0, 50.0, 0.0}, noise);
  for (int t = 0; t < 3; ++t) step(e, speed, {20.0, 50.0, 10.0}, noise);
  EXPECT_EQ(e.changes(), 0);
  EXPECT_LT(relative_error(e.speeds()[0], 2.0), 0.15);
  EXPECT_GT(e.speeds()[2], 0.0);
}

// The noise estimate, kept incrementally, is the lower median of every processor's last
// kNoiseWindow ratios together, bit for bit: ratios repeated (a timer's resolution), exactly 0,
// tiny, huge, processors skipping iterations, windows not yet full.
TEST(SpeedEstimate, NoiseIsThePooledLowerMedianBitForBit) {
  std::mt19937_64 rng(3);
  std::uniform_real_distribution<double> u(0.0, 1.0);
  for (int trial = 0; trial < 40; ++trial) {
    const std::size_t p = 1 + static_cast<std::size_t>(u(rng) * (trial < 20 ? 8 : 400));
    SpeedEstimator e(p);
    std::vector<double> last(p, 0.0);  // ln of the last sample's speed
    std::vector<char> measured(p, 0);
    std::vector<std::vector<double>> windows(p);
    std::vector<double> speed(p);
    for (std::size_t i = 0; i < p; ++i) speed[i] = std::exp(40.0 * (u(rng) - 0.5));
    for (int t = 0; t < 40; ++t) {
      std::vector<double> work(p), seconds(p);
      for (std::size_t i = 0; i < p; ++i) {
        work[i] = u(rng) < 0.1 ? 0.0 : std::floor(1.0 + 1000.0 * u(rng));
        double factor = 1.0;
        switch (trial % 4) {
          case 1:
            factor = 1.0 + 0.01 * std::floor(4.0 * u(rng));
            break;  // repeated ratios
          case 2:
            factor = 1.0 + 0.3 * (2.0 * u(rng) - 1.0);
            break;
          case 3:
            factor = u(rng) < 0.05 ? 1e-120 : 1.0 + 1e-12 * u(rng);
            break;  // extremes
          default:
            break;  // exact: ratios of 0 and of an ulp
        }
        seconds[i] = work[i] > 0 ? work[i] / speed[i] * factor : u(rng);
        if (work[i] > 0) {
          const double log_x = std::log(work[i]) - std::log(seconds[i]);
          if (measured[i]) {
            windows[i].push_back(std::abs(log_x - last[i]));
            if (windows[i].size() > kNoiseWindow) windows[i].erase(windows[i].begin());
          }
          last[i] = log_x;
          measured[i] = 1;
        }
      }
      e.update(work, seconds);
      std::vector<double> pooled;
      for (const auto& w : windows) pooled.insert(pooled.end(), w.begin(), w.end());
      double expected = 0.0;
      if (!pooled.empty()) {
        std::sort(pooled.begin(), pooled.end());
        const double m = static_cast<double>(pooled.size());
        expected = pooled[(pooled.size() - 1) / 2] / 0.954 * (1.0 + 8.0 / m);
      }
      ASSERT_EQ(e.noise(), expected) << "trial " << trial << " t " << t;
    }
  }
}

TEST(SpeedEstimate, ExtremeMagnitudesStayFinite) {
  for (std::uint64_t seed = 1; seed <= 10; ++seed) {
    std::vector<double> speed{1e-200, 1e200, 1.0};
    // Work 1 at 1e-200 items per second takes 1e200 seconds; 1e200 items at 1e200 take 1.
    const std::vector<double> work{1.0, 1e200, 1e-100};
    SpeedEstimator e(3);
    Noise noise(seed, 0.2);
    for (int t = 0; t < 60; ++t) {
      if (t == 30) speed = {3e-200, 0.25e200, 1.0};
      step(e, speed, work, noise);
      for (std::size_t i = 0; i < 3; ++i) {
        ASSERT_TRUE(std::isfinite(e.speeds()[i]) && e.speeds()[i] > 0) << "t " << t;
        if (t >= 31) {
          EXPECT_LT(relative_error(e.speeds()[i], speed[i]), 0.25) << "t " << t;
        }
      }
    }
    EXPECT_EQ(e.changes(), 2);
  }
  // Exact samples at the ends of the double range.
  SpeedEstimator e(2);
  for (int t = 0; t < 5; ++t) {
    e.update({1e-300, 1e300}, {1e-100, 1e-5});
    EXPECT_EQ(e.speeds(), (std::vector<double>{1e-300 / 1e-100, 1e300 / 1e-5}));
  }
}

TEST(SpeedEstimate, RefusesBadInputWithoutChangingState) {
  SpeedEstimator e(2);
  e.update({4.0, 6.0}, {2.0, 2.0});
  const auto refused = [&](const std::vector<double>& w, const std::vector<double>& s) {
    EXPECT_THROW(e.update(w, s), InputError);
    EXPECT_EQ(e.speeds(), (std::vector<double>{2.0, 3.0}));
  };
  refused({1.0}, {1.0});
  refused({-1.0, 1.0}, {1.0, 1.0});
  refused({1.0, NAN}, {1.0, 1.0});
  refused({1.0, 1.0}, {1.0, -2.0});
  refused({1.0, 1.0}, {1.0, INFINITY});
  refused({1.0, 1.0}, {0.0, 1.0});      // work without time
  refused({1e300, 1.0}, {1e-10, 1.0});  // a speed beyond the double range
  EXPECT_THROW(SpeedEstimator(0), InputError);
  EXPECT_THROW(SpeedEstimator(2, {.threshold = 0}), InputError);
  EXPECT_THROW(SpeedEstimator(2, {.threshold = 4, .large_deviation = 3}), InputError);
  EXPECT_THROW(SpeedEstimator(2, {.large_deviation = NAN}), InputError);
  EXPECT_THROW(SpeedEstimator(2, {.refresh = NAN}), InputError);
  EXPECT_THROW(SpeedEstimator(2, {.floor = 1}), InputError);
}

}  // namespace
}  // namespace redist::balance
