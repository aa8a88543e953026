// Strict parsing of numbers written as text: command-line options and policy parameters
// (docs/formats.md, "Numbers on the command line"). A number is taken only when the text means
// exactly one value that redist keeps as written:
// - integers: decimal digits, with a leading '-' for a signed one; no '+', no hexadecimal or octal
//   prefix, no spaces, no exponent; within the range of the type (never wrapped or clamped);
// - reals: a decimal number with an optional exponent (1.5, -2e-3); finite; 17 significant digits
//   at most (more would be rounded away); 0 or at least the smallest normal double in magnitude
//   (2.2e-308; smaller ones lose precision).
// Each function returns the value, or the reason the text is refused ("not a decimal integer").
#pragma once

#include <cctype>
#include <charconv>
#include <cmath>
#include <cstdint>
#include <limits>
#include <string>
#include <string_view>
#include <variant>

namespace redist {

template <class T>
using Parsed = std::variant<T, std::string>;  // the value, or why the text is refused

template <class Integer>
Parsed<Integer> parse_integer(std::string_view text) {
  const bool negative = !text.empty() && text.front() == '-';
  const std::string_view digits = negative ? text.substr(1) : text;
  const bool decimal = !digits.empty() && digits.find_first_not_of("0123456789") == digits.npos;
  if (!decimal || (negative && !std::numeric_limits<Integer>::is_signed)) {
    return std::string(std::numeric_limits<Integer>::is_signed ? "not a decimal integer"
                                                               : "not a decimal integer >= 0");
  }
  Integer value{};
  const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (error != std::errc() || end != text.data() + text.size()) {
    return "out of range (" + std::to_string(std::numeric_limits<Integer>::min()) + ".." +
           std::to_string(std::numeric_limits<Integer>::max()) + ")";
  }
  return value;
}

inline Parsed<double> parse_real(std::string_view text) {
  std::size_t significant = 0, k = text.starts_with('-') ? 1 : 0;
  bool digits = false, leading = true;
  for (; k < text.size() && (std::isdigit(static_cast<unsigned char>(text[k])) || text[k] == '.');
       ++k) {
    if (text[k] == '.') continue;
    digits = true;
    leading = leading && text[k] == '0';
    if (!leading) ++significant;
  }
  double value = 0;
  const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (!digits || end != text.data() + text.size() || text.starts_with('+'))
    return std::string("not a decimal number");
  if (error != std::errc() || !std::isfinite(value)) return std::string("out of the double range");
  if (value != 0 && std::fabs(value) < std::numeric_limits<double>::min())
    return std::string("too small: below 2.2e-308 in magnitude a double loses precision");
  if (significant > 17) {
    return std::string("more than 17 significant digits: a double would round it");
  }
  return value;
}

}  // namespace redist
