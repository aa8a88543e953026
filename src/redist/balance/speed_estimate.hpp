// Speed estimates from noisy timings (ours): what the MPI Rebalancer feeds its policy instead of
// the speeds of the last iteration alone.
//
// Each iteration processor i reports a sample: work w (items processed) in t seconds, of speed
// x = w / t. Measured times are noisy (other processes, caches, the OS), so x jumps between
// iterations although the processor's speed s_i did not change; a policy fed raw samples sees a
// gain T - T_bal that is only noise and rebalances after almost every iteration.
//
// Model. s_i is piecewise constant: it stays on a *level* until it changes for good (a node
// slowed down, a co-scheduled job); samples are s_i times a multiplicative noise. The estimator
// keeps, per processor, the samples of its current level and estimates the level's speed as
// their total work over their total time, W / T. All deviations are measured on the logarithm of
// speed (ln(x / level)), so a 2x speed-up and a 2x slowdown weigh the same.
//
// Noise. sigma, the relative noise, is taken to be a property of the machine, the same for every
// processor. It is learnt from the ratios of consecutive samples of each processor,
// |ln(x_k / x_{k-1})|, which a level change affects only once: the lower median of the last
// kNoiseWindow ratios of every processor together, over 0.954 (the median of |X - Y| for X, Y
// normal of deviation sigma is 0.954 sigma), widened by (1 + 8 / m) when it rests on m ratios
// only (a median of few ratios can be far too small).
//
// Rule. With n samples in the level and d = ln(x / level) for a new sample x:
//  - x and the sample before it (since the level began) deviate the same way, each by more than
//    Z sigma sqrt(1/2 + 1/n) (Z = threshold): a change, confirmed by two consecutive samples; the
//    new level holds both if the earlier one had been held out, else x alone;
//  - |d| > Z sigma sqrt(1 + 1/n): x is held out of the level (a single outlier is ignored, unless
//    the next sample confirms it);
//  - else x joins the level.
// The sqrt terms are the deviations of a sample, and of the mean of two, from a level of n
// samples, in units of sigma: under noise alone two such deviations in a row are a Z-sigma event
// for their mean. Optionally (L = large_deviation, off by default, see below), |d| above
// L sigma sqrt(1 + 1/n) starts a new level at x alone, once sigma rests on 8 ratios or more.
// Every threshold is at least `floor`: a relative deviation below it is rounding, never a change.
//
// Published estimates (speeds()). A level's estimate moves by sigma / n per sample: fed every
// iteration, it would still move the balanced targets by an item now and then. So the estimates
// published change only at *events*: a processor starts a new level, or the estimate of some
// level has moved from its published value by more than R sigma / sqrt(n) (R = refresh: the
// published value left the level's confidence interval). At an event every published value is
// brought up to date at once, so that one redistribution catches up with all of them; between
// events speeds() does not change and the targets stay put. A level of n samples is thus
// republished about when n grows by a factor (1 + R^2): O(log n) times.
//
// Exactness. When no noise is measured (Z sigma <= floor: every ratio that the median sees is 1
// up to rounding), every deviation above the floor is a change and the estimate of processor i is
// its last sample, bit for bit; values within the floor of each other do not trigger events
// (the estimate still follows the last sample). So with exact measurements of speeds that change
// at no more than half of the samples in the noise window (the median then sees only ratios of 1)
// the estimates are the measured speeds and the Rebalancer decides exactly as the model simulator.
//
// Guarantees. Say every sample is within a factor e^a of its speed, and a level's estimate, a
// weighted mean of its samples, within e^e of it (e <= a, about a / sqrt(n) in practice). Then
// with t = Z sigma sqrt(1/2 + 1/n): if a + e < t, noise alone never starts a level; and a change
// by a factor c with |ln c| > a + e + t + (|ln c| + a) / (n + 1) is followed after two samples
// (the last term: the first new sample may join the level and move it). Under +-20% uniform
// noise (a = 0.22, sigma estimated at 0.12-0.16, so t is 0.3-0.4 on long levels), changes of 2x
// or more are followed after two samples and noise alone starts no level. A constant speed
// measured with noise gives published estimates within R sigma / sqrt(n) of the level's
// estimate, republished when n has grown by a factor of about (1 + R^2): O(log n) times.
// Estimates are finite and > 0 for every finite sample speed > 0 (a level is kept as mean work
// and mean time, logarithms are compared), 1e-200 and 1e200 included. A processor never measured
// (no sample with work > 0) has estimate 0.
// Complexity: update O(p) time with a small constant, O(kNoiseWindow) memory per processor plus
// a fixed 257 KiB histogram.
//  - The pooled median is kept incrementally: each new ratio moves one count of a histogram
//    whose buckets are ordered as the ratios (1/1024 of a binary octave wide), the median's
//    bucket is found from at most 512 counts, and the median is selected among that bucket's
//    ratios only (found by one vectorised pass over 16 p two-byte keys; about 0.1% of the ratios
//    under noise, all of them in the degenerate case where nearly every ratio is 0, exact
//    measurements). The value is the one a selection among all 16 p ratios gives, bit for bit.
//  - Two logarithms per sample (ln x, needed exactly for the ratios). The rule's deviations and
//    the published values' drift are compared with their thresholds first through the ratio of
//    the two speeds, which bounds the difference of logarithms; the logarithms are computed only
//    when that bound does not settle the comparison (near a threshold: a change, an outlier),
//    so every outcome is the one the logarithms give.
// Measured (bench/balance_decider_benchmark.cpp, cost-benefit on a random walk of speeds with 5%
// timing noise, medians of 5 repetitions of CPU time on a 2-core machine shared with other jobs,
// load average 10-12): one decision of the RebalanceDecider, the estimator included, takes
// 4.5-5.0 ms at 65,536 ranks (4.3 ms at load 4.5) and 1.0-1.2 ms at 16,384 ranks, against
// 17.0-17.2 ms and 3.7-3.9 ms when the median gathered and selected among all 16 p ratios and
// every deviation went through logarithms; without the estimator a decision takes 0.9-1.0 ms and
// 0.23-0.25 ms.
#pragma once

#include <cstddef>
#include <cstdint>
#include <limits>
#include <vector>

namespace redist::balance {

inline constexpr std::size_t kNoiseWindow = 16;  // consecutive ratios kept per processor

struct SpeedEstimateSettings {
  double threshold = 3.5;  // Z: a deviation of Z sigma holds a sample out
  // L: a deviation of L sigma starts a new level alone. Off (infinity) by default: on shared
  // machines a rank descheduled for part of one iteration measures 2-3x slower, far beyond any
  // multiple of the usual noise, and a one-sample rule would follow each such drop there and back.
  double large_deviation = std::numeric_limits<double>::infinity();
  double refresh = 3.0;  // R: republish once a level's estimate moves R sigma / sqrt(n)
  double floor = 1e-9;   // relative deviations below this are rounding
};

// Throws InputError (path "speed estimate settings") unless 0 < threshold <= large_deviation
// (infinity allowed: never), refresh > 0 (finite) and 0 <= floor < 1.
void validate(const SpeedEstimateSettings& settings);

class SpeedEstimator {
 public:
  // Estimates for `processors` processors (>= 1). Throws InputError on bad settings.
  explicit SpeedEstimator(std::size_t processors, SpeedEstimateSettings settings = {});

  // One iteration: processor i did work[i] items in seconds[i]. A sample with work 0 carries no
  // speed and is skipped. Throws InputError (before changing anything) if the sizes differ from
  // size(), a value is negative or not finite, or work > 0 with a speed work / seconds that is not
  // finite and > 0.
  void update(const std::vector<double>& work, const std::vector<double>& seconds);

  // The published estimates (0 for a processor never measured).
  const std::vector<double>& speeds() const { return published_; }
  std::size_t size() const { return published_.size(); }
  // Whether the last update changed speeds() beyond rounding (an event).
  bool changed() const { return changed_; }
  // Level changes detected so far (a processor's first level is not a change).
  std::int64_t changes() const { return changes_; }
  // Processor i's samples in its current level.
  std::int64_t level_samples(std::size_t i) const { return state_[i].samples; }
  // The relative noise sigma of the last update.
  double noise() const { return noise_; }

 private:
  // A sample kept for the two-sample rule: the one before the current, since the level began.
  // Its deviation is NaN until needed (the sample joined, well within the thresholds); then it is
  // computed from the level it was compared with.
  struct Previous {
    bool present = false;
    bool held_out = false;
    double work = 0.0, seconds = 0.0, deviation = 0.0;
    double level_work = 0.0, level_seconds = 0.0;  // the level's means before the sample
  };
  struct Processor {
    double mean_work = 0.0, mean_seconds = 0.0;  // the level: W / n and T / n
    std::int64_t samples = 0;                    // n (0: never measured)
    double last = 0.0, log_last = 0.0;           // the last sample's speed and its logarithm
    // ln of the published value; NaN until needed
    double log_published = std::numeric_limits<double>::quiet_NaN();
    Previous previous;
    std::size_t ratio_count = 0;  // ratios recorded so far (the window keeps the last 16)
  };

  static void check(const std::vector<double>& work, const std::vector<double>& seconds,
                    std::size_t size);
  void record_ratio(std::size_t i, double ratio);
  double pooled_noise();
  bool observe(Processor& p, double work, double seconds);  // true: a new level
  bool observe_noisy(Processor& p, double work, double seconds, double bound);
  void start_level(Processor& p, double work, double seconds);
  void join_level(Processor& p, double work, double seconds);
  double value(const Processor& p) const;  // what would be published now
  // Whether processor i's value has left its published one (an event); keeps an exact
  // processor's published value on its last sample.
  bool moved(std::size_t i, bool new_level);

  SpeedEstimateSettings settings_;
  std::vector<Processor> state_;
  std::vector<double> published_;
  // The noise window: processor i's ratios |ln(x_k / x_{k-1})|, a ring of kNoiseWindow slots, its
  // slot j at ratios_[j * p + i] (processors updated together write one contiguous row), and the
  // bucket of each in keys_ (kNoKey in the .cpp where no ratio was recorded yet). buckets_ counts
  // the ratios of each bucket, coarse_ those of 256 consecutive buckets.
  std::vector<double> ratios_;
  std::vector<std::uint16_t> keys_;
  std::vector<std::uint32_t> buckets_, coarse_;
  std::vector<double> scratch_;   // the median bucket's ratios
  double noise_ = 0.0;            // sigma
  std::size_t noise_ratios_ = 0;  // ratios behind it
  bool exact_ = true;             // no noise measured: threshold * sigma <= floor
  double join_limit_ = 0.0;       // a deviation within it joins the level, whatever n
  double refresh_square_ = 0.0;   // (R sigma)^2, a little less
  bool changed_ = false;
  std::int64_t changes_ = 0;
};

}  // namespace redist::balance
