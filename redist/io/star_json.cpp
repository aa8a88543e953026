#include "redist/io/star_json.hpp"

#include <iterator>

#include <fmt/format.h>

#include "redist/common/error.hpp"

namespace redist::io {

namespace {

std::vector<double> number_array(const Json& value, const std::string& path) {
  as_array(value, path);
  std::vector<double> out;
  out.reserve(value.size());
  for (std::size_t i = 0; i < value.size(); ++i) {
    out.push_back(as_finite_number(value[i], index_path(path, i)));
  }
  return out;
}

// Re-roots an InputError of a model checker (path relative to the object at `root`).
[[noreturn]] void rethrow_at(const InputError& e, const std::string& root) {
  throw InputError(e.message(), child_path(root, e.path()));
}

}  // namespace

star::Instance read_star_instance(const Json& document) {
  as_object(document, "$");
  const std::string path = "$.star";
  const Json& star = as_object(require(document, "$", "star"), path);
  reject_unknown_fields(star, path, {"c", "w", "loads"});
  star::Instance in;
  in.c = number_array(require(star, path, "c"), child_path(path, "c"));
  in.w = number_array(require(star, path, "w"), child_path(path, "w"));
  in.loads = as_int64_array(require(star, path, "loads"), child_path(path, "loads"));
  try {
    star::validate_instance(in);
  } catch (const InputError& e) {
    rethrow_at(e, path);
  }
  return in;
}

star::OrderInstance read_order_instance(const Json& document) {
  as_object(document, "$");
  const std::string path = "$.star";
  const Json& star = as_object(require(document, "$", "star"), path);
  reject_unknown_fields(star, path, {"c", "delta"});
  star::OrderInstance in;
  in.c = number_array(require(star, path, "c"), child_path(path, "c"));
  in.delta = as_int64_array(require(star, path, "delta"), child_path(path, "delta"));
  try {
    star::validate_order_instance(in);
  } catch (const InputError& e) {
    rethrow_at(e, path);
  }
  return in;
}

star::Schedule read_star_schedule(std::string_view text) {
  star::Schedule s;
  const ArrayStream transfers{
      "transfers", [&s](const Json& t, std::size_t k) {
        const std::string rpath = index_path("$.transfers", k);
        as_object(t, rpath);
        reject_unknown_fields(t, rpath, {"from", "to", "send_start", "forward_start"});
        star::Transfer tr;
        tr.from = as_int64(require(t, rpath, "from"), child_path(rpath, "from"));
        tr.to = as_int64(require(t, rpath, "to"), child_path(rpath, "to"));
        tr.send_start =
            as_finite_number(require(t, rpath, "send_start"), child_path(rpath, "send_start"));
        tr.forward_start = as_finite_number(require(t, rpath, "forward_start"),
                                            child_path(rpath, "forward_start"));
        s.transfers.push_back(tr);
      }};
  const Json document = parse_document(text, &transfers);
  const std::string path = "$";
  as_object(document, path);
  as_array(require(document, path, "transfers"), child_path(path, "transfers"));
  const PlanSummary summary = read_plan_summary(document);
  s.algorithm = summary.algorithm;
  s.makespan = summary.makespan;
  s.lower_bound = summary.lower_bound;
  s.optimal = summary.optimal;
  if (auto it = document.find("finish"); it != document.end()) {
    s.finish = number_array(*it, child_path(path, "finish"));
  }
  return s;
}

std::string star_schedule_json(const star::Schedule& s) {
  std::string out;
  out.reserve(128 + 24 * s.finish.size() + 96 * s.transfers.size());
  write_plan_summary(out, {s.algorithm, s.makespan, s.lower_bound, s.optimal});
  out += ",\n  \"transfers\": [";
  for (std::size_t k = 0; k < s.transfers.size(); ++k) {
    const star::Transfer& t = s.transfers[k];
    fmt::format_to(std::back_inserter(out),
                   "{}\n    {{\"from\":{},\"to\":{},\"send_start\":{},\"forward_start\":{}}}",
                   k == 0 ? "" : ",", t.from, t.to, json_number(t.send_start),
                   json_number(t.forward_start));
  }
  out += s.transfers.empty() ? "]" : "\n  ]";
  out += ",\n  \"finish\": [";
  for (std::size_t i = 0; i < s.finish.size(); ++i) {
    if (i > 0) out += ',';
    out += json_number(s.finish[i]);
  }
  out += "]";
  if (!s.notes.empty()) out += ",\n  \"notes\": " + Json(s.notes).dump();
  out += "\n}\n";
  return out;
}

star::DltInstance read_dlt_instance(const Json& document) {
  as_object(document, "$");
  const std::string path = "$.dlt";
  const Json& dlt = as_object(require(document, "$", "dlt"), path);
  reject_unknown_fields(dlt, path, {"b", "s", "alpha"});
  star::DltInstance in;
  in.b = number_array(require(dlt, path, "b"), child_path(path, "b"));
  in.s = number_array(require(dlt, path, "s"), child_path(path, "s"));
  in.alpha = number_array(require(dlt, path, "alpha"), child_path(path, "alpha"));
  try {
    star::validate_dlt_instance(in);
  } catch (const InputError& e) {
    rethrow_at(e, path);
  }
  return in;
}

OrderedJson dlt_schedule_json(const star::DltSchedule& s) {
  OrderedJson out;
  out["solver"] = s.solver;
  out["makespan"] = s.makespan;
  out["delta"] = s.delta;
  OrderedJson transfers = OrderedJson::array();
  for (const star::DltTransfer& t : s.transfers) {
    OrderedJson j;
    j["from"] = t.from;
    j["to"] = t.to;
    j["amount"] = t.amount;
    j["rate"] = t.rate;
    transfers.push_back(std::move(j));
  }
  out["transfers"] = std::move(transfers);
  return out;
}

}  // namespace redist::io
