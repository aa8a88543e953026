#include "redist/balance/stable_horizon.hpp"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "redist/balance/speed_levels.hpp"
#include "redist/balance/targets.hpp"
#include "redist/common/error.hpp"
#include "redist/common/parse.hpp"

namespace redist::balance {
namespace {

class StableHorizon final : public Policy {
 public:
  explicit StableHorizon(double factor) : factor_(factor) {}

  Decision decide(const Step& step) override {
    levels_.observe(*step.speeds, step.after_iteration);
    account(step);
    const double gain = step.iteration_time - step.balanced_time;
    paid_ += std::max(gain, 0.0);
    Decision d;
    if (!(gain > 0)) return d.reason = "already balanced", d;
    const auto age = static_cast<double>(levels_.age(step.after_iteration));
    const double horizon =
        std::min(static_cast<double>(step.remaining()), std::max(factor_ * age, mean_level(step)));
    d.predicted_saving = efficiency() * gain * horizon;
    d.planned = true;
    d.plan_makespan = step.plan_makespan();
    // Rent or buy: once the imbalance paid since the last rebalance exceeds the makespan, a
    // rebalance that the remaining iterations can repay is taken whatever the horizon says.
    const bool repaid = gain * static_cast<double>(step.remaining()) > d.plan_makespan;
    const bool rent = repaid && efficiency() * paid_ > d.plan_makespan;
    d.rebalance = d.predicted_saving > d.plan_makespan || rent;
    d.reason = rent
                   ? fmt::format("imbalance paid {:.6g} > makespan {:.6g}", paid_, d.plan_makespan)
                   : fmt::format("saving over {:.6g} iterations {:.6g} {} makespan {:.6g}", horizon,
                                 d.predicted_saving, d.rebalance ? ">" : "<=", d.plan_makespan);
    return d;
  }
  void rebalanced(const Step& step) override {
    realized_ += active_realized_;
    expected_ += active_expected_;
    active_ = true;
    before_ = *step.loads;
    after_ = *step.targets;
    gain_ = step.iteration_time - step.balanced_time;
    active_realized_ = active_expected_ = 0.0;
    paid_ = 0.0;
  }
  std::string name() const override { return fmt::format("stable-horizon:{}", factor_); }

 private:
  // Mean length of a processor's speed level so far, counting the current levels as complete.
  double mean_level(const Step& step) const {
    const auto p = static_cast<double>(levels_.processors());
    return static_cast<double>(step.after_iteration) * p /
           (static_cast<double>(levels_.changes()) + p);
  }

  // What the last rebalance saved in this iteration (the time with the loads it replaced minus
  // the time with its targets, at the speeds measured) against the gain it was decided on.
  void account(const Step& step) {
    if (!active_) return;
    active_realized_ +=
        iteration_time(before_, *step.speeds) - iteration_time(after_, *step.speeds);
    active_expected_ += gain_;
  }
  // Realized over expected savings of the finished rebalances, within [0.1, 1]; 1 before any.
  double efficiency() const {
    if (!(expected_ > 0)) return 1.0;
    return std::clamp(realized_ / expected_, 0.1, 1.0);
  }

  double paid_ = 0.0;  // sum of T - T_bal since the last rebalance
  bool active_ = false;
  std::vector<double> before_, after_;  // the last rebalance's loads and targets
  double gain_ = 0.0;                   // its T - T_bal
  double active_realized_ = 0.0, active_expected_ = 0.0;
  double realized_ = 0.0, expected_ = 0.0;  // over the finished rebalances

  double factor_;
  SpeedLevels levels_;
};

}  // namespace

std::unique_ptr<Policy> make_stable_horizon(std::string_view parameter) {
  double factor = kDefaultHorizonFactor;
  if (!parameter.empty()) {
    const Parsed<double> parsed = parse_real(parameter);
    const auto* value = std::get_if<double>(&parsed);
    if (value == nullptr || !(*value > 0)) {
      throw OptionError(fmt::format("A must be a number > 0, got '{}'{}", one_line(parameter, 40),
                                    value ? "" : ": " + std::get<std::string>(parsed)),
                        "policy");
    }
    factor = *value;
  }
  return std::make_unique<StableHorizon>(factor);
}

}  // namespace redist::balance
