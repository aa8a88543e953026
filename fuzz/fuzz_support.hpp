// Shared helpers of the libFuzzer targets (docs/fuzzing.md).
//
// The contract every target checks: the code under test either returns or throws
// redist::InputError. Any other exception, a crash, a hang or a sanitizer report is a finding;
// `fail` prints what went wrong and aborts, so that libFuzzer saves the input that caused it.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <initializer_list>
#include <new>
#include <string>
#include <string_view>
#include <utility>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "redist/common/error.hpp"

namespace redist::fuzz {

// What the current input stands for (the structured fuzzers' instance as JSON), printed with a
// finding so that it can be replayed on the command line.
inline std::string& finding_context() {
  static std::string context;
  return context;
}

[[noreturn]] inline void fail(const std::string& what) {
  std::fprintf(stderr, "FUZZ FINDING: %s\n", what.c_str());
  if (!finding_context().empty()) {
    std::fprintf(stderr, "FUZZ INPUT: %s\n", finding_context().c_str());
  }
  std::fflush(stderr);
  std::abort();
}

// A number in its shortest round-trip form (1e-300, not 0.000000).
template <typename Number>
std::string show(Number value) {
  return fmt::format("{}", value);
}

inline void require(bool condition, const std::string& what) {
  if (!condition) fail(what);
}

// Runs `body`; an InputError is an accepted outcome (bad input refused), anything else aborts.
template <typename Body>
bool only_input_errors(Body&& body) {
  try {
    body();
    return true;
  } catch (const InputError&) {
    return false;
  } catch (const std::bad_alloc&) {
    fail("std::bad_alloc escaped (memory not bounded up front)");
  } catch (const std::exception& e) {
    fail(std::string("unexpected exception escaped: ") + e.what());
  } catch (...) {
    fail("unexpected non-standard exception escaped");
  }
}

// Runs `body`, which must not fail at all: reading back what redist printed itself, for instance.
template <typename Body>
auto must_succeed(const std::string& what, Body&& body) {
  try {
    return body();
  } catch (const InputError& e) {
    fail(what + " refused: " + e.what());
  }
}

inline std::string_view as_text(const std::uint8_t* data, std::size_t size) {
  return {reinterpret_cast<const char*>(data), size};
}

// Two documents from one input: the bytes before the first NUL and those after it (JSON text never
// holds a raw NUL, so the seed files are `instance \0 schedule`). No NUL: the second is empty.
inline std::pair<std::string_view, std::string_view> split_documents(std::string_view text) {
  const std::size_t cut = text.find('\0');
  if (cut == std::string_view::npos) return {text, {}};
  return {text.substr(0, cut), text.substr(cut + 1)};
}

// Every number of `value` is finite; a null is allowed only as the value of a member named in
// `nullable` (e.g. LAU's deadlock times). `where` names the output for the message.
inline void require_finite_numbers(const nlohmann::json& value, const std::string& where,
                                   std::initializer_list<std::string_view> nullable = {},
                                   const std::string& path = "$") {
  if (value.is_number_float()) {
    require(std::isfinite(value.get<double>()), where + ": non-finite number at " + path);
  } else if (value.is_null()) {
    fail(where + ": null in place of a number at " + path);
  } else if (value.is_array()) {
    for (std::size_t i = 0; i < value.size(); ++i) {
      require_finite_numbers(value[i], where, nullable, path + "[" + std::to_string(i) + "]");
    }
  } else if (value.is_object()) {
    for (const auto& [key, member] : value.items()) {
      bool may_be_null = false;
      for (std::string_view name : nullable) may_be_null = may_be_null || name == key;
      if (member.is_null() && may_be_null) continue;
      require_finite_numbers(member, where, nullable, path + "." + key);
    }
  }
}

// Parses text the program printed (with nlohmann directly, not redist's reader) and checks it.
inline nlohmann::json parse_output(const std::string& text, const std::string& where,
                                   std::initializer_list<std::string_view> nullable = {}) {
  nlohmann::json document = nlohmann::json::parse(text, nullptr, false);
  require(!document.is_discarded(), where + ": output is not JSON:\n" + text.substr(0, 2000));
  require_finite_numbers(document, where, nullable);
  return document;
}

// a <= b up to a relative tolerance (times of plans and bounds are doubles).
inline bool at_most(double a, double b, double tolerance = 1e-9) {
  return a <= b + tolerance * std::max(std::abs(a), std::abs(b));
}

}  // namespace redist::fuzz
