// The picture of `redist slicering plan|check --gantt` (PlanCheckCommand::chart): from the
// instance and solution texts to redist/svg/slicering_ring.hpp.
#include "apps/redist/cli.hpp"
#include "redist/common/error.hpp"
#include "redist/io/json.hpp"
#include "redist/io/options.hpp"
#include "redist/io/slicering_json.hpp"
#include "redist/slicering.hpp"
#include "redist/svg/slicering_ring.hpp"

namespace redist::cli {

std::string slicering_picture(const std::string& instance_text, const std::string& solution_text,
                              const std::string& title) {
  const slicering::Cluster cluster = io::located_in(
      "$.cluster", [&] { return io::read_cluster(io::parse_document(instance_text)); });
  svg::require_ring_picture_size(cluster.size(), 0);
  if (solution_text.empty()) return "";
  const io::Json document = io::parse_document(solution_text);
  const io::SolutionDocument doc = io::read_slicering_solution(document);
  svg::require_ring_picture_size(cluster.size(), doc.ring.size());
  if (title.empty()) return "";
  slicering::Solution s;  // valid: `check` accepted it, or `plan` wrote it
  s.ring.assign(doc.ring.begin(), doc.ring.end());
  s.alpha = doc.alpha;
  s.makespan = doc.makespan.value_or(doc.t_step.value_or(0.0));
  s.lower_bound = doc.lower_bound;
  s.optimal = doc.optimal.value_or(false);
  if (const auto it = document.find("algorithm"); it != document.end() && it->is_string()) {
    s.algorithm = it->get<std::string>();
  }
  return svg::slicering_ring_svg(cluster, s, title);
}

}  // namespace redist::cli
