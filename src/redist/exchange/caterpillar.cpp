#include "redist/exchange/caterpillar.hpp"

#include <fmt/format.h>

#include "redist/exchange/step_plans.hpp"
#include "redist/exchange/steps.hpp"

namespace redist::exchange {

Plan plan_caterpillar(const Instance& instance) {
  validate_instance(instance);
  const std::size_t p = instance.nodes;
  std::vector<Step> steps(p);
  for (std::size_t k = 0; k < instance.messages.size(); ++k) {
    const Message& m = instance.messages[k];
    const std::size_t t = (static_cast<std::size_t>(m.from) + static_cast<std::size_t>(m.to)) % p;
    steps[t].push_back({k, static_cast<double>(m.bytes)});
  }
  std::size_t busy = 0;
  for (const Step& s : steps) busy += s.empty() ? 0 : 1;
  steps = split_for_backbone(instance, std::move(steps));
  std::size_t run = 0;
  for (const Step& s : steps) run += s.empty() ? 0 : 1;
  Plan plan = step_plan(instance, steps, "caterpillar");
  plan.notes.push_back(
      busy == p ? fmt::format("all {} steps carry messages", p)
                : fmt::format("{} of {} steps carry messages (the others are skipped)", busy, p));
  if (run > busy) {
    plan.notes.push_back(
        fmt::format("{} steps once split so that at most {} pieces cross the backbone at once", run,
                    instance.backbone->transfers));
  }
  note_step_lengths(plan, instance, steps);
  return plan;
}

}  // namespace redist::exchange
