#include "redist/balance/replay.hpp"

#include <algorithm>
#include <deque>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "redist/balance/speed_levels.hpp"
#include "redist/balance/targets.hpp"

namespace redist::balance {
namespace {

// What the rebalances that could have been made at past decision points would have saved since,
// summed per lag h = 1..kReplayMaxLag.
class GainCurve {
 public:
  // Follows every remembered point by one iteration, at the speeds just measured.
  void observe(const std::vector<double>& speeds) {
    for (Point& point : points_) {
      const auto h = static_cast<std::size_t>(++point.lag);
      saved_[h] += iteration_time(point.loads, speeds) - iteration_time(point.targets, speeds);
      gain_[h] += point.gain;
      ++points_at_[h];
    }
    while (!points_.empty() && points_.front().lag == kReplayMaxLag) points_.pop_front();
  }
  void remember(const std::vector<double>& loads, const std::vector<double>& targets, double gain) {
    points_.push_back({loads, targets, gain, 0});
  }
  // S of replay.hpp for R remaining iterations; `fallback` when no lag is trusted yet.
  double horizon(std::int64_t remaining, double fallback) const {
    std::int64_t trusted = 0;
    while (trusted < kReplayMaxLag &&
           points_at_[static_cast<std::size_t>(trusted + 1)] >= kReplayMinPoints)
      ++trusted;
    if (trusted == 0) return fallback;
    double sum = 0.0, last = 0.0;
    for (std::int64_t h = 1; h <= std::min(remaining, trusted); ++h) {
      const auto lag = static_cast<std::size_t>(h);
      last = std::min(saved_[lag] / gain_[lag], 1.0);
      if (!(last > 0)) return sum;  // the gain is gone by lag h: count no further
      sum += last;
    }
    if (remaining > trusted)
      sum += last * static_cast<double>(std::min(remaining - trusted, trusted));
    return sum;
  }

 private:
  struct Point {
    std::vector<double> loads, targets;
    double gain;
    std::int64_t lag;  // iterations followed so far
  };
  std::deque<Point> points_;  // oldest first
  static constexpr std::size_t kLags = kReplayMaxLag + 1;
  std::vector<double> saved_ = std::vector<double>(kLags, 0.0);
  std::vector<double> gain_ = std::vector<double>(kLags, 0.0);
  std::vector<std::int64_t> points_at_ = std::vector<std::int64_t>(kLags, 0);
};

// replay's rules, or hedged-replay's (replay.hpp).
struct ReplayRules {
  const char* name = "replay";
  bool first_level_lasts = false;  // no change seen yet: horizon R, nothing to pay first
  double margin = 1.0;             // rebalance when the saving exceeds margin x makespan
};

class Replay final : public Policy {
 public:
  explicit Replay(ReplayRules rules) : rules_(rules) {}
  Decision decide(const Step& step) override {
    const std::int64_t k = step.after_iteration;
    curve_.observe(*step.speeds);
    levels_.observe(*step.speeds, k);
    const double gain = step.iteration_time - step.balanced_time;
    Decision d;
    if (!(gain > 0)) return d.reason = "already balanced", d;
    paid_ += gain;
    curve_.remember(*step.loads, *step.targets, gain);
    const bool first_level = rules_.first_level_lasts && levels_.changes() == 0;
    const std::int64_t stable = first_level ? step.remaining() : levels_.age(k);
    const double fallback = static_cast<double>(std::min(step.remaining(), stable));
    const double horizon = curve_.horizon(step.remaining(), fallback);
    d.predicted_saving = gain * horizon;
    d.planned = true;
    d.plan_makespan = step.plan_makespan();
    const double price = rules_.margin * d.plan_makespan;
    const bool pays = d.predicted_saving > price;
    const double rent = first_level ? 0.0 : kReplayRent;
    const bool waited = paid_ >= rent * d.plan_makespan;
    d.rebalance = pays && waited;
    d.reason = fmt::format("saving over {:.4g} iterations {:.6g} {} {}makespan {:.6g}", horizon,
                           d.predicted_saving, pays ? ">" : "<=", margin_text(), d.plan_makespan);
    if (pays && !waited)
      d.reason += fmt::format(", but imbalance paid {:.6g} < {} x makespan", paid_, rent);
    return d;
  }
  void rebalanced(const Step&) override { paid_ = 0.0; }
  std::string name() const override { return rules_.name; }

 private:
  std::string margin_text() const {
    return rules_.margin == 1.0 ? "" : fmt::format("{} x ", rules_.margin);
  }

  ReplayRules rules_;
  GainCurve curve_;
  SpeedLevels levels_;
  double paid_ = 0.0;  // sum of T - T_bal since the last rebalance
};

}  // namespace

std::unique_ptr<Policy> make_replay() { return std::make_unique<Replay>(ReplayRules{}); }

std::unique_ptr<Policy> make_hedged_replay() {
  return std::make_unique<Replay>(ReplayRules{"hedged-replay", true, kHedgedReplayMargin});
}

}  // namespace redist::balance
