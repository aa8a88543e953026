#include "redist/balance/speed_estimate.hpp"

#include <algorithm>
#include <cmath>
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

// The lower median of v (reordered), or 0 when empty.
double lower_median(std::vector<double>& v) {
  if (v.empty()) return 0.0;
  const auto mid = v.begin() + static_cast<std::ptrdiff_t>((v.size() - 1) / 2);
  std::nth_element(v.begin(), mid, v.end());
  return *mid;
}

double noise_from_ratios(std::vector<double>& ratios) {
  if (ratios.empty()) return 0.0;
  const double m = static_cast<double>(ratios.size());
  return lower_median(ratios) / kMedianRatio * (1.0 + kWidening / m);
}

bool finite_positive(double x) { return std::isfinite(x) && x > 0; }

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
    if (p.samples > 0) {
      p.ratios[p.ratio_count % kNoiseWindow] = std::abs(log_x - p.log_last);
      ++p.ratio_count;
    }
  }
  noise_ = pooled_noise();
  std::vector<char> new_level(state_.size(), 0);
  for (std::size_t i = 0; i < state_.size(); ++i) {
    if (!(work[i] > 0)) continue;
    Processor& p = state_[i];
    const bool first = p.samples == 0;
    new_level[i] = observe(p, work[i], seconds[i]);
    if (new_level[i] && !first) ++changes_;
  }
  publish(new_level);
}

double SpeedEstimator::pooled_noise() {
  scratch_.clear();
  for (const Processor& p : state_) {
    const std::size_t m = std::min(p.ratio_count, kNoiseWindow);
    scratch_.insert(scratch_.end(), p.ratios.begin(), p.ratios.begin() + static_cast<long>(m));
  }
  noise_ratios_ = scratch_.size();
  return noise_from_ratios(scratch_);
}

bool SpeedEstimator::exact() const { return settings_.threshold * noise_ <= settings_.floor; }

// Classifies the sample (work, seconds) against p's level (the rule in the header).
bool SpeedEstimator::observe(Processor& p, double work, double seconds) {
  const double log_x = std::log(work) - std::log(seconds);
  const bool first = p.samples == 0;
  p.last = work / seconds;
  p.log_last = log_x;
  const double d = first ? 0.0 : log_x - (std::log(p.mean_work) - std::log(p.mean_seconds));
  // No noise measured: every deviation beyond rounding is a change.
  if (first || (exact() && std::abs(d) > settings_.floor)) {
    start_level(p, work, seconds);
    return true;
  }
  if (exact()) {
    join_level(p, work, seconds);
    return false;
  }
  return observe_noisy(p, work, seconds, d);
}

// The rule of the header for a sample deviating by d from p's level, with noise noise_ > 0.
bool SpeedEstimator::observe_noisy(Processor& p, double work, double seconds, double d) {
  const double n = static_cast<double>(p.samples);
  const double z_sigma = settings_.threshold * noise_;
  const double one = std::max(settings_.floor, z_sigma * std::sqrt(1.0 + 1.0 / n));
  const double two = std::max(settings_.floor, z_sigma * std::sqrt(0.5 + 1.0 / n));
  const double large = settings_.large_deviation * noise_ * std::sqrt(1.0 + 1.0 / n);
  if (noise_ratios_ >= kSettledRatios && std::abs(d) > large) {
    start_level(p, work, seconds);
    return true;
  }
  const Previous q = p.previous;
  if (q.present && (q.deviation > 0) == (d > 0) &&
      std::min(std::abs(q.deviation), std::abs(d)) > two) {
    if (q.held_out) {
      start_level(p, q.work, q.seconds);
      join_level(p, work, seconds);
    } else {
      start_level(p, work, seconds);
    }
    return true;
  }
  const bool held_out = std::abs(d) > one;
  if (!held_out) join_level(p, work, seconds);
  p.previous = {true, held_out, work, seconds, d};
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
  if (exact()) return p.last;
  return p.mean_work / p.mean_seconds;
}

void SpeedEstimator::publish(const std::vector<char>& new_level) {
  bool event = false;
  for (std::size_t i = 0; i < state_.size(); ++i) {
    const Processor& p = state_[i];
    if (p.samples == 0) continue;
    const double v = value(p);
    if (new_level[i] || published_[i] == 0) {
      event = true;
      continue;
    }
    const double moved = std::abs(std::log(v) - std::log(published_[i]));
    const double n = static_cast<double>(p.samples);
    const double band = exact() ? settings_.floor : settings_.refresh * noise_ / std::sqrt(n);
    if (moved > std::max(settings_.floor, band)) event = true;
    // Within rounding of the published value: an exact processor still follows its last sample.
    if (exact()) published_[i] = v;
  }
  changed_ = event;
  if (!event) return;
  for (std::size_t i = 0; i < state_.size(); ++i) {
    if (state_[i].samples > 0) published_[i] = value(state_[i]);
  }
}

}  // namespace redist::balance
