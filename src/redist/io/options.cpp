#include "redist/io/options.hpp"

#include <fmt/format.h>

#include "redist/io/fields.hpp"
#include "redist/io/formats.hpp"

namespace redist::io {

EntryOptions::EntryOptions(std::string_view text, std::span<const std::string_view> known) {
  options_ = text.empty() ? Json::object() : parse_document(text);
  if (!options_.is_object()) throw InputError("the options must be a JSON object", "options");
  for (const auto& [name, value] : options_.items()) {
    bool found = false;
    for (std::string_view k : known) found = found || k == name;
    if (!found) {
      std::string names;
      for (std::string_view k : known) names += (names.empty() ? "" : ", ") + std::string(k);
      throw OptionError(fmt::format("unknown option (known: {})", names.empty() ? "none" : names),
                        one_line(name, 64));
    }
  }
}

std::string EntryOptions::text(std::string_view name, std::string fallback) const {
  const auto it = options_.find(name);
  if (it == options_.end()) return fallback;
  if (!it->is_string()) throw OptionError("must be a string", std::string(name));
  return it->get<std::string>();
}

std::optional<std::int64_t> EntryOptions::integer(std::string_view name) const {
  const auto it = options_.find(name);
  if (it == options_.end()) return std::nullopt;
  if (!it->is_number_integer()) throw OptionError("must be an integer", std::string(name));
  return it->get<std::int64_t>();
}

std::optional<double> EntryOptions::real(std::string_view name) const {
  const auto it = options_.find(name);
  if (it == options_.end()) return std::nullopt;
  if (!it->is_number()) throw OptionError("must be a number", std::string(name));
  return it->get<double>();
}

namespace {

constexpr std::string_view kNotAllowedHere = "not allowed here: ";

bool refuses_field(const InputError& e) {
  return e.message().starts_with(kUnknownField) || e.message().starts_with(kNotAllowedHere);
}

// "flows" from "$.ring.flows" or "$.transfers[2].flows"; "" for a quoted key or an index.
std::string_view last_field(std::string_view path) {
  const auto dot = path.rfind('.');
  if (dot == std::string_view::npos) return {};
  const std::string_view field = path.substr(dot + 1);
  return field.find_first_of("[]\"") == std::string_view::npos ? field : std::string_view{};
}

}  // namespace

InputError explained(const InputError& e, std::string_view root) {
  if (!e.message().starts_with(kUnknownField)) return with_field_meaning(e);
  const std::string_view field = last_field(e.path());
  const std::string owner = field.empty() ? "" : field_owner(family_of_root(root), field);
  if (owner.empty()) return e;
  return InputError(fmt::format("{}{} belongs to {}", kNotAllowedHere, field, owner), e.path());
}

InputError with_field_meaning(const InputError& e) {
  if (refuses_field(e)) return e;
  const std::string meaning = field_meaning(e.path());
  if (meaning.empty() || e.message().find(meaning) != std::string::npos) return e;
  return InputError(e.message() + "; " + meaning, e.path());
}

bool EntryOptions::wants_text() const {
  const std::string format = text("format", "json");
  if (format != "json" && format != "text") {
    throw OptionError("unknown format '" + one_line(format, 40) + "' (expected json or text)",
                      "format");
  }
  return format == "text";
}

}  // namespace redist::io
