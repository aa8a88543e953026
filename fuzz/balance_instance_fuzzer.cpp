// Rebalancing readers (docs/formats.md, "Rebalancing commands"): any bytes either read as an
// advise instance or a trace, or are refused with an InputError. A read advise instance on a ring
// of at most 64 processors is advised: the targets sum to the items, the answer follows the
// cost-benefit rule and the printed advice has finite numbers. A read trace of at most 4,096
// speeds is simulated under every online policy: every total is finite, at least the lower bound
// and the sum of its parts, and none beats `oracle`.
#include <numeric>

#include "fuzz/fuzz_support.hpp"
#include "redist/balance.hpp"
#include "redist/io/balance_json.hpp"

using namespace redist;

namespace {

void check_advice(const balance::AdviseInput& in) {
  if (in.speeds.size() > 64) return;
  const balance::Advice a = balance::advise(in);
  const std::int64_t items = std::accumulate(in.loads.begin(), in.loads.end(), std::int64_t{0});
  fuzz::require(std::accumulate(a.targets.begin(), a.targets.end(), std::int64_t{0}) == items,
                "advise targets do not sum to the items");
  fuzz::require(a.rebalance == (a.predicted_saving > a.plan_makespan),
                "advise answer does not follow the cost-benefit rule");
  fuzz::parse_output(io::write_advice(a).dump(), "write_advice");
}

void check_trace(const balance::Trace& trace) {
  if (trace.speeds.size() * trace.ring.size() > 4096) return;
  const double oracle = balance::simulate(trace, "oracle").total_time;
  for (const char* policy : {"never", "every:2", "threshold:1.1", "cost-benefit", "period-rule",
                             "stable-horizon", "replay", "hedged-replay"}) {
    const balance::SimulationResult r = balance::simulate(trace, policy);
    fuzz::parse_output(io::write_simulation(r).dump(), "write_simulation");
    fuzz::require(fuzz::at_most(r.lower_bound, r.total_time),
                  std::string(policy) + " beats the bound");
    fuzz::require(fuzz::at_most(oracle, r.total_time), std::string(policy) + " beats the oracle");
    fuzz::require(fuzz::at_most(r.compute_time + r.redistribution_time, r.total_time) &&
                      fuzz::at_most(r.total_time, r.compute_time + r.redistribution_time),
                  std::string(policy) + " total is not the sum of its parts");
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  io::Json document;
  if (!fuzz::only_input_errors([&] { document = io::parse_document(fuzz::as_text(data, size)); }))
    return 0;
  fuzz::only_input_errors([&] { check_advice(io::read_advise_instance(document)); });
  fuzz::only_input_errors([&] { check_trace(io::read_balance_trace(document)); });
  return 0;
}
