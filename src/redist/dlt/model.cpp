#include "redist/dlt/model.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

#include <fmt/format.h>

#include "redist/common/error.hpp"

namespace redist::dlt {

namespace {
// The smallest normal double: a makespan below it would have lost its precision.
constexpr double kSmallestTime = std::numeric_limits<double>::min();
}  // namespace

const std::vector<SolverName>& solver_names() {
  static const std::vector<SolverName> names = {
      {Solver::fast, "fast", "the closed form of linear program 7 (the default)"},
      {Solver::lp, "lp", "linear program 7 solved by COIN-OR CLP"},
  };
  return names;
}

namespace {

// The optimal T is at most T_own = max_i alpha_i / s_i (each worker computing its own load) and
// at least alpha_i / (s_i + b_i) for every i; the deltas and their boxes are bounded by the total
// load. Refuses inputs where these leave the normal doubles.
void check_dlt_scale(const Instance& in) {
  const std::size_t m = in.alpha.size();
  double total_alpha = 0, total_rate = 0, own_time = 0;
  for (std::size_t i = 0; i < m; ++i) {
    total_alpha += in.alpha[i];
    total_rate += in.s[i] + in.b[i];
    if (!std::isfinite(total_alpha)) {
      throw InputError("the total of alpha overflows a double; scale the loads",
                       fmt::format("alpha[{}]", i));
    }
    if (!std::isfinite(total_rate)) {
      throw InputError("the total of s and b overflows a double; scale the speeds and bandwidths",
                       fmt::format("s[{}]", i));
    }
    own_time = std::max(own_time, in.alpha[i] / in.s[i]);
    if (!std::isfinite(own_time)) {
      throw InputError("alpha / s overflows a double; scale the loads or the speeds",
                       fmt::format("alpha[{}]", i));
    }
    if (in.alpha[i] > 0 && in.alpha[i] / (in.s[i] + in.b[i]) < kSmallestTime) {
      throw InputError(
          "alpha / (s + b) underflows (below 2.2e-308); scale the loads up or the speeds down",
          fmt::format("alpha[{}]", i));
    }
  }
  // The deltas' boxes have widths up to alpha_i + sum alpha, summed over the workers.
  if (!std::isfinite(2 * (static_cast<double>(m) + 1) * total_alpha)) {
    throw InputError("the total of alpha times (workers + 1) overflows a double; scale the loads",
                     "alpha");
  }
}

}  // namespace

void validate_instance(const Instance& in) {
  const std::size_t m = in.alpha.size();
  if (m == 0) throw InputError("needs at least 1 worker", "alpha");
  if (in.b.size() != m) {
    throw InputError(fmt::format("has {} entries, alpha has {}", in.b.size(), m), "b");
  }
  if (in.s.size() != m) {
    throw InputError(fmt::format("has {} entries, alpha has {}", in.s.size(), m), "s");
  }
  for (std::size_t i = 0; i < m; ++i) {
    if (!std::isfinite(in.b[i]) || in.b[i] <= 0) {
      throw InputError("must be a finite number > 0", fmt::format("b[{}]", i));
    }
    if (!std::isfinite(in.s[i]) || in.s[i] <= 0) {
      throw InputError("must be a finite number > 0", fmt::format("s[{}]", i));
    }
    if (!std::isfinite(in.alpha[i]) || in.alpha[i] < 0) {
      throw InputError("must be a finite number >= 0", fmt::format("alpha[{}]", i));
    }
  }
  check_dlt_scale(in);
}

}  // namespace redist::dlt
