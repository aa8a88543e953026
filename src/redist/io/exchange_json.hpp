// The JSON documents of the exchange family (docs/formats.md, "Exchange"): the instance
// {"exchange": {...}}, the plan, and the bound report.
#pragma once

#include <array>
#include <string>
#include <string_view>

#include "redist/exchange/bounds.hpp"
#include "redist/exchange/family.hpp"
#include "redist/exchange/migration.hpp"
#include "redist/exchange/model.hpp"
#include "redist/exchange/validate.hpp"
#include "redist/io/family_json.hpp"
#include "redist/io/json.hpp"

namespace redist::io {

// The instance, with every error at its JSONPath ($.exchange.messages[3][2]). Messages are given
// sparse ("messages": [[from, to, bytes], ...]) or as a dense p x p matrix ("matrix": rows of
// bytes, 0 for no message, the diagonal 0).
exchange::Instance read_exchange_instance(const Json& document);

// A plan document as read by `exchange check`: the plan and which claims it states.
struct ExchangePlanDocument {
  exchange::Plan plan;
  exchange::StatedClaims stated;
};
ExchangePlanDocument read_exchange_plan(std::string_view text);

std::string exchange_plan_json(const exchange::Plan& plan);
// {"lower_bound": x, "terms": {"ports": x, "backbone": y}}.
std::string exchange_bound_json(const exchange::Bounds& bounds);
// The instance as a document that read_exchange_instance reads back (messages sparse).
std::string exchange_instance_json(const exchange::Instance& instance);

// The two ownership maps of `exchange migration`: {"old": OWNERS, "new": OWNERS, "item_bytes": B}
// with OWNERS the owner of each item ([0, 0, 1, ...]) or ranges ([[begin, end, owner], ...],
// items [begin, end)), B >= 1 (default 1). Errors at their JSONPath ($.old[3], $.new[1][2]);
// the ranges themselves are checked by exchange::from_ownership.
exchange::Ownership read_ownership(const Json& document);

// The family's JSON face (redist/io/family_json.hpp): the plan entry point's options, the instance,
// the result and `check`'s verdict on a result document.
template <>
struct JsonFace<exchange::Family> {
  using F = exchange::Family;
  static constexpr std::array<std::string_view, 3> option_names{"algorithm", "time_limit",
                                                                "format"};
  static F::Options options(const EntryOptions& o);
  static F::Instance read_instance(const Json& document);
  static std::string write(const F::Result& result);
  using Document = ExchangePlanDocument;
  static Document read_document(std::string_view text);
  static CheckResult check(const F::Instance& instance, const Document& document);
  static const F::Result& result(const Document& document) { return document.plan; }
};

}  // namespace redist::io
