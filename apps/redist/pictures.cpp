// The pictures of `redist lau plan|check --gantt` (PlanCheckCommand::chart): from the instance and
// plan texts to redist/svg/lau_steps.hpp.
#include "apps/redist/cli.hpp"
#include "redist/common/error.hpp"
#include "redist/io/json.hpp"
#include "redist/io/lau_json.hpp"
#include "redist/io/options.hpp"
#include "redist/lau.hpp"
#include "redist/svg/lau_steps.hpp"

namespace redist::cli {

namespace {

// The plan's flows, mode and algorithm as `lau check` reads them (mode single when absent).
lau::Plan read_lau_plan(const io::Json& document, lau::Mode& mode) {
  io::as_object(document, "$");
  lau::Plan plan;
  plan.flows = io::as_int64_array(io::require(document, "$", "flows"), "$.flows");
  mode = lau::Mode::single;
  if (const auto it = document.find("mode"); it != document.end()) {
    const std::string name = io::as_string(*it, "$.mode");
    if (name != "single" && name != "multi") {
      throw InputError("unknown mode (expected single or multi)", "$.mode");
    }
    mode = name == "single" ? lau::Mode::single : lau::Mode::multi;
  }
  if (const auto it = document.find("algorithm"); it != document.end()) {
    plan.algorithm = io::as_string(*it, "$.algorithm");
  }
  return plan;
}

// Whether the flows can be drawn at all; those that cannot are left for `check` to refuse.
bool drawable(const lau::Instance& instance, const std::vector<std::int64_t>& flows) {
  return flows.size() == instance.size() && !lau::unbalanced_node(instance, flows);
}

}  // namespace

std::string lau_picture(const std::string& instance_text, const std::string& plan_text,
                        const std::string& title) {
  const lau::Instance instance = io::located_in("$.lau", [&] {
    return io::read_lau_document(io::parse_document(instance_text), false).instance;
  });
  svg::require_step_chart_size(instance.size(), 0, 0);
  if (plan_text.empty()) return "";
  lau::Mode mode = lau::Mode::single;
  lau::Plan plan = read_lau_plan(io::parse_document(plan_text), mode);
  if (!drawable(instance, plan.flows)) return "";
  svg::require_step_chart_size(instance, plan.flows, mode);
  if (title.empty()) return "";
  const lau::Plan best = lau::plan(instance, {"optimal", mode});
  const lau::Evaluation e = lau::evaluate(instance, plan.flows);
  plan.makespan = mode == lau::Mode::single ? e.t_single : e.t_multi;
  plan.lower_bound = best.makespan;
  plan.optimal = plan.makespan == best.makespan;
  return svg::lau_steps_svg(instance, plan, mode, title);
}

}  // namespace redist::cli
