// JSON reading and writing for LAU load distribution (docs/lau.md).
#pragma once

#include "redist/io/json.hpp"
#include "redist/lau/model.hpp"

namespace redist::io {

struct LauDocument {
  lau::Instance instance;
  std::vector<std::int64_t> flows;  // only when read with flows
};

// {"lau": {"loads": [...], "targets": [...] (optional), "flows": [...] (eval only)}}.
// Without targets the sum of loads must be divisible by n (targets = the average). With
// `with_flows` the flows are required, must have n entries and must balance every node
// (l_i + received - sent = t_i); otherwise they are refused as an unknown field. Every error is an
// InputError at the JSONPath of the offending value.
LauDocument read_lau_document(const Json& document, bool with_flows);

// The plan as JSON text (one member per line, flows inline):
// {"algorithm", "mode", "flows", "h", "t_single", "t_multi", "traffic", "optimal"}.
std::string lau_plan_json(const lau::Plan& plan, lau::Mode mode, bool optimal);

}  // namespace redist::io
