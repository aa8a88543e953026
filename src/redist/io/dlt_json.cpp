#include "redist/io/dlt_json.hpp"

#include <fmt/format.h>

#include "redist/common/error.hpp"

namespace redist::io {

namespace {

// One transfer of the schedule document at `path`.
dlt::Transfer read_transfer(const Json& t, std::size_t k) {
  const std::string path = index_path("$.transfers", k);
  if (static_cast<std::int64_t>(k) >= dlt::kMaxCheckedTransfers) {
    throw InputError(fmt::format("more than {} transfers: too many to check; split the schedule",
                                 dlt::kMaxCheckedTransfers),
                     path);
  }
  as_object(t, path);
  reject_unknown_fields(t, path, {"from", "to", "amount", "rate"});
  dlt::Transfer tr;
  tr.from = as_int64(require(t, path, "from"), child_path(path, "from"));
  tr.to = as_int64(require(t, path, "to"), child_path(path, "to"));
  tr.amount = as_finite_number(require(t, path, "amount"), child_path(path, "amount"));
  tr.rate = as_finite_number(require(t, path, "rate"), child_path(path, "rate"));
  return tr;
}

}  // namespace

dlt::Instance read_dlt_instance(const Json& document) {
  as_object(document, "$");
  reject_unknown_fields(document, "$", {"dlt"});
  const std::string path = "$.dlt";
  const Json& dlt = as_object(require(document, "$", "dlt"), path);
  reject_unknown_fields(dlt, path, {"b", "s", "alpha"});
  dlt::Instance in;
  in.b = as_finite_number_array(require(dlt, path, "b"), child_path(path, "b"));
  in.s = as_finite_number_array(require(dlt, path, "s"), child_path(path, "s"));
  in.alpha = as_finite_number_array(require(dlt, path, "alpha"), child_path(path, "alpha"));
  try {
    dlt::validate_instance(in);
  } catch (const InputError& e) {
    // The model's paths are JSONPath tails of our own (`alpha[2]`): appended as they are.
    throw InputError(e.message(), path + "." + e.path());
  }
  return in;
}

DltScheduleDocument read_dlt_schedule(std::string_view text) {
  DltScheduleDocument doc;
  dlt::Schedule& s = doc.schedule;
  const ArrayStream transfers{"transfers", [&s](const Json& t, std::size_t k) {
                                s.transfers.push_back(read_transfer(t, k));
                              }};
  const Json document = parse_document(text, &transfers);
  const std::string path = "$";
  as_object(document, path);
  // Every member `dlt plan` writes, and nothing else.
  reject_unknown_fields(document, path,
                        {"algorithm", "solver", "makespan", "lower_bound", "gap", "optimal",
                         "status", "delta", "transfers", "seconds"});
  as_array(require(document, path, "transfers"), child_path(path, "transfers"));
  const PlanSummary summary = read_plan_summary(document);
  doc.stated.makespan = summary.makespan.has_value();
  read_plan_claims(summary, s);
  if (auto it = document.find("gap"); it != document.end()) {
    as_finite_number(*it, child_path(path, "gap"));
  }
  if (auto it = document.find("solver"); it != document.end()) {
    as_string(*it, child_path(path, "solver"));
  }
  doc.stated.delta = false;
  if (auto it = document.find("delta"); it != document.end()) {
    s.delta = as_finite_number_array(*it, child_path(path, "delta"));
    doc.stated.delta = true;
  }
  return doc;
}

std::string dlt_plan_json(const dlt::Schedule& s) {
  OrderedJson out;
  out["algorithm"] = s.algorithm;
  out["solver"] = dlt::to_string(s.solver);
  out["makespan"] = s.makespan;
  if (s.lower_bound) out["lower_bound"] = *s.lower_bound;
  // A proven optimum has no gap, written 0 as in the other families' plans.
  if (const std::optional<double> gap = s.gap()) {
    out["gap"] = s.optimal ? OrderedJson(0) : OrderedJson(*gap);
  }
  out["optimal"] = s.optimal;
  out["status"] = to_string(s.status);
  out["delta"] = s.delta;
  OrderedJson transfers = OrderedJson::array();
  for (const dlt::Transfer& t : s.transfers) {
    OrderedJson j;
    j["from"] = t.from;
    j["to"] = t.to;
    j["amount"] = t.amount;
    j["rate"] = t.rate;
    transfers.push_back(std::move(j));
  }
  out["transfers"] = std::move(transfers);
  return output_text(out);
}

dlt::Family::Options JsonFace<dlt::Family>::options(const EntryOptions& o) {
  return {dlt::solver_named(o.text("solver", "fast"))};
}

dlt::Family::Instance JsonFace<dlt::Family>::read_instance(const Json& document) {
  return read_dlt_instance(document);
}

std::string JsonFace<dlt::Family>::write(const dlt::Family::Result& result) {
  return dlt_plan_json(result);
}

JsonFace<dlt::Family>::Document JsonFace<dlt::Family>::read_document(std::string_view text) {
  return read_dlt_schedule(text);
}

CheckResult JsonFace<dlt::Family>::check(const dlt::Family::Instance& instance,
                                         const Document& document) {
  return dlt::check(instance, document.schedule, document.stated);
}

}  // namespace redist::io
