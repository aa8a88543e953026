#include "redist/io/ring_json.hpp"

#include <algorithm>

#include <fmt/format.h>

#include "redist/common/checked.hpp"
#include "redist/common/error.hpp"

namespace redist::io {

namespace {

std::vector<double> read_costs(const Json& value, const std::string& path, std::size_t n) {
  if (value.is_number()) return std::vector<double>(n, as_positive_number(value, path));
  if (!value.is_array()) {
    throw InputError("must be a number or an array of numbers", path);
  }
  if (value.size() != n) {
    throw InputError(
        fmt::format("has {} entries, expected {} (one per processor)", value.size(), n), path);
  }
  std::vector<double> costs(n);
  for (std::size_t i = 0; i < n; ++i) costs[i] = as_positive_number(value[i], index_path(path, i));
  return costs;
}

}  // namespace

RingLinks read_ring_links(const Json& ring, const std::string& path, std::size_t n) {
  RingLinks links;
  if (auto it = ring.find("bidirectional"); it != ring.end())
    links.bidirectional = as_bool(*it, child_path(path, "bidirectional"));
  links.cost_next = read_costs(require(ring, path, "cost_next"), child_path(path, "cost_next"), n);
  if (links.bidirectional) {
    links.cost_prev =
        read_costs(require(ring, path, "cost_prev"), child_path(path, "cost_prev"), n);
  } else if (ring.contains("cost_prev")) {
    throw InputError("cost_prev given for a unidirectional ring (set \"bidirectional\": true)",
                     child_path(path, "cost_prev"));
  }
  return links;
}

ring::Instance read_ring_instance(const Json& document) {
  as_object(document, "$");
  reject_unknown_fields(document, "$", {"ring"});
  const std::string path = "$.ring";
  const Json& ring = as_object(require(document, "$", "ring"), path);
  reject_unknown_fields(ring, path,
                        {"bidirectional", "loads", "targets", "delta", "cost_next", "cost_prev"});

  ring::Instance in;
  in.loads = as_int64_array(require(ring, path, "loads"), child_path(path, "loads"));
  const std::size_t n = in.loads.size();
  if (n > ring::kMaxProcessors) {
    throw InputError(fmt::format("{} processors, the ring commands handle at most {}; plan the "
                                 "ring in pieces or merge neighbouring processors",
                                 n, ring::kMaxProcessors),
                     child_path(path, "loads"));
  }
  if (n < 2) {
    throw InputError(fmt::format("a ring needs at least 2 processors, got {}", n),
                     child_path(path, "loads"));
  }
  for (std::size_t i = 0; i < n; ++i) {
    if (in.loads[i] < 0)
      throw InputError("load must be >= 0", index_path(child_path(path, "loads"), i));
  }
  if (!checked_sum(in.loads))
    throw InputError("sum of loads overflows 64 bits", child_path(path, "loads"));

  const bool has_targets = ring.contains("targets");
  const bool has_delta = ring.contains("delta");
  if (has_targets && has_delta) {
    throw InputError("give either targets or delta, not both", child_path(path, "delta"));
  }
  if (has_targets) {
    const std::string tpath = child_path(path, "targets");
    in.targets = as_int64_array(ring["targets"], tpath);
    if (in.targets.size() != n) {
      throw InputError(fmt::format("has {} entries, loads has {}", in.targets.size(), n), tpath);
    }
    for (std::size_t i = 0; i < n; ++i) {
      if (in.targets[i] < 0) throw InputError("target must be >= 0", index_path(tpath, i));
    }
  } else if (has_delta) {
    const std::string dpath = child_path(path, "delta");
    const std::vector<std::int64_t> delta = as_int64_array(ring["delta"], dpath);
    if (delta.size() != n) {
      throw InputError(fmt::format("has {} entries, loads has {}", delta.size(), n), dpath);
    }
    in.targets.resize(n);
    for (std::size_t i = 0; i < n; ++i) {
      const auto t = checked_sub(in.loads[i], delta[i]);
      if (!t) throw InputError("loads - delta overflows 64 bits", index_path(dpath, i));
      if (*t < 0) {
        throw InputError(fmt::format("delta {} exceeds the load {}", delta[i], in.loads[i]),
                         index_path(dpath, i));
      }
      in.targets[i] = *t;
    }
    const auto dsum = checked_sum(delta);
    if (!dsum || *dsum != 0) throw InputError("imbalances must sum to 0", dpath);
  } else {
    in.targets = ring::average_targets(in.loads);
  }

  RingLinks links = read_ring_links(ring, path, n);
  in.bidirectional = links.bidirectional;
  in.cost_next = std::move(links.cost_next);
  in.cost_prev = std::move(links.cost_prev);

  // Remaining cross-field rules (equal sums, overflow of the target sum) with the model's checker.
  try {
    ring::validate_instance(in);
  } catch (const InputError& e) {
    throw InputError(e.message(), path + "." + e.path());
  }
  return in;
}

namespace {

// A run of a schedule document; `known_direction` is false when "dir" is neither "next" nor "prev"
// (the run then reads as `next`, and the validator rejects it).
ring::Run read_run(const Json& t, const std::string& rpath, bool& known_direction) {
  as_object(t, rpath);
  reject_unknown_fields(t, rpath, {"from", "dir", "start", "count", "period"});
  ring::Run r;
  r.from = as_int64(require(t, rpath, "from"), child_path(rpath, "from"));
  const std::string dir = as_string(require(t, rpath, "dir"), child_path(rpath, "dir"));
  known_direction = dir == "next" || dir == "prev";
  r.dir = dir == "prev" ? ring::Direction::prev : ring::Direction::next;
  r.start = as_finite_number(require(t, rpath, "start"), child_path(rpath, "start"));
  r.count = as_int64(require(t, rpath, "count"), child_path(rpath, "count"));
  if (auto it = t.find("period"); it != t.end()) {
    r.period = as_finite_number(*it, child_path(rpath, "period"));
    // 0 in a Run means "no period"; an explicit non-positive period is kept as an invalid one.
    if (r.period <= 0) r.period = -1.0;
  }
  return r;
}

}  // namespace

RingScheduleDocument read_ring_schedule(std::string_view text, std::size_t max_runs) {
  const std::string path = "$";
  RingScheduleDocument doc;
  doc.stated.bound_claims = false;  // `ring check` judges the runs, flows and makespan
  ring::Schedule& s = doc.schedule;
  // A run takes at least 44 characters ({"from":0,"dir":"next","start":0,"count":1} and a comma):
  // room for as many runs as the text can hold, so that the vector never grows by a copy
  // (capacity that is never written costs no memory).
  s.transfers.reserve(std::min(text.size() / 44, max_runs));
  const ArrayStream transfers{
      "transfers", [&doc, max_runs](const Json& element, std::size_t k) {
        if (k >= max_runs) {
          throw InputError(fmt::format("ring check reads at most {} runs; split the schedule or "
                                       "merge back-to-back items into runs",
                                       max_runs),
                           index_path("$.transfers", k));
        }
        bool known_direction = true;
        doc.schedule.transfers.push_back(
            read_run(element, index_path("$.transfers", k), known_direction));
        if (!known_direction) doc.stated.unknown_directions.push_back(k);
      }};
  const Json document = parse_document(text, &transfers);
  const ScheduleHeader header =
      read_schedule_header(document, {"algorithm", "makespan", "lower_bound", "gap", "optimal",
                                      "status", "light", "flows", "transfers", "notes", "seconds"});
  const PlanSummary& summary = header.summary;
  if (auto it = document.find("light"); it != document.end()) {
    s.light = as_bool(*it, "$.light");
  }
  s.notes = header.notes;
  doc.stated.makespan = summary.makespan.has_value();
  read_plan_claims(summary, s);
  doc.stated.flows = document.contains("flows");
  if (doc.stated.flows) s.flows = as_int64_array(document["flows"], child_path(path, "flows"));
  return doc;
}

std::string ring_schedule_json(const ring::Schedule& s) {
  std::string out;
  // At most 21 characters a flow and 136 a transfer (a double takes at most 24, an int64 20):
  // the string never grows by a copy, and capacity that is never written costs no memory.
  out.reserve(256 + 21 * s.flows.size() + 136 * s.transfers.size());
  write_plan_claims(out, s);
  if (s.light) out += std::string(",\n  \"light\": ") + (*s.light ? "true" : "false");
  out += ",\n  \"flows\": [";
  for (std::size_t i = 0; i < s.flows.size(); ++i) {
    if (i > 0) out += ',';
    fmt::format_to(std::back_inserter(out), "{}", s.flows[i]);
  }
  out += "],\n  \"transfers\": [";
  for (std::size_t k = 0; k < s.transfers.size(); ++k) {
    const ring::Run& r = s.transfers[k];
    fmt::format_to(
        std::back_inserter(out), "{}\n    {{\"from\":{},\"dir\":\"{}\",\"start\":{},\"count\":{}",
        k == 0 ? "" : ",", r.from, ring::to_string(r.dir), json_number(r.start), r.count);
    if (r.period > 0) out += ",\"period\":" + json_number(r.period);
    out += '}';
  }
  out += s.transfers.empty() ? "]" : "\n  ]";
  if (!s.notes.empty()) out += ",\n  \"notes\": " + Json(s.notes).dump();
  out += "\n}\n";
  return out;
}

OrderedJson write_ring_instance(const ring::Instance& in) {
  OrderedJson ring;
  ring["bidirectional"] = in.bidirectional;
  ring["loads"] = in.loads;
  ring["targets"] = in.targets;
  ring["cost_next"] = in.cost_next;
  if (in.bidirectional) ring["cost_prev"] = in.cost_prev;
  OrderedJson doc;
  doc["ring"] = std::move(ring);
  return doc;
}

std::string ring_bound_text(const ring::BoundReport& report) {
  OrderedJson out;
  out["lower_bound"] = report.lower_bound;
  OrderedJson terms = OrderedJson::object();
  for (const ring::BoundTerm& term : report.terms) {
    terms[term.name] = term.value ? OrderedJson(*term.value) : nullptr;
  }
  out["terms"] = std::move(terms);
  if (!report.notes.empty()) out["notes"] = report.notes;
  return output_text(out);
}

ring::Family::Options JsonFace<ring::Family>::options(const EntryOptions& o) {
  return {o.text("algorithm", "auto"), ring::solver_named(o.text("solver", "fast")),
          o.real("time_limit")};
}

ring::Family::Instance JsonFace<ring::Family>::read_instance(const Json& document) {
  return read_ring_instance(document);
}

std::string JsonFace<ring::Family>::write(const ring::Family::Result& result) {
  return ring_schedule_json(result);
}

JsonFace<ring::Family>::Document JsonFace<ring::Family>::read_document(std::string_view text) {
  return read_ring_schedule(text);
}

CheckResult JsonFace<ring::Family>::check(const ring::Family::Instance& instance,
                                          const Document& document) {
  return ring::check(instance, document.schedule, document.stated);
}

}  // namespace redist::io
