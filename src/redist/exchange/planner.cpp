#include "redist/exchange/planner.hpp"

#include <algorithm>
#include <chrono>
#include <string>
#include <utility>

#include <fmt/format.h>

#include "redist/common/error.hpp"
#include "redist/common/tolerance.hpp"
#include "redist/exchange/all_at_once.hpp"
#include "redist/exchange/busiest_first.hpp"
#include "redist/exchange/caterpillar.hpp"
#include "redist/exchange/exact.hpp"
#include "redist/exchange/greedy_steps.hpp"
#include "redist/exchange/kpbs.hpp"
#include "redist/exchange/limits.hpp"
#include "redist/exchange/min_steps.hpp"
#include "redist/exchange/ordered_execution.hpp"
#include "redist/exchange/preemptive.hpp"
#include "redist/exchange/steps.hpp"
#include "redist/exchange/whole.hpp"

namespace redist::exchange {
namespace {

std::string known_names() {
  std::string names;
  for (const AlgorithmName& a : kAlgorithms) {
    names += (names.empty() ? "" : ", ") + std::string(a.name);
  }
  return names;
}

// `auto` runs oggp under a backbone only within oggp's own limit.
static_assert(kAutoStepMessages <= kMaxOggpMessages);

// Instances of at most this many messages are small enough for `auto` to search them exactly.
constexpr std::size_t kAutoExactMessages = 4;

Plan better(Plan a, Plan b) { return a.makespan <= b.makespan ? std::move(a) : std::move(b); }

// The gap of a plan to its lower bound (PlanClaims::gap()), in percent, for a note.
std::string gap_percent(const Plan& plan) {
  return fmt::format("{:.3g}%", 100 * plan.gap().value_or(0.0));
}

// `whole`, or preemptive's optimum when whole misses the bound, preemptive applies and its
// augmenting paths fit in kAutoPreemptiveScansPerEdge scans per edge (whole, with a note stating
// its gap, otherwise).
Plan whole_or_preemptive(const Instance& instance) {
  Plan whole = plan_whole(instance);
  if (whole.optimal) return whole;
  const std::size_t m = instance.messages.size();
  const bool latency = instance.latency > 0;
  if (m <= (latency ? kAutoStepMessages : kAutoPreemptiveMessages)) {
    const auto edges = static_cast<std::int64_t>(2 * (m + instance.nodes));
    if (auto p = plan_preemptive_within(instance, kAutoPreemptiveScansPerEdge * edges)) {
      return better(std::move(*p), std::move(whole));
    }
    whole.notes.push_back(fmt::format(
        "auto: whole, {} above the lower bound; preemptive stopped after {} edge scans per edge",
        gap_percent(whole), kAutoPreemptiveScansPerEdge));
  } else {
    whole.notes.push_back(fmt::format(
        "auto: whole, {} above the lower bound; preemptive not tried beyond {} messages",
        gap_percent(whole), latency ? kAutoStepMessages : kAutoPreemptiveMessages));
  }
  return whole;
}

// busiest-first's own limit, which `auto` respects rather than refusing the instance.
bool within_busiest_first_limit(const Instance& instance) {
  const std::size_t m = instance.messages.size();
  return m == 0 || largest_degree(instance) <= kMaxBusiestFirstMessagesTimesDegree / m;
}

// A candidate of `auto` under a backbone, with the makespan of the MPI executor's run of it
// (ordered_execution.hpp): the executor does not hold crossing pieces back, so that run, not the
// plan's own makespan, is what the candidates are ranked by.
struct Ranked {
  Plan plan;
  double executed = 0.0;
};
Ranked ranked(const Instance& instance, Plan plan) {
  const double executed = ordered_execution_makespan(instance, plan);
  return {std::move(plan), executed};
}
Ranked faster(Ranked a, Ranked b) { return a.executed <= b.executed ? std::move(a) : std::move(b); }
bool at_the_bound(const Ranked& r) { return at_most(r.executed, r.plan.lower_bound.value_or(0.0)); }

// all-at-once in its three fixed post orders and, up to kAutoStepMessages messages, 16 to 256
// seeded ones (planner.hpp, kAutoShuffledMessages; latency 0: MPI_Alltoallv's behaviour, so the
// plan is never predicted slower than the call). Plans beyond kAutoSharedPiecesPerMessage pieces
// per message are not kept; a note states how much faster the executor's run of one would have
// been.
Ranked with_all_at_once(const Instance& instance, Ranked best) {
  const double cap = static_cast<double>(kAutoSharedPiecesPerMessage * instance.messages.size());
  std::string skipped;
  const std::size_t m = instance.messages.size();
  const std::size_t shuffles = m > kAutoStepMessages
                                   ? 0
                                   : std::clamp(kAutoShuffledMessages / std::max<std::size_t>(m, 1),
                                                kAutoShuffledOrders, kAutoMostShuffledOrders);
  for (std::size_t run = 0; run < 3 + shuffles; ++run) {
    constexpr PostOrder kFixed[] = {PostOrder::rank, PostOrder::rank_offset,
                                    PostOrder::longest_first};
    Plan shared = run < 3 ? plan_all_at_once(instance, kFixed[run])
                          : plan_all_at_once(instance, PostOrder::shuffled, run - 2);
    if (static_cast<double>(shared.pieces.size()) <= cap) {
      best = faster(std::move(best), ranked(instance, std::move(shared)));
    } else if (shared.makespan < best.executed && skipped.empty()) {
      // all-at-once holds no crossing piece back: its makespan is close to its run.
      skipped = fmt::format(
          "auto: all-at-once not kept: {} pieces, more than {} per message (its makespan {:.6g} "
          "s, {:.3g}% below the plan's run)",
          shared.pieces.size(), kAutoSharedPiecesPerMessage, shared.makespan,
          100 * (1 - shared.makespan / best.executed));
    }
  }
  if (!skipped.empty() && best.plan.algorithm != "all-at-once") best.plan.notes.push_back(skipped);
  return best;
}

// Under a backbone: the fastest, run as the executor runs it, of whole, busiest-first (within its
// limit), all-at-once (latency 0) and oggp, which runs only up to kAutoStepMessages messages and
// only when its step bound eta (every piece of a step counted against the transfers) is below the
// fastest run so far: otherwise it cannot win. Stops at the first run that meets the lower bound;
// beyond kAutoBackboneSearchMessages messages, whole alone.
Plan plan_backbone(const Instance& instance) {
  Ranked best = ranked(instance, plan_whole(instance));
  if (instance.messages.size() > kAutoBackboneSearchMessages && !at_the_bound(best)) {
    best.plan.notes.push_back(fmt::format(
        "auto: whole, {} above the lower bound, {:.6g} s as the executor runs it; busiest-first "
        "and all-at-once not tried beyond {} messages",
        gap_percent(best.plan), best.executed, kAutoBackboneSearchMessages));
    return std::move(best.plan);
  }
  if (!at_the_bound(best) && within_busiest_first_limit(instance)) {
    best = faster(std::move(best), ranked(instance, plan_busiest_first(instance)));
  }
  if (!at_the_bound(best) && instance.latency == 0) best = with_all_at_once(instance, best);
  if (!at_the_bound(best) && instance.messages.size() <= kAutoStepMessages &&
      !at_most(best.executed, step_bound(instance).lower_bound)) {
    best = faster(std::move(best), ranked(instance, plan_oggp(instance)));
  }
  if (best.executed > best.plan.makespan * (1 + kTimeTolerance)) {
    best.plan.notes.push_back(fmt::format(
        "auto: plans ranked by the executor's run, which does not hold crossing pieces back: "
        "{:.6g} s for this plan",
        best.executed));
  }
  return std::move(best.plan);
}

Plan plan_auto(const Instance& instance, const Deadline& time_limit) {
  if (instance.backbone) return plan_backbone(instance);
  if (instance.latency > 0 && instance.messages.size() <= kAutoExactMessages) {
    try {
      return plan_exact(instance, time_limit);
    } catch (const OptionError&) {
      // the latency is too small next to the transfers for the search: fall through
    }
  }
  return whole_or_preemptive(instance);
}

Plan dispatch(const Instance& instance, std::string_view algorithm, const Deadline& time_limit) {
  if (algorithm == "auto") return plan_auto(instance, time_limit);
  if (algorithm == "preemptive") return plan_preemptive(instance);
  if (algorithm == "whole") return plan_whole(instance);
  if (algorithm == "busiest-first") return plan_busiest_first(instance);
  if (algorithm == "exact") return plan_exact(instance, time_limit);
  if (algorithm == "min-steps") return plan_min_steps(instance);
  if (algorithm == "caterpillar") return plan_caterpillar(instance);
  if (algorithm == "ggp") return plan_ggp(instance);
  if (algorithm == "oggp") return plan_oggp(instance);
  if (algorithm == "steps") return plan_steps(instance);
  throw OptionError(
      "unknown algorithm '" + one_line(algorithm, 40) + "' (expected one of " + known_names() + ")",
      "algorithm");
}

}  // namespace

Plan plan(const Instance& instance, std::string_view algorithm, std::optional<double> time_limit) {
  const auto started = std::chrono::steady_clock::now();
  Plan out = dispatch(instance, algorithm, Deadline(time_limit));
  if (time_limit && algorithm != "exact" && algorithm != "auto") {
    out.notes.push_back(time_limit_ignored(algorithm));
  }
  for (const std::string& field : instance.assumed_bandwidths) {
    out.notes.push_back(field + " not given: 1 byte per second assumed for every node");
  }
  if (instance.local_bytes > 0) {
    out.notes.push_back(fmt::format(
        "the matrix's diagonal ({} bytes) stays on its nodes: copied locally, not planned",
        instance.local_bytes));
  }
  out.solve_seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
  return out;
}

}  // namespace redist::exchange
