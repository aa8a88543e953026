// Speed levels of the processors of a run, as the online policies of ours see them
// (stable_horizon.hpp, replay.hpp): a processor's level ends when its speed moves by more than
// kSpeedChangeTolerance from the speed it had when the level began; the run's configuration is
// stable while no level ends. Complexity: O(p) per observation, O(p) memory.
#pragma once

#include <cmath>
#include <cstdint>
#include <vector>

namespace redist::balance {

inline constexpr double kSpeedChangeTolerance = 0.05;

class SpeedLevels {
 public:
  // The speeds measured in the iteration before decision point k (k = 1, 2, ... in order).
  void observe(const std::vector<double>& speeds, std::int64_t k) {
    if (level_.size() != speeds.size()) {
      level_ = speeds;
      since_ = k;
      return;
    }
    for (std::size_t i = 0; i < speeds.size(); ++i) {
      if (std::abs(speeds[i] - level_[i]) <= kSpeedChangeTolerance * level_[i]) continue;
      level_[i] = speeds[i];
      ++changes_;
      since_ = k;
    }
  }
  // Decision points since the configuration last changed, counting k itself (>= 1).
  std::int64_t age(std::int64_t k) const { return k - since_ + 1; }
  // Levels ended so far, over all processors.
  std::int64_t changes() const { return changes_; }
  std::size_t processors() const { return level_.size(); }

 private:
  std::vector<double> level_;  // each processor's speed when its current level began
  std::int64_t changes_ = 0;
  std::int64_t since_ = 0;  // the decision point that began the current configuration
};

}  // namespace redist::balance
