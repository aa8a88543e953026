// The JSON entry points of redist/balance.hpp: what `redist balance advise|simulate|plan` print.
#include "redist/balance.hpp"
#include "redist/io/balance_json.hpp"
#include "redist/io/options.hpp"
#include "redist/io/suggest.hpp"
#include "redist/ring.hpp"
#include "redist/text/balance_summary.hpp"

namespace redist::balance {

std::string advise_json(std::string_view instance, std::string_view options) {
  return io::located_in("$.balance", [&] {
    const io::EntryOptions o(options, {"format"});
    const bool text = o.wants_text();
    const AdviseInput input = io::read_advise_instance(io::parse_document(instance));
    const Advice advice = advise(input);
    if (text) {
      const ring::Instance moved = redistribution_instance(input.ring, input.loads, advice.targets);
      return text::advise_summary(input, advice, ring::check(moved, advice.schedule),
                                  "redist balance advise", "");
    }
    return io::output_text(io::write_advice(advice));
  });
}

std::string simulate_json(std::string_view instance, std::string_view options) {
  return io::located_in("$.balance", [&] {
    const io::EntryOptions o(options, {"policy"});
    if (!o.has("policy")) throw OptionError("a policy is required", "policy");
    const std::string policy = o.text("policy", "");
    const Trace trace = io::read_balance_trace(io::parse_document(instance));
    return io::output_text(io::write_simulation(
        io::suggesting("policy", policy, policy_names(), [&] { return simulate(trace, policy); })));
  });
}

}  // namespace redist::balance
