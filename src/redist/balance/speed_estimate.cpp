#include "redist/balance/speed_estimate.hpp"

#include <algorithm>
#include <bit>
#include <cmath>
#include <limits>
#include <string>

#include <fmt/format.h>

#include "redist/common/error.hpp"

namespace redist::balance {
namespace {

// The median of |X - Y| for independent normal X, Y of deviation sigma, in units of sigma.
constexpr double kMedianRatio = 0.954;
// A noise estimate resting on m ratios is widened by (1 + kWidening / m).
constexpr double kWidening = 8.0;
// A noise estimate resting on fewer ratios may be far too small: no single sample starts a level
// before (unless no noise is measured at all).
constexpr std::size_t kSettledRatios = 8;

// The histogram of the noise window. A ratio r >= 0 (+0 included, never -0: the ratios are
// absolute values) falls in bucket 0 below 2^-52, else in one of 1024 equal parts of its binary
// octave [2^e, 2^(e+1)) for e = -52..10: the exponent and the 10 leading mantissa bits of its
// representation, so a bucket is 1/1024 of its octave wide and the buckets are ordered as the
// values. Ratios are below 1455 < 2^11 (the logarithms of finite doubles > 0 lie within
// [-745, 710]); kNoKey, above every bucket, marks a slot that holds no ratio yet.
constexpr int kLowestExponent = -52;
constexpr int kMantissaBits = 10;
constexpr std::uint16_t kNoKey = 0xffff;
constexpr std::size_t kBuckets = std::size_t{1} << 16;
constexpr int kCoarseShift = 8;  // 256 coarse counts of 256 buckets each

std::uint16_t bucket_of(double ratio) {
  const auto bits = std::bit_cast<std::uint64_t>(ratio);
  const int exponent = static_cast<int>(bits >> 52) - 1023;
  if (exponent < kLowestExponent) return 0;
  // From 2^11 on (never a ratio): one bucket above the others, below kNoKey.
  if (exponent > 10) return static_cast<std::uint16_t>(1 + (63u << kMantissaBits));
  const auto octave = static_cast<std::uint64_t>(exponent - kLowestExponent);
  const std::uint64_t part = (bits >> (52 - kMantissaBits)) & ((1u << kMantissaBits) - 1);
  return static_cast<std::uint16_t>(1 + (octave << kMantissaBits) + part);
}

bool finite_positive(double x) { return std::isfinite(x) && x > 0; }

// Most samples deviate from their level, and most values from their published one, far less
// than the thresholds they are compared with: the comparison is settled from the ratio of the
// two speeds, a / b, without their logarithms (the part of the estimator that costs the most).
// |ln(a / b)| <= max(a / b, b / a) - 1. The deviations compared are differences of logarithms of
// doubles (magnitudes below 745, their differences below 3000), each within a few units in the
// last place of its value: together within 1e-11 of the exact difference of logarithms, which is
// ln(a / b) (a and b computed within 1e-15 relatively). So the deviation computed from the
// logarithms is at most the bound returned, max(a / b, b / a) - 1 plus 1e-10 and a relative
// 1e-12; when that is within a threshold, the comparison with the logarithms is settled, bit for
// bit. Otherwise (near or beyond a threshold, or a ratio that is not a finite number > 0: the
// bound is NaN or infinity and no comparison holds) the logarithms are computed.
double deviation_bound(double a, double b) {
  return (std::max(a / b, b / a) - 1) * (1 + 1e-12) + 1e-10;
}

// The deviation of a sample of ln(speed) log_x from the level of means (work, seconds), computed
// as the rule has always computed it (every caller gives the same value for the same sample).
double deviation(double log_x, double mean_work, double mean_seconds) {
  return log_x - (std::log(mean_work) - std::log(mean_seconds));
}

constexpr double kUnknown = std::numeric_limits<double>::quiet_NaN();

}  // namespace

void validate(const SpeedEstimateSettings& s) {
  const auto bad = [](const std::string& what) {
    throw InputError(what, "speed estimate settings");
  };
  if (!finite_positive(s.threshold))
    bad(fmt::format("threshold must be > 0 (got {})", s.threshold));
  if (std::isnan(s.large_deviation) || s.large_deviation < s.threshold)
    bad(fmt::format("large_deviation must be >= threshold {} (got {}; infinity: never)",
                    s.threshold, s.large_deviation));
  if (!finite_positive(s.refresh)) bad(fmt::format("refresh must be > 0 (got {})", s.refresh));
  if (!(s.floor >= 0 && s.floor < 1)) bad(fmt::format("floor must be in [0, 1) (got {})", s.floor));
}

SpeedEstimator::SpeedEstimator(std::size_t processors, SpeedEstimateSettings settings)
    : settings_(settings), state_(processors), published_(processors, 0.0) {
  validate(settings_);
  if (processors == 0) throw InputError("at least one processor is needed", "speed estimate");
  ratios_.assign(processors * kNoiseWindow, 0.0);
  keys_.assign(ratios_.size(), kNoKey);
  buckets_.assign(kBuckets, 0);
  coarse_.assign(kBuckets >> kCoarseShift, 0);
}

void SpeedEstimator::check(const std::vector<double>& work, const std::vector<double>& seconds,
                           std::size_t size) {
  if (work.size() != size || seconds.size() != size)
    throw InputError(fmt::format("{} work and {} time values for {} processors", work.size(),
                                 seconds.size(), size),
                     "speed estimate");
  for (std::size_t i = 0; i < size; ++i) {
    const double w = work[i], t = seconds[i];
    if (!std::isfinite(w) || w < 0)
      throw InputError(fmt::format("work must be finite and >= 0 (got {})", w),
                       fmt::format("speed estimate work[{}]", i));
    if (!std::isfinite(t) || t < 0)
      throw InputError(fmt::format("a time must be finite and >= 0 (got {})", t),
                       fmt::format("speed estimate seconds[{}]", i));
    if (w > 0 && !finite_positive(w / t))
      throw InputError(fmt::format("the speed {} / {} is not a finite number > 0", w, t),
                       fmt::format("speed estimate seconds[{}]", i));
  }
}

void SpeedEstimator::update(const std::vector<double>& work, const std::vector<double>& seconds) {
  check(work, seconds, state_.size());
  // The ratios of this sample to the previous one enter the noise estimate first: a processor
  // whose speed changes now is one ratio among many in the median.
  for (std::size_t i = 0; i < state_.size(); ++i) {
    if (!(work[i] > 0)) continue;
    Processor& p = state_[i];
    const double log_x = std::log(work[i]) - std::log(seconds[i]);
    if (p.samples > 0) record_ratio(i, std::abs(log_x - p.log_last));
    p.log_last = log_x;  // observe() reads it
  }
  noise_ = pooled_noise();
  exact_ = settings_.threshold * noise_ <= settings_.floor;
  // Lower bounds of the thresholds, for any level size n: the rule's with 1 / n = 0 (rounding is
  // monotone, so they are at most the rule's as computed), and the square of the refresh band
  // R sigma / sqrt(n) times n, a little smaller.
  const double z_sigma = settings_.threshold * noise_;
  join_limit_ = std::min(std::max(settings_.floor, z_sigma),
                         std::max(settings_.floor, z_sigma * std::sqrt(0.5)));
  if (noise_ratios_ >= kSettledRatios)
    join_limit_ = std::min(join_limit_, settings_.large_deviation * noise_);
  const double refresh = settings_.refresh * noise_;
  refresh_square_ = refresh * refresh * (1 - 1e-12);
  // Each processor's sample, then whether its value left the published one.
  bool event = false;
  for (std::size_t i = 0; i < state_.size(); ++i) {
    Processor& p = state_[i];
    bool new_level = false;
    if (work[i] > 0) {
      const bool first = p.samples == 0;
      new_level = observe(p, work[i], seconds[i]);
      if (new_level && !first) ++changes_;
    }
    if (p.samples > 0 && moved(i, new_level)) event = true;
  }
  // At an event every published value is brought up to date at once.
  changed_ = event;
  if (!event) return;
  for (std::size_t i = 0; i < state_.size(); ++i) {
    Processor& p = state_[i];
    if (p.samples == 0) continue;
    published_[i] = value(p);
    p.log_published = kUnknown;
  }
}

// Replaces processor i's oldest ratio in the window (once it holds kNoiseWindow) by `ratio`.
void SpeedEstimator::record_ratio(std::size_t i, double ratio) {
  Processor& p = state_[i];
  const std::size_t slot = p.ratio_count % kNoiseWindow * state_.size() + i;
  if (keys_[slot] != kNoKey) {
    const std::uint16_t b = keys_[slot];
    --buckets_[b];
    --coarse_[b >> kCoarseShift];
  } else {
    ++noise_ratios_;
  }
  const std::uint16_t b = bucket_of(ratio);
  ratios_[slot] = ratio;
  keys_[slot] = b;
  ++buckets_[b];
  ++coarse_[b >> kCoarseShift];
  ++p.ratio_count;
}

// The lower median of the ratios in the window over kMedianRatio, widened by
// (1 + kWidening / m) for m ratios; 0 without ratios. The median is the element of rank
// (m - 1) / 2: its bucket is found from the counts, then it is selected among that bucket's
// ratios, the same value as a selection among all of them.
double SpeedEstimator::pooled_noise() {
  const std::size_t m = noise_ratios_;
  if (m == 0) return 0.0;
  std::size_t rank = (m - 1) / 2;  // among the ratios from the current bucket on
  std::size_t c = 0;
  while (rank >= coarse_[c]) rank -= coarse_[c++];
  std::size_t b = c << kCoarseShift;
  while (rank >= buckets_[b]) rank -= buckets_[b++];
  // The bucket's ratios: 64 keys at a time are compared (vectorised), and the ratios of a block
  // that holds some gathered.
  const auto bucket = static_cast<std::uint16_t>(b);
  scratch_.clear();
  const std::size_t size = keys_.size();
  std::size_t base = 0;
  for (; base + 64 <= size; base += 64) {
    unsigned hits = 0;
    for (std::size_t k = base; k < base + 64; ++k) hits += keys_[k] == bucket ? 1u : 0u;
    if (hits == 0) continue;
    for (std::size_t k = base; k < base + 64; ++k)
      if (keys_[k] == bucket) scratch_.push_back(ratios_[k]);
  }
  for (; base < size; ++base)
    if (keys_[base] == bucket) scratch_.push_back(ratios_[base]);
  const auto mid = scratch_.begin() + static_cast<std::ptrdiff_t>(rank);
  std::nth_element(scratch_.begin(), mid, scratch_.end());
  return *mid / kMedianRatio * (1.0 + kWidening / static_cast<double>(m));
}

// Classifies the sample (work, seconds) against p's level (the rule in the header).
// p.log_last already holds ln(work / seconds), as ln(work) - ln(seconds) (update()).
bool SpeedEstimator::observe(Processor& p, double work, double seconds) {
  p.last = work / seconds;
  if (p.samples == 0) {
    start_level(p, work, seconds);
    return true;
  }
  // The sample's speed over the level's is a over b: |d| <= bound.
  const double bound = deviation_bound(p.last * p.mean_seconds, p.mean_work);
  if (!exact_) return observe_noisy(p, work, seconds, bound);
  // No noise measured: every deviation beyond rounding is a change.
  if (!(bound <= settings_.floor) &&
      std::abs(deviation(p.log_last, p.mean_work, p.mean_seconds)) > settings_.floor) {
    start_level(p, work, seconds);
    return true;
  }
  join_level(p, work, seconds);
  return false;
}

// The rule of the header for a sample that deviates from its level by |d| <= bound, with noise
// noise_ > 0.
bool SpeedEstimator::observe_noisy(Processor& p, double work, double seconds, double bound) {
  // Within every threshold: the sample joins (no large deviation, no change confirmed by two
  // samples, not held out). Its d is computed only if the next sample needs it.
  if (bound <= join_limit_) {
    p.previous = {true, false, work, seconds, kUnknown, p.mean_work, p.mean_seconds};
    join_level(p, work, seconds);
    return false;
  }
  const double n = static_cast<double>(p.samples);
  const double z_sigma = settings_.threshold * noise_;
  const double one = std::max(settings_.floor, z_sigma * std::sqrt(1.0 + 1.0 / n));
  const double two = std::max(settings_.floor, z_sigma * std::sqrt(0.5 + 1.0 / n));
  const double large = settings_.large_deviation * noise_ * std::sqrt(1.0 + 1.0 / n);
  const bool settled = noise_ratios_ >= kSettledRatios;
  const double d = deviation(p.log_last, p.mean_work, p.mean_seconds);
  if (settled && std::abs(d) > large) {
    start_level(p, work, seconds);
    return true;
  }
  Previous& prior = p.previous;
  if (prior.present && std::abs(d) > two) {
    if (std::isnan(prior.deviation))
      prior.deviation = deviation(std::log(prior.work) - std::log(prior.seconds), prior.level_work,
                                  prior.level_seconds);
    if ((prior.deviation > 0) == (d > 0) && std::abs(prior.deviation) > two) {
      if (prior.held_out) {
        const double prior_work = prior.work, prior_seconds = prior.seconds;
        start_level(p, prior_work, prior_seconds);
        join_level(p, work, seconds);
      } else {
        start_level(p, work, seconds);
      }
      return true;
    }
  }
  const bool held_out = std::abs(d) > one;
  p.previous = {true, held_out, work, seconds, d, p.mean_work, p.mean_seconds};
  if (!held_out) join_level(p, work, seconds);
  return false;
}

void SpeedEstimator::start_level(Processor& p, double work, double seconds) {
  p.mean_work = work;
  p.mean_seconds = seconds;
  p.samples = 1;
  p.previous = {};
}

// Running means rather than sums: they stay within the range of the samples (no overflow).
void SpeedEstimator::join_level(Processor& p, double work, double seconds) {
  ++p.samples;
  const double n = static_cast<double>(p.samples);
  p.mean_work += (work - p.mean_work) / n;
  p.mean_seconds += (seconds - p.mean_seconds) / n;
}

double SpeedEstimator::value(const Processor& p) const {
  if (exact_) return p.last;
  return p.mean_work / p.mean_seconds;
}

bool SpeedEstimator::moved(std::size_t i, bool new_level) {
  Processor& p = state_[i];
  if (new_level || published_[i] == 0) return true;
  const double v = value(p);
  const double n = static_cast<double>(p.samples);
  double log_v = kUnknown;  // computed only when the ratio does not settle it
  bool moved = false;
  const double bound = deviation_bound(v, published_[i]);
  // bound <= band as bound^2 n <= (R sigma)^2, with a margin for the rounding of the band.
  if (!(bound <= settings_.floor || (!exact_ && bound * bound * n <= refresh_square_))) {
    const double band = exact_ ? settings_.floor : settings_.refresh * noise_ / std::sqrt(n);
    const double limit = std::max(settings_.floor, band);
    log_v = std::log(v);
    if (std::isnan(p.log_published)) p.log_published = std::log(published_[i]);
    moved = std::abs(log_v - p.log_published) > limit;
  }
  // Within rounding of the published value: an exact processor still follows its last sample.
  if (exact_) {
    published_[i] = v;
    p.log_published = log_v;
  }
  return moved;
}

}  // namespace redist::balance
