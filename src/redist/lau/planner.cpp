#include "redist/lau/planner.hpp"

#include <chrono>
#include <limits>

#include "redist/common/error.hpp"
#include "redist/lau/linear.hpp"
#include "redist/lau/optimal.hpp"
#include "redist/lau/optimal_window.hpp"
#include "redist/lau/traffic.hpp"

namespace redist::lau {

namespace {

// "a, b, c or d": the names of a table as the errors list them, from its entry `first`.
std::string expected(const std::vector<AlgorithmName>& names, std::size_t first) {
  std::string text;
  for (std::size_t k = 0; k < names.size(); ++k) {
    const AlgorithmName& n = names[(first + k) % names.size()];
    text += k == 0 ? "" : (k + 1 < names.size() ? ", " : " or ");
    text += n.name;
  }
  return text;
}

Plan plan_by_name(const Instance& in, const std::string& algorithm, Mode mode) {
  if (algorithm == "linear") return plan_linear(in);
  if (algorithm == "traffic") return plan_traffic(in);
  if (algorithm == "optimal-window") return plan_optimal_window(in, mode);
  if (algorithm == "optimal") return plan_optimal(in, mode);
  throw OptionError(
      "unknown algorithm '" + algorithm + "' (expected " + expected(algorithm_names(), 1) + ")",
      "algorithm");
}

// A time as a claim: infinity for a deadlock (no time).
double claim(const Time& t) {
  return t ? static_cast<double>(*t) : std::numeric_limits<double>::infinity();
}

}  // namespace

const std::vector<AlgorithmName>& algorithm_names() {
  static const std::vector<AlgorithmName> names = {
      {"optimal", "the least time in the mode over every valid schedule (the default)"},
      {"linear", "LAU §4, Figure 6: prefix sums, some flow is 0"},
      {"traffic", "LAU §4, Lemma 3: the least total traffic"},
      {"optimal-window", "LAU §5, Figure 9 as published (not always optimal)"},
  };
  return names;
}

const std::vector<AlgorithmName>& mode_names() {
  static const std::vector<AlgorithmName> names = {
      {"single", "a node sends each neighbour one message (the default)"},
      {"multi", "a node forwards load as soon as it receives it"},
  };
  return names;
}

Plan plan(const Instance& instance, const PlanOptions& options) {
  if (options.time_limit) {
    throw OptionError("lau's algorithms do not search: no time limit applies", "time_limit");
  }
  const auto start = std::chrono::steady_clock::now();
  Plan out = plan_by_name(instance, options.algorithm, options.mode);
  out.mode = options.mode;
  const Time time = time_in(out, options.mode);
  const Time optimum = options.algorithm == "optimal"
                           ? time
                           : time_in(plan_optimal(instance, options.mode), options.mode);
  out.makespan = claim(time);
  out.lower_bound = claim(optimum);
  if (time == optimum) out.prove_optimal(Proof::lower_bound);
  out.solve_seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return out;
}

Mode parse_mode(const std::string& name) {
  if (name == "single") return Mode::single;
  if (name == "multi") return Mode::multi;
  throw OptionError("unknown mode '" + name + "' (expected " + expected(mode_names(), 0) + ")",
                    "mode");
}

}  // namespace redist::lau
