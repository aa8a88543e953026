// The options of the JSON entry points (redist/ring.hpp and the other public headers): a JSON
// object whose names are the command line's options without their dashes ({"algorithm": "exact",
// "solver": "lp"}). Unknown names and values of the wrong type are OptionErrors at the option, so
// that they read `(at --algorithm)` as on the command line.
#pragma once

#include <cstdint>
#include <initializer_list>
#include <optional>
#include <span>
#include <string>
#include <string_view>

#include "redist/io/json.hpp"
#include "redist/io/located.hpp"

namespace redist::io {

class EntryOptions {
 public:
  // `text`: the options document ("" or "{}" for none); `known`: the option names accepted.
  EntryOptions(std::string_view text, std::span<const std::string_view> known);
  EntryOptions(std::string_view text, std::initializer_list<std::string_view> known)
      : EntryOptions(text, std::span<const std::string_view>(known.begin(), known.size())) {}

  bool has(std::string_view name) const { return options_.contains(name); }
  std::string text(std::string_view name, std::string fallback) const;
  std::optional<std::int64_t> integer(std::string_view name) const;
  // A number (integer or not); OptionError "must be a number" otherwise.
  std::optional<double> real(std::string_view name) const;
  // The "format" option of the plan entry points: false for "json" (the default), true for
  // "text", the readable summary of redist/text/. OptionError at "format" for any other value.
  bool wants_text() const;

 private:
  Json options_;
};

// `e` with what its field means (io/fields.hpp) before the location, when the field is an
// instance's: `missing field; H: the data each processor exchanges ... (at $.cluster.H)`. A field
// that is not allowed where it is gets no meaning (the meaning is that of the field elsewhere).
InputError with_field_meaning(const InputError& e);

// `e` (located) as the family of the document object `root` ("$.ring") explains it: a field
// refused as unknown that one of the family's other documents has reads `not allowed here: flows
// belongs to a ring schedule (what `redist ring plan` prints)`; any other error goes through
// with_field_meaning.
InputError explained(const InputError& e, std::string_view root);

// Runs `body`; an InputError it throws is rethrown as the command line reports it, located under
// the family's document object `root` ("$.ring"; see located) and explained (see explained).
template <typename Body>
auto located_in(std::string_view root, Body&& body) {
  try {
    return body();
  } catch (const InputError& e) {
    throw explained(located(e, root), root);
  }
}

}  // namespace redist::io
