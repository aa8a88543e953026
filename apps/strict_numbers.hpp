// Numbers on every command line of redist's programs are read strictly (redist/common/parse.hpp):
// CLI11 alone would read --q 0x10 as 16, wrap --seed -1 into 2^64 - 1 and clamp values beyond the
// range. `strict_numbers(app)`, called once the options are declared, checks the text of every
// integer and real option, in every subcommand, before CLI11 converts it; a refused text is a
// CLI::ValidationError, which `error_line(e)` turns into the one error line naming the option:
// `'0x10' is not a decimal integer (at --q)`.
#pragma once

#include <cstdint>
#include <string>
#include <variant>

#include <CLI/CLI.hpp>

#include "redist/common/error.hpp"  // one_line
#include "redist/common/parse.hpp"

namespace redist::cli {

namespace detail {

template <class T>
CLI::Validator strict() {
  return CLI::Validator(
      [](std::string& text) -> std::string {
        const auto parsed = [&] {
          if constexpr (std::is_same_v<T, double>) {
            return parse_real(text);
          } else {
            return parse_integer<T>(text);
          }
        }();
        const auto* why = std::get_if<std::string>(&parsed);
        return why ? "'" + one_line(text, 40) + "' is " + *why : std::string();
      },
      "");
}

}  // namespace detail

// Checks with short messages (CLI11's PositiveNumber prints the largest double in full): a real
// > 0 (`strictly`) or >= 0.
inline CLI::Validator real_at_least_zero(bool strictly) {
  return CLI::Validator(
      [strictly](std::string& text) -> std::string {
        const Parsed<double> v = parse_real(text);
        const auto* value = std::get_if<double>(&v);
        if (value && (strictly ? *value > 0 : *value >= 0)) return "";
        return "'" + one_line(text, 40) + "' must be a number " + (strictly ? "> 0" : ">= 0");
      },
      strictly ? "> 0" : ">= 0");
}
inline CLI::Validator positive() { return real_at_least_zero(true); }
inline CLI::Validator non_negative() { return real_at_least_zero(false); }

inline void strict_numbers(CLI::App& app) {
  for (CLI::Option* option : app.get_options()) {
    const std::string type = option->get_type_name();
    if (type.starts_with("INT")) {
      option->check(detail::strict<std::int64_t>());
    } else if (type.starts_with("UINT")) {
      option->check(detail::strict<std::uint64_t>());
    } else if (type.starts_with("FLOAT")) {
      option->check(detail::strict<double>());
    }
  }
  for (CLI::App* sub : app.get_subcommands({})) strict_numbers(*sub);
}

// What a command-line error says and where: an option's validation error names the option
// (CLI11 writes it "--q: what"); any other error is at "command line".
struct ErrorParts {
  std::string what, where;
};
inline ErrorParts error_parts(const CLI::ParseError& e) {
  const std::string what = e.what();
  if (dynamic_cast<const CLI::ValidationError*>(&e) != nullptr && what.starts_with("-")) {
    if (const auto colon = what.find(": "); colon != std::string::npos) {
      return {what.substr(colon + 2), what.substr(0, colon)};
    }
  }
  return {what, "command line"};
}

// The same as one text: `'0x10' is not a decimal integer (at --q)`.
inline std::string error_line(const CLI::ParseError& e) {
  const ErrorParts parts = error_parts(e);
  return parts.what + " (at " + parts.where + ")";
}

}  // namespace redist::cli
