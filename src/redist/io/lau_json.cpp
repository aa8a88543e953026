#include "redist/io/lau_json.hpp"

#include <fmt/format.h>

#include "redist/common/error.hpp"

namespace redist::io {

namespace {

std::string int128_string(Int128 v) {
  if (v == 0) return "0";
  const bool negative = v < 0;
  std::string digits;
  while (v != 0) {
    const int d = static_cast<int>(v % 10);
    digits.insert(digits.begin(), static_cast<char>('0' + (d < 0 ? -d : d)));
    v /= 10;
  }
  return negative ? "-" + digits : digits;
}

}  // namespace

LauDocument read_lau_document(const Json& document, bool with_flows) {
  as_object(document, "$");
  const std::string path = "$.lau";
  const Json& lau = as_object(require(document, "$", "lau"), path);
  reject_unknown_fields(document, "$", {"lau"});
  if (with_flows) {
    reject_unknown_fields(lau, path, {"loads", "targets", "flows"});
  } else {
    reject_unknown_fields(lau, path, {"loads", "targets"});
  }
  LauDocument out;
  lau::Instance& in = out.instance;
  const std::string lpath = child_path(path, "loads");
  in.loads = as_int64_array(require(lau, path, "loads"), lpath);
  try {
    if (auto it = lau.find("targets"); it != lau.end()) {
      in.targets = as_int64_array(*it, child_path(path, "targets"));
      lau::validate_instance(in);
    } else {
      in = lau::balanced_instance(std::move(in.loads));
    }
  } catch (const InputError& e) {
    if (e.path().starts_with("$")) throw;
    // The core's paths are relative to the instance object ("loads[3]"): prefix, do not quote.
    throw InputError(e.message(), path + "." + e.path());
  }
  if (with_flows) {
    const std::string fpath = child_path(path, "flows");
    out.flows = as_int64_array(require(lau, path, "flows"), fpath);
    if (out.flows.size() != in.size()) {
      throw InputError(fmt::format("has {} entries, loads has {}", out.flows.size(), in.size()),
                       fpath);
    }
    if (const auto bad = lau::unbalanced_node(in, out.flows)) {
      const std::size_t i = *bad, n = in.size();
      const Int128 end = Int128{in.loads[i]} + out.flows[(i + n - 1) % n] - out.flows[i];
      throw InputError(
          fmt::format("the flows do not balance node {}: it would end with {} instead of {}", i,
                      int128_string(end), in.targets[i]),
          index_path(fpath, i));
    }
  }
  return out;
}

namespace {

// The send mode named at `path`: single or multi.
lau::Mode read_mode(const Json& value, const std::string& path) {
  const std::string name = as_string(value, path);
  if (name != "single" && name != "multi") {
    throw InputError("unknown mode '" + one_line(name, 40) + "' (expected single or multi)", path);
  }
  return name == "single" ? lau::Mode::single : lau::Mode::multi;
}

// A time claim: an integer, or null for a deadlock.
lau::Time read_time(const Json& value, const std::string& path) {
  return value.is_null() ? lau::Time{} : lau::Time{as_int64(value, path)};
}

// The times, shift and traffic the document states, and which of them it states.
void read_claims(const Json& document, LauPlanDocument& doc) {
  const auto end = document.end();
  const auto t_single = document.find("t_single"), t_multi = document.find("t_multi");
  const auto h = document.find("h"), traffic = document.find("traffic");
  const auto lower_bound = document.find("lower_bound"), optimal = document.find("optimal");
  doc.stated = {t_single != end, t_multi != end,     h != end,
                traffic != end,  lower_bound != end, optimal != end};
  if (doc.stated.lower_bound) {
    doc.plan.lower_bound = static_cast<double>(as_int64(*lower_bound, "$.lower_bound"));
    if (*doc.plan.lower_bound < 0) throw InputError("must be >= 0", "$.lower_bound");
  }
  if (const auto gap = document.find("gap"); gap != end) as_finite_number(*gap, "$.gap");
  if (doc.stated.t_single) doc.plan.t_single = read_time(*t_single, "$.t_single");
  if (doc.stated.t_multi) doc.plan.t_multi = read_time(*t_multi, "$.t_multi");
  if (doc.stated.h) doc.plan.h = as_int64(*h, "$.h");
  if (doc.stated.traffic) doc.plan.traffic = as_int64(*traffic, "$.traffic");
}

}  // namespace

LauPlanDocument read_lau_plan(const Json& document) {
  as_object(document, "$");
  reject_unknown_fields(document, "$",
                        {"algorithm", "mode", "flows", "h", "t_single", "t_multi", "traffic",
                         "lower_bound", "gap", "optimal", "status", "seconds"});
  LauPlanDocument doc;
  lau::Plan& plan = doc.plan;
  plan.flows = as_int64_array(require(document, "$", "flows"), "$.flows");
  if (const auto it = document.find("mode"); it != document.end()) {
    plan.mode = read_mode(*it, "$.mode");
  }
  if (const auto it = document.find("algorithm"); it != document.end()) {
    plan.algorithm = as_string(*it, "$.algorithm");
  }
  if (const auto it = document.find("optimal"); it != document.end()) {
    plan.optimal = as_bool(*it, "$.optimal");
  }
  plan.status = plan.optimal ? Status::optimal : Status::feasible;
  if (const auto it = document.find("status"); it != document.end()) {
    const auto optimal = document.find("optimal");
    plan.status = read_status(
        *it, optimal == document.end() ? std::nullopt : std::optional<bool>(plan.optimal));
  }
  read_claims(document, doc);
  return doc;
}

namespace {

std::string time_json(const lau::Time& t) { return t ? fmt::format("{}", *t) : "null"; }

}  // namespace

std::string lau_plan_json(const lau::Plan& plan) {
  std::string out;
  out += "{\n  \"algorithm\": " + Json(plan.algorithm).dump();
  out += fmt::format(",\n  \"mode\": \"{}\"", lau::mode_name(plan.mode));
  out += ",\n  \"flows\": [";
  for (std::size_t i = 0; i < plan.flows.size(); ++i) {
    if (i > 0) out += ',';
    out += fmt::format("{}", plan.flows[i]);
  }
  out += "]";
  out += fmt::format(",\n  \"h\": {}", plan.h);
  out += ",\n  \"t_single\": " + time_json(plan.t_single);
  out += ",\n  \"t_multi\": " + time_json(plan.t_multi);
  out += fmt::format(",\n  \"traffic\": {}", plan.traffic);
  // Times are step counts (at most a few per node), far below 2^53: the bound is an exact integer.
  if (plan.lower_bound && *plan.lower_bound >= 0 && *plan.lower_bound < 0x1p53) {
    out += fmt::format(",\n  \"lower_bound\": {}", static_cast<std::int64_t>(*plan.lower_bound));
  }
  // A proven optimum has no gap, whatever the rounding of makespan / lower_bound.
  if (const std::optional<double> gap = plan.gap()) {
    out += ",\n  \"gap\": " + (plan.optimal ? std::string("0") : json_number(*gap));
  }
  out += fmt::format(",\n  \"optimal\": {}", plan.optimal ? "true" : "false");
  out += fmt::format(",\n  \"status\": \"{}\"\n}}\n", to_string(plan.status));
  return out;
}

lau::Family::Options JsonFace<lau::Family>::options(const EntryOptions& o) {
  return {o.text("algorithm", "optimal"), lau::parse_mode(o.text("mode", "single"))};
}

lau::Family::Instance JsonFace<lau::Family>::read_instance(const Json& document) {
  return read_lau_document(document, false).instance;
}

std::string JsonFace<lau::Family>::write(const lau::Family::Result& result) {
  return lau_plan_json(result);
}

JsonFace<lau::Family>::Document JsonFace<lau::Family>::read_document(std::string_view text) {
  return read_lau_plan(parse_document(text));
}

CheckResult JsonFace<lau::Family>::check(const lau::Family::Instance& instance,
                                         const Document& document) {
  return lau_flows_located("$.flows",
                           [&] { return lau::check(instance, document.plan, document.stated); });
}

}  // namespace redist::io
