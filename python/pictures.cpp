// The pictures of the Python package (pictures.hpp): each reads the documents as the family's
// `check` command does, refuses a chart over the renderer's limits before checking, checks the
// schedule with the family's validator and draws it with redist/svg/.
#include "pictures.hpp"

#include <stdexcept>

#include "redist/balance.hpp"
#include "redist/dlt.hpp"
#include "redist/exchange.hpp"
#include "redist/io/balance_json.hpp"
#include "redist/io/dlt_json.hpp"
#include "redist/io/exchange_json.hpp"
#include "redist/io/lau_json.hpp"
#include "redist/io/options.hpp"
#include "redist/io/ring_json.hpp"
#include "redist/io/slicering_json.hpp"
#include "redist/io/star_json.hpp"
#include "redist/lau.hpp"
#include "redist/ring.hpp"
#include "redist/slicering.hpp"
#include "redist/star.hpp"
#include "redist/svg/dlt_gantt.hpp"
#include "redist/svg/exchange_gantt.hpp"
#include "redist/svg/lau_steps.hpp"
#include "redist/svg/ring_gantt.hpp"
#include "redist/svg/slicering_ring.hpp"
#include "redist/svg/star_gantt.hpp"

namespace redist::python {

namespace {

// Only a valid schedule is drawn, as by `check --gantt`.
void require_valid(const CheckResult& verdict) {
  if (!verdict.valid)
    throw std::invalid_argument("cannot draw an invalid schedule: " + verdict.reason);
}

// The validator's errors about the flows (overflows of the times they imply) come at "flows" or
// "h"; they are placed at the plan's flows, `$.flows`, as `redist lau check` places them.
CheckResult check_lau_plan(const lau::Instance& instance, const io::LauPlanDocument& document) {
  try {
    return lau::check(instance, document.plan, document.stated);
  } catch (const InputError& e) {
    if (e.path() == "flows" || e.path() == "h") throw InputError(e.message(), "$.flows");
    throw;
  }
}

// The redistribution an advice plans must be a ring instance (targets as many as the loads, with
// the same sum); its errors are placed in the advice document (`$.targets`).
void require_valid_targets(const ring::Instance& moved) {
  try {
    ring::validate_instance(moved);
  } catch (const InputError& e) {
    if (e.path().rfind("targets", 0) == 0) throw InputError(e.message(), "$." + e.path());
    throw;
  }
}

}  // namespace

std::string ring_gantt(std::string_view instance, std::string_view schedule,
                       const std::string& title) {
  return io::located_in("$.ring", [&] {
    const ring::Instance in = io::read_ring_instance(io::parse_document(instance));
    const io::RingScheduleDocument document = io::read_ring_schedule(schedule);
    svg::require_gantt_size(in.size(), document.schedule.transfers.size(), "gantt");
    require_valid(ring::check(in, document.schedule, document.stated));
    return svg::ring_gantt_svg(in, document.schedule, title);
  });
}

std::string lau_gantt(std::string_view instance, std::string_view plan, const std::string& title) {
  return io::located_in("$.lau", [&] {
    const lau::Instance in = io::read_lau_document(io::parse_document(instance), false).instance;
    const io::LauPlanDocument document = io::read_lau_plan(io::parse_document(plan));
    svg::require_step_chart_size(in.size(), 0, 0);
    require_valid(check_lau_plan(in, document));
    svg::require_step_chart_size(in, document.plan.flows, document.plan.mode);
    return svg::lau_steps_svg(in, document.plan, title);
  });
}

std::string star_gantt(std::string_view instance, std::string_view schedule,
                       const std::string& title) {
  return io::located_in("$.star", [&] {
    const star::Instance in = io::read_star_instance(io::parse_document(instance));
    const io::StarScheduleDocument document = io::read_star_schedule(schedule);
    svg::require_star_gantt_size(in.workers(), document.schedule.transfers.size());
    require_valid(star::check(in, document.schedule, document.stated));
    return svg::star_gantt_svg(in, document.schedule, title);
  });
}

std::string dlt_gantt(std::string_view instance, std::string_view schedule,
                      const std::string& title) {
  return io::located_in("$.dlt", [&] {
    const dlt::Instance in = io::read_dlt_instance(io::parse_document(instance));
    const io::DltScheduleDocument document = io::read_dlt_schedule(schedule);
    svg::require_dlt_gantt_size(in.workers(), document.schedule.transfers.size());
    require_valid(dlt::check(in, document.schedule, document.stated));
    return svg::dlt_gantt_svg(in, document.schedule, title);
  });
}

std::string exchange_gantt(std::string_view instance, std::string_view plan,
                           const std::string& title) {
  const exchange::Instance in = io::located_in(
      "$.exchange", [&] { return io::read_exchange_instance(io::parse_document(instance)); });
  const io::ExchangePlanDocument document = io::read_exchange_plan(plan);
  io::located_in("$.exchange", [&] {
    svg::require_chart_size(svg::kExchangeChartLimits, in.nodes, document.plan.pieces.size(),
                            "gantt");
  });
  require_valid(exchange::check(in, document.plan, document.stated));
  return svg::exchange_gantt_svg(in, document.plan, title);
}

std::string slicering_gantt(std::string_view cluster, std::string_view solution,
                            const std::string& title) {
  return io::located_in("$.cluster", [&] {
    const slicering::Cluster in = io::read_cluster(io::parse_document(cluster));
    const io::SolutionDocument document = io::read_slicering_solution(io::parse_document(solution));
    svg::require_ring_picture_size(in.size(), document.ring.size());
    require_valid(slicering::check(in, document.ring, document.alpha, document.claims));
    return svg::slicering_ring_svg(in, io::solution_of(document), title);
  });
}

std::string balance_gantt(std::string_view instance, std::string_view advice,
                          const std::string& title) {
  return io::located_in("$.balance", [&] {
    const balance::AdviseInput in = io::read_advise_instance(io::parse_document(instance));
    const io::Json document = io::parse_document(advice);
    io::as_object(document, "$");
    const std::vector<std::int64_t> targets =
        io::as_int64_array(io::require(document, "$", "targets"), "$.targets");
    const io::RingScheduleDocument schedule =
        io::read_ring_schedule(io::require(document, "$", "schedule").dump());
    const ring::Instance moved = balance::redistribution_instance(in.ring, in.loads, targets);
    require_valid_targets(moved);
    svg::require_gantt_size(moved.size(), schedule.schedule.transfers.size(), "gantt");
    require_valid(ring::check(moved, schedule.schedule, schedule.stated));
    return svg::ring_gantt_svg(moved, schedule.schedule, title);
  });
}

}  // namespace redist::python
