// JSON reading and writing of SliceRing clusters and solutions, exactly per docs/slicering.md.
#pragma once

#include <array>
#include <optional>
#include <string_view>

#include "redist/io/family_json.hpp"
#include "redist/io/json.hpp"
#include "redist/slicering/family.hpp"
#include "redist/slicering/model.hpp"
#include "redist/slicering/validate.hpp"

namespace redist::io {

// {"cluster": {"w": [...], "c": [[...], ...], "W": x, "H": y}}: w non-empty with every entry
// finite and > 0; c square p x p, off-diagonal entries finite and > 0, diagonal entries ignored
// (any number or null); W and H finite and > 0; at most slicering::kMaxProcessors processors; and
// every time of the model within the double range (slicering::check_cluster_range). Unknown
// fields, at the top level too, are refused. InputError names the JSONPath of the first problem
// (`$.cluster.c[2][1]`).
slicering::Cluster read_cluster(const Json& document);

// A solution as written by `slicering plan`. Only the format is checked (ring: array of integers,
// alpha: array of numbers; t_step, makespan, lower_bound, gap, tour_cost, tour_lower_bound,
// tour_gap: numbers if present; optimal: a boolean; algorithm: a string; notes: strings); any other
// member is an InputError at its path. The validator judges the rest.
struct SolutionDocument {
  std::string algorithm;        // "" when absent
  std::vector<long long> ring;  // signed: a document may name processor -1
  std::vector<double> alpha;
  slicering::Claims claims;      // what the document states, each compared when stated
  std::optional<Status> status;  // absent in documents written before solutions stated it
};
SolutionDocument read_slicering_solution(const Json& document);
// The solution a document describes, for its picture (drawn only once `check` accepted it): its
// ring, shares and stated claims (makespan, else t_step; 0 and not optimal when unstated).
slicering::Solution solution_of(const SolutionDocument& document);

// The solution's claims as they are: lower_bound (and gap) when it is > 0 (greedy proves none).
OrderedJson write_slicering_solution(const slicering::Solution& solution);
OrderedJson write_cluster(const slicering::Cluster& cluster);

// The family's JSON face (redist/io/family_json.hpp): the plan entry point's options, the instance,
// the result and `check`'s verdict on a result document.
template <>
struct JsonFace<slicering::Family> {
  using F = slicering::Family;
  static constexpr std::array<std::string_view, 4> option_names{"algorithm", "q", "time_limit",
                                                                "format"};
  static F::Options options(const EntryOptions& o);
  static F::Instance read_instance(const Json& document);
  static std::string write(const F::Result& result);
  using Document = SolutionDocument;
  static Document read_document(std::string_view text);
  static CheckResult check(const F::Instance& instance, const Document& document);
  static F::Result result(const Document& document) { return solution_of(document); }
};

}  // namespace redist::io
