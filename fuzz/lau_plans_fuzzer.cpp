// Structured fuzzer of LAU load distribution (docs/lau.md): valid instances drawn from the bytes
// (average or explicit targets), every algorithm in both modes run as `redist lau plan` does.
// Each plan's flows must balance every node, its printed times must equal the step-by-step
// simulations (simulate.hpp, independent of the closed forms), no algorithm may beat `optimal`,
// and on small instances `optimal` is compared with every valid schedule (LAU Lemma 1: the shifts
// linear - h).
#include <algorithm>

#include "fuzz/structured.hpp"
#include "redist/io/lau_json.hpp"
#include "redist/lau/closed_forms.hpp"
#include "redist/lau/optimal_window.hpp"
#include "redist/lau/planner.hpp"
#include "redist/lau/simulate.hpp"

using namespace redist;

namespace {

lau::Instance draw_lau(FuzzedDataProvider& in) {
  const std::size_t n = fuzz::draw_size(in, 2, 10, 2000);
  const std::int64_t max_total = in.PickValueInArray<std::int64_t>(
      {20, 1000, 1'000'000'000, std::int64_t{1} << 40, std::int64_t{1} << 62});
  lau::Instance instance;
  instance.loads = fuzz::draw_counts(in, n, max_total);
  if (in.ConsumeBool()) {
    instance.targets = fuzz::draw_same_total(in, instance.loads);
    return instance;
  }
  // Targets = the average: make the total divisible by n.
  std::int64_t total = 0;
  for (std::int64_t x : instance.loads) total += x;
  instance.loads[0] -= std::min(instance.loads[0], total % static_cast<std::int64_t>(n));
  total = 0;
  for (std::int64_t x : instance.loads) total += x;
  instance.loads.back() += (n - total % static_cast<std::int64_t>(n)) % n;
  return lau::balanced_instance(instance.loads);
}

std::string show(const lau::Time& t) { return t ? fuzz::show(*t) : "deadlock"; }

// The best time over every valid schedule, by brute force over h (small instances only).
lau::Time brute_force(const lau::Instance& instance, lau::Mode mode) {
  const auto linear = lau::linear_flows(instance);
  const auto [low, high] = std::minmax_element(linear.begin(), linear.end());
  lau::Time best;
  bool first = true;
  for (std::int64_t h = *low; h <= *high; ++h) {
    const auto flows = lau::shifted(linear, h);
    const lau::Time t = mode == lau::Mode::single ? lau::t_single_closed(instance, flows)
                                                  : lau::t_multi_closed(instance, flows);
    if (first || lau::time_less(t, best)) best = t;
    first = false;
  }
  return best;
}

void check_plan(const lau::Instance& instance, const lau::Plan& plan, const std::string& name) {
  fuzz::require(!lau::unbalanced_node(instance, plan.flows), name + ": flows do not balance");
  const std::string text = io::lau_plan_json(plan);
  fuzz::parse_output(text, name, {"t_single", "t_multi"});
  const lau::Time single = lau::simulate_single(instance, plan.flows);
  fuzz::require(single == plan.t_single,
                name + ": t_single " + show(plan.t_single) + " != simulated " + show(single));
  try {
    const auto n = static_cast<std::int64_t>(instance.size());
    const lau::Time multi = lau::simulate_multi(instance, plan.flows, 2'000'000 / n + 1);
    fuzz::require(multi == plan.t_multi,
                  name + ": t_multi " + show(plan.t_multi) + " != simulated " + show(multi));
  } catch (const lau::TooManySteps&) {
  }
}

// optimal-window tries every h of its window (up to 2e9 evaluations by its own limit): skipped
// beyond 10^6 here so that one input stays under a second.
bool slow_window(const lau::Instance& instance) {
  bool slow = true;
  fuzz::only_input_errors([&] {
    const lau::Plan traffic = lau::plan(instance, {"traffic", lau::Mode::single});
    const double window = static_cast<double>(lau::deficit_window(instance, traffic.flows).size());
    slow = window * static_cast<double>(instance.size()) > 1e6;
  });
  return slow;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  FuzzedDataProvider in(data, size);
  lau::Instance instance;
  if (!fuzz::only_input_errors([&] { instance = draw_lau(in); })) return 0;
  fuzz::finding_context() =
      nlohmann::json{{"lau", {{"loads", instance.loads}, {"targets", instance.targets}}}}.dump();
  // Only what the reader accepts is a valid instance.
  if (!fuzz::only_input_errors([&] {
        instance =
            io::read_lau_document(io::parse_document(fuzz::finding_context()), false).instance;
      })) {
    return 0;
  }
  for (lau::Mode mode : {lau::Mode::single, lau::Mode::multi}) {
    lau::Time best;
    if (!fuzz::only_input_errors([&] {
          const lau::Plan optimal = lau::plan(instance, {"optimal", mode});
          check_plan(instance, optimal, std::string("optimal/") + lau::mode_name(mode));
          best = lau::time_in(optimal, mode);
        })) {
      continue;
    }
    for (const char* algorithm : {"linear", "traffic", "optimal-window"}) {
      const std::string name = std::string(algorithm) + "/" + lau::mode_name(mode);
      if (name.find("optimal-window") == 0 && slow_window(instance)) continue;
      fuzz::only_input_errors([&] {
        const lau::Plan plan = lau::plan(instance, {algorithm, mode});
        check_plan(instance, plan, name);
        fuzz::require(!lau::time_less(lau::time_in(plan, mode), best), name + " beats optimal");
      });
    }
    fuzz::only_input_errors([&] {
      const auto linear = lau::linear_flows(instance);
      const auto [low, high] = std::minmax_element(linear.begin(), linear.end());
      if (instance.size() > 12 || *high - *low > 2000) return;
      const lau::Time truth = brute_force(instance, mode);
      fuzz::require(best == truth, std::string("optimal/") + lau::mode_name(mode) + " gives " +
                                       show(best) + ", brute force " + show(truth));
    });
  }
  return 0;
}
