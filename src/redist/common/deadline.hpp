// A wall-clock limit on a planner's search (`--time-limit SECONDS`, docs/formats.md). The planners
// that search (ring and SliceRing `exact`, star `exact` and `best`, exchange `exact`) look at it
// every few hundred nodes; once it has passed they stop and return the best plan found so far,
// with the lower bound they proved and a note (time_limit_note), and claim optimality only when
// the search finished. Header-only: one clock read per check.
#pragma once

#include <chrono>
#include <cmath>
#include <optional>
#include <string>
#include <string_view>

#include <fmt/format.h>

#include "redist/common/error.hpp"

namespace redist {

class Deadline {
 public:
  using Clock = std::chrono::steady_clock;

  // No limit: never passes.
  Deadline() = default;

  // `seconds` from now, or no limit when `seconds` is empty. OptionError at "time_limit" unless
  // it is a finite number > 0 (the command line refuses the same texts before planning).
  explicit Deadline(std::optional<double> seconds) {
    if (!seconds) return;
    if (!std::isfinite(*seconds) || *seconds <= 0) {
      throw OptionError(
          fmt::format("the time limit must be a finite number of seconds > 0, got {}", *seconds),
          "time_limit");
    }
    seconds_ = *seconds;
    // Limits beyond a year are no limit in practice, and would overflow the clock's duration.
    if (seconds_ < 3.2e7) {
      end_ = Clock::now() +
             std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(seconds_));
    }
  }

  bool limited() const { return seconds_ > 0; }
  double seconds() const { return seconds_; }
  bool passed() const { return end_ && Clock::now() >= *end_; }

  // Every `period` calls (a power of two), whether the limit has passed: a search checks it with
  // `deadline.passed_every(++nodes)` at a clock read per `period` nodes.
  bool passed_every(std::int64_t count, std::int64_t period = 256) const {
    return end_ && (count & (period - 1)) == 0 && passed();
  }

 private:
  double seconds_ = 0;  // 0: no limit
  std::optional<Clock::time_point> end_;
};

// The note of a search stopped by its time limit: "time limit of 2 s reached (what): ...". The
// plan is optimal only if its makespan meets the bound (its `optimal` says).
inline std::string time_limit_note(const Deadline& deadline, const std::string& what) {
  return fmt::format(
      "time limit of {:g} s reached ({}): the best plan found by then, with the lower bound "
      "proven by then; the search did not finish",
      deadline.seconds(), what);
}

// The note of a plan whose algorithm was given a time limit but does not search: "the time limit
// has no effect on light: only exact and auto search".
inline std::string time_limit_ignored(std::string_view algorithm) {
  return fmt::format("the time limit has no effect on {}: only exact and auto search", algorithm);
}

}  // namespace redist
