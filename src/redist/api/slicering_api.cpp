// The JSON entry points of redist/slicering.hpp: what `redist slicering plan|check` print.
#include "redist/io/options.hpp"
#include "redist/io/slicering_json.hpp"
#include "redist/io/suggest.hpp"
#include "redist/slicering.hpp"
#include "redist/text/slicering_summary.hpp"

namespace redist::slicering {

std::string plan_json(std::string_view instance, std::string_view options) {
  return io::located_in("$.cluster", [&] {
    const io::EntryOptions o(options, {"algorithm", "q", "time_limit", "format"});
    PlanOptions plan_options{o.text("algorithm", "auto"), std::nullopt, o.real("time_limit")};
    if (const auto q = o.integer("q")) {
      if (*q < 1) throw OptionError("ring size must be >= 1", "q");
      plan_options.ring_size = static_cast<std::size_t>(*q);
    }
    const bool text = o.wants_text();
    const Cluster cluster = io::read_cluster(io::parse_document(instance));
    const Solution solution = io::suggesting("algorithm", plan_options.algorithm,
                                             io::names_of(slicering_algorithm_names()),
                                             [&] { return plan(cluster, plan_options); });
    if (text) {
      return text::slicering_summary(cluster, solution, check(cluster, solution),
                                     "redist slicering plan", "");
    }
    return io::output_text(io::write_slicering_solution(solution));
  });
}

std::string check_json(std::string_view instance, std::string_view solution) {
  return io::located_in("$.cluster", [&] {
    const Cluster cluster = io::read_cluster(io::parse_document(instance));
    const io::SolutionDocument doc = io::read_slicering_solution(io::parse_document(solution));
    return io::check_result_text(check(cluster, doc.ring, doc.alpha, doc.claims));
  });
}

}  // namespace redist::slicering
