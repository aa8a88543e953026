// The JSON entry points of redist/exchange.hpp: what `redist exchange plan|check|bound` print.
#include "redist/exchange.hpp"
#include "redist/io/exchange_json.hpp"
#include "redist/io/options.hpp"
#include "redist/io/suggest.hpp"
#include "redist/text/exchange_summary.hpp"

namespace redist::exchange {

std::string plan_json(std::string_view instance, std::string_view options) {
  return io::located_in("$.exchange", [&] {
    const io::EntryOptions o(options, {"algorithm", "time_limit", "format"});
    const std::string algorithm = o.text("algorithm", "auto");
    const std::optional<double> time_limit = o.real("time_limit");
    const bool text = o.wants_text();
    const Instance in = io::read_exchange_instance(io::parse_document(instance));
    const Plan result = io::suggesting("algorithm", algorithm, io::names_of(kAlgorithms),
                                       [&] { return plan(in, algorithm, time_limit); });
    if (text)
      return text::exchange_summary(in, result, check(in, result), "redist exchange plan", "");
    return io::exchange_plan_json(result);
  });
}

std::string check_json(std::string_view instance, std::string_view plan_text) {
  return io::located_in("$.exchange", [&] {
    const Instance in = io::read_exchange_instance(io::parse_document(instance));
    const io::ExchangePlanDocument doc = io::read_exchange_plan(plan_text);
    return io::check_result_text(check(in, doc.plan, doc.stated));
  });
}

std::string bound_json(std::string_view instance) {
  return io::located_in("$.exchange", [&] {
    return io::exchange_bound_json(
        bounds(io::read_exchange_instance(io::parse_document(instance))));
  });
}

}  // namespace redist::exchange
