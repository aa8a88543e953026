#include "redist/io/balance_json.hpp"

#include "redist/io/options.hpp"

#include <fmt/format.h>

#include "redist/balance/advise.hpp"
#include "redist/balance/simulate.hpp"
#include "redist/balance/targets.hpp"
#include "redist/common/checked.hpp"
#include "redist/io/ring_json.hpp"

namespace redist::io {
namespace {

const std::string kRoot = "$.balance";

// The ring's costs; p comes from the speeds (a row) or the loads.
balance::RingCosts read_ring(const Json& balance, std::size_t p) {
  const std::string path = kRoot + ".ring";
  const Json& ring = as_object(require(balance, kRoot, "ring"), path);
  reject_unknown_fields(ring, path, {"bidirectional", "cost_next", "cost_prev"});
  RingLinks links = read_ring_links(ring, path, p);
  return {links.bidirectional, std::move(links.cost_next), std::move(links.cost_prev)};
}

std::vector<double> read_speed_row(const Json& value, const std::string& path) {
  const Json& row = as_array(value, path);
  std::vector<double> speeds(row.size());
  for (std::size_t i = 0; i < row.size(); ++i)
    speeds[i] = as_positive_number(row[i], index_path(path, i));
  return speeds;
}

std::vector<std::int64_t> read_loads(const Json& balance, std::size_t p) {
  const std::string path = kRoot + ".loads";
  std::vector<std::int64_t> loads = as_int64_array(require(balance, kRoot, "loads"), path);
  if (loads.size() != p)
    throw InputError(fmt::format("has {} entries, the speeds {}", loads.size(), p), path);
  for (std::size_t i = 0; i < p; ++i)
    if (loads[i] < 0) throw InputError("a count must be >= 0", index_path(path, i));
  if (!checked_sum(loads)) throw InputError("the loads sum beyond 64 bits", path);
  return loads;
}

std::size_t require_processors(std::size_t p, const std::string& path) {
  if (p < 2) throw InputError(fmt::format("a ring needs at least 2 processors, got {}", p), path);
  if (p > balance::kMaxProcessors)
    throw InputError(fmt::format("more than {} processors", balance::kMaxProcessors), path);
  return p;
}

const Json& balance_object(const Json& document) {
  as_object(document, "$");
  reject_unknown_fields(document, "$", {"balance"});
  return as_object(require(document, "$", "balance"), kRoot);
}

}  // namespace

balance::AdviseInput read_advise_instance(const Json& document) {
  const Json& b = balance_object(document);
  reject_unknown_fields(b, kRoot, {"ring", "loads", "speeds", "remaining_iterations"});
  balance::AdviseInput in;
  in.speeds = read_speed_row(require(b, kRoot, "speeds"), kRoot + ".speeds");
  const std::size_t p = require_processors(in.speeds.size(), kRoot + ".speeds");
  in.ring = read_ring(b, p);
  in.loads = read_loads(b, p);
  in.remaining_iterations =
      as_int64(require(b, kRoot, "remaining_iterations"), kRoot + ".remaining_iterations");
  if (in.remaining_iterations < 0)
    throw InputError("must be >= 0", kRoot + ".remaining_iterations");
  return in;
}

balance::Trace read_balance_trace(const Json& document) {
  const Json& b = balance_object(document);
  reject_unknown_fields(b, kRoot, {"ring", "speeds", "loads", "items"});
  const std::string spath = kRoot + ".speeds";
  const Json& rows = as_array(require(b, kRoot, "speeds"), spath);
  if (rows.empty()) throw InputError("at least one iteration (one row of speeds) is needed", spath);
  if (rows.size() > static_cast<std::size_t>(balance::kMaxIterations))
    throw InputError(fmt::format("more than {} iterations", balance::kMaxIterations), spath);
  balance::Trace trace;
  for (std::size_t t = 0; t < rows.size(); ++t) {
    trace.speeds.push_back(read_speed_row(rows[t], index_path(spath, t)));
    if (trace.speeds[t].size() != trace.speeds[0].size())
      throw InputError(fmt::format("has {} speeds, row 0 has {}", trace.speeds[t].size(),
                                   trace.speeds[0].size()),
                       index_path(spath, t));
  }
  const std::size_t p = require_processors(trace.speeds[0].size(), index_path(spath, 0));
  trace.ring = read_ring(b, p);
  const bool loads = b.contains("loads"), items = b.contains("items");
  if (loads == items)
    throw InputError("give exactly one of loads and items", kRoot + (loads ? ".items" : ".loads"));
  if (loads) {
    trace.initial_loads = read_loads(b, p);
  } else {
    const std::int64_t n = as_int64(b["items"], kRoot + ".items");
    if (n < 0) throw InputError("must be >= 0", kRoot + ".items");
    trace.initial_loads = balance::balanced_targets(n, trace.speeds[0]);
  }
  located_in(kRoot, [&] { balance::validate_trace(trace); });
  return trace;
}

OrderedJson write_advice(const balance::Advice& a) {
  OrderedJson out;
  out["rebalance"] = a.rebalance;
  out["iteration_time"] = a.iteration_time;
  out["balanced_iteration_time"] = a.balanced_iteration_time;
  out["predicted_saving"] = a.predicted_saving;
  out["plan_makespan"] = a.plan_makespan;
  out["targets"] = a.targets;
  out["schedule"] = OrderedJson::parse(ring_schedule_json(a.schedule));
  return out;
}

OrderedJson write_simulation(const balance::SimulationResult& r) {
  OrderedJson out;
  out["policy"] = r.policy;
  out["iterations"] = r.iterations;
  out["total_time"] = r.total_time;
  out["compute_time"] = r.compute_time;
  out["redistribution_time"] = r.redistribution_time;
  out["lower_bound"] = r.lower_bound;
  out["rebalances"] = OrderedJson::array();
  for (const balance::Rebalance& b : r.rebalances)
    out["rebalances"].push_back(
        {{"after_iteration", b.after_iteration}, {"targets", b.targets}, {"makespan", b.makespan}});
  out["iteration_times"] = r.iteration_times;
  return out;
}

}  // namespace redist::io
