#include "redist/balance/stable_horizon.hpp"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "redist/common/error.hpp"

namespace redist::balance {
namespace {

class StableHorizon final : public Policy {
 public:
  explicit StableHorizon(double factor) : factor_(factor) {}

  Decision decide(const Step& step) override {
    if (changed(*step.speeds)) {
      reference_ = *step.speeds;
      since_ = step.after_iteration;
    }
    const double gain = step.iteration_time - step.balanced_time;
    Decision d;
    if (!(gain > 0)) return d.reason = "already balanced", d;
    const double age = static_cast<double>(step.after_iteration - since_ + 1);
    const double horizon = std::min(static_cast<double>(step.remaining()), factor_ * age);
    d.predicted_saving = gain * horizon;
    d.planned = true;
    d.plan_makespan = step.plan_makespan();
    d.rebalance = d.predicted_saving > d.plan_makespan;
    d.reason = fmt::format("saving over {:.6g} iterations {:.6g} {} makespan {:.6g}", horizon,
                           d.predicted_saving, d.rebalance ? ">" : "<=", d.plan_makespan);
    return d;
  }
  std::string name() const override { return fmt::format("stable-horizon:{}", factor_); }

 private:
  bool changed(const std::vector<double>& speeds) const {
    if (reference_.size() != speeds.size()) return true;
    for (std::size_t i = 0; i < speeds.size(); ++i)
      if (std::abs(speeds[i] - reference_[i]) > kSpeedChangeTolerance * reference_[i]) return true;
    return false;
  }

  double factor_;
  std::vector<double> reference_;  // the speeds when the current stable period began
  std::int64_t since_ = 0;         // the iteration that began it
};

}  // namespace

std::unique_ptr<Policy> make_stable_horizon(std::string_view parameter) {
  double factor = kDefaultHorizonFactor;
  if (!parameter.empty()) {
    const auto [end, ec] =
        std::from_chars(parameter.data(), parameter.data() + parameter.size(), factor);
    if (ec != std::errc() || end != parameter.data() + parameter.size() || !std::isfinite(factor) ||
        !(factor > 0))
      throw InputError(
          fmt::format("A must be a finite number > 0, got '{}'", one_line(parameter, 40)),
          "--policy");
  }
  return std::make_unique<StableHorizon>(factor);
}

}  // namespace redist::balance
