#include "redist/io/slicering_json.hpp"

#include "redist/io/options.hpp"

#include <algorithm>
#include <cmath>

#include <fmt/format.h>

#include "redist/common/error.hpp"

namespace redist::io {

slicering::Cluster read_cluster(const Json& document) {
  as_object(document, "$");
  const std::string path = "$.cluster";
  const Json& cluster = as_object(require(document, "$", "cluster"), path);
  reject_unknown_fields(document, "$", {"cluster"});
  reject_unknown_fields(cluster, path, {"w", "c", "W", "H"});
  slicering::Cluster out;
  const std::string wpath = child_path(path, "w");
  const Json& w = as_array(require(cluster, path, "w"), wpath);
  if (w.empty()) throw InputError("needs at least one processor", wpath);
  const std::size_t p = w.size();
  if (p > slicering::kMaxProcessors) {
    throw InputError(fmt::format("at most {} processors, got {}; split the cluster",
                                 slicering::kMaxProcessors, p),
                     wpath);
  }
  out.w.resize(p);
  for (std::size_t i = 0; i < p; ++i) out.w[i] = as_positive_number(w[i], index_path(wpath, i));

  const std::string cpath = child_path(path, "c");
  const Json& c = as_array(require(cluster, path, "c"), cpath);
  if (c.size() != p) {
    throw InputError(
        fmt::format("has {} rows, expected {} (c must be p x p, p = the size of w)", c.size(), p),
        cpath);
  }
  out.c.assign(p * p, 0.0);
  for (std::size_t i = 0; i < p; ++i) {
    const std::string rpath = index_path(cpath, i);
    const Json& row = as_array(c[i], rpath);
    if (row.size() != p) {
      throw InputError(fmt::format("has {} entries, expected {} (c must be p x p)", row.size(), p),
                       rpath);
    }
    for (std::size_t j = 0; j < p; ++j) {
      const std::string epath = index_path(rpath, j);
      if (i == j) {
        if (!row[j].is_null()) as_finite_number(row[j], epath);  // ignored, but must be a number
        continue;
      }
      out.c[i * p + j] = as_positive_number(row[j], epath);
    }
  }
  out.W = as_positive_number(require(cluster, path, "W"), child_path(path, "W"));
  out.H = as_positive_number(require(cluster, path, "H"), child_path(path, "H"));
  located_in(path, [&] { slicering::check_cluster_range(out); });
  return out;
}

SolutionDocument read_slicering_solution(const Json& document) {
  as_object(document, "$");
  // Every member `slicering plan` writes, and nothing else.
  reject_unknown_fields(
      document, "$",
      {"algorithm", "ring", "alpha", "t_step", "makespan", "lower_bound", "gap", "optimal",
       "status", "tour_cost", "tour_lower_bound", "tour_gap", "notes", "seconds"});
  SolutionDocument out;
  const Json& ring = as_array(require(document, "$", "ring"), "$.ring");
  for (std::size_t k = 0; k < ring.size(); ++k) {
    out.ring.push_back(static_cast<long long>(as_int64(ring[k], index_path("$.ring", k))));
  }
  const Json& alpha = as_array(require(document, "$", "alpha"), "$.alpha");
  for (std::size_t k = 0; k < alpha.size(); ++k) {
    out.alpha.push_back(as_finite_number(alpha[k], index_path("$.alpha", k)));
  }
  if (auto it = document.find("t_step"); it != document.end()) {
    out.claims.t_step = as_finite_number(*it, "$.t_step");
  }
  const PlanSummary summary = read_plan_summary(document);
  out.algorithm = summary.algorithm;
  out.claims.makespan = summary.makespan;
  out.claims.lower_bound = summary.lower_bound;
  out.claims.optimal = summary.optimal;
  out.status = summary.status;
  for (const char* key : {"gap", "tour_cost", "tour_lower_bound", "tour_gap"}) {
    if (auto it = document.find(key); it != document.end()) {
      as_finite_number(*it, child_path("$", key));
    }
  }
  if (auto it = document.find("notes"); it != document.end()) {
    const Json& notes = as_array(*it, "$.notes");
    for (std::size_t k = 0; k < notes.size(); ++k) as_string(notes[k], index_path("$.notes", k));
  }
  return out;
}

OrderedJson write_slicering_solution(const slicering::Solution& s) {
  OrderedJson out;
  out["algorithm"] = s.algorithm;
  out["ring"] = s.ring;
  out["alpha"] = s.alpha;
  out["t_step"] = s.makespan;
  out["makespan"] = s.makespan;
  if (s.lower_bound) out["lower_bound"] = *s.lower_bound;
  if (const std::optional<double> gap = s.gap()) out["gap"] = *gap;
  out["optimal"] = s.optimal;
  out["status"] = to_string(s.status);
  if (s.tour_cost) out["tour_cost"] = *s.tour_cost;
  if (s.tour_lower_bound) {
    out["tour_lower_bound"] = *s.tour_lower_bound;
    // Only where the ratio is a number: a zero or tiny bound leaves the gap undefined.
    const double gap = *s.tour_cost / *s.tour_lower_bound - 1.0;
    if (*s.tour_lower_bound > 0 && std::isfinite(gap)) out["tour_gap"] = gap;
  }
  if (!s.notes.empty()) out["notes"] = s.notes;
  return out;
}

OrderedJson write_cluster(const slicering::Cluster& cluster) {
  const std::size_t p = cluster.size();
  OrderedJson c = OrderedJson::array();
  for (std::size_t i = 0; i < p; ++i) {
    OrderedJson row = OrderedJson::array();
    for (std::size_t j = 0; j < p; ++j) row.push_back(cluster.c[i * p + j]);
    c.push_back(std::move(row));
  }
  OrderedJson inner;
  inner["w"] = cluster.w;
  inner["c"] = std::move(c);
  inner["W"] = cluster.W;
  inner["H"] = cluster.H;
  OrderedJson out;
  out["cluster"] = std::move(inner);
  return out;
}

slicering::Solution solution_of(const SolutionDocument& document) {
  slicering::Solution s;
  s.algorithm = document.algorithm;
  s.ring.assign(document.ring.begin(), document.ring.end());
  s.alpha = document.alpha;
  const slicering::Claims& claims = document.claims;
  s.makespan = claims.makespan.value_or(claims.t_step.value_or(0.0));
  s.lower_bound = claims.lower_bound;
  s.optimal = claims.optimal.value_or(false);
  s.status = document.status.value_or(s.optimal ? Status::optimal : Status::feasible);
  return s;
}

slicering::Family::Options JsonFace<slicering::Family>::options(const EntryOptions& o) {
  slicering::PlanOptions options{o.text("algorithm", "auto"), std::nullopt, o.real("time_limit")};
  if (const auto q = o.integer("q")) {
    if (*q < 1) throw OptionError("ring size must be >= 1", "q");
    options.ring_size = static_cast<std::size_t>(*q);
  }
  return options;
}

slicering::Family::Instance JsonFace<slicering::Family>::read_instance(const Json& document) {
  return read_cluster(document);
}

std::string JsonFace<slicering::Family>::write(const slicering::Family::Result& result) {
  return output_text(write_slicering_solution(result));
}

JsonFace<slicering::Family>::Document JsonFace<slicering::Family>::read_document(
    std::string_view text) {
  return read_slicering_solution(parse_document(text));
}

CheckResult JsonFace<slicering::Family>::check(const slicering::Family::Instance& instance,
                                               const Document& document) {
  return slicering::check(instance, document.ring, document.alpha, document.claims);
}

}  // namespace redist::io
