#include "redist/io/json.hpp"

#include <cmath>
#include <fstream>
#include <iostream>
#include <iterator>
#include <sstream>

#include <fmt/format.h>

#include "redist/common/error.hpp"

namespace redist::io {

namespace {

const char* type_name(const Json& v) {
  if (v.is_number_integer() || v.is_number_unsigned()) return "an integer";
  if (v.is_number_float()) return "a number";
  return v.type_name();
}

}  // namespace

Json parse_document(std::string_view text) {
  try {
    return Json::parse(text.begin(), text.end());
  } catch (const Json::parse_error& e) {
    std::string what = e.what();
    // nlohmann prefixes "[json.exception.parse_error.101] "; keep the readable part.
    if (auto pos = what.find("] "); pos != std::string::npos) what = what.substr(pos + 2);
    throw InputError("malformed JSON: " + what, "$");
  }
}

Json read_document(const std::string& file) {
  std::string text;
  if (file.empty() || file == "-") {
    text.assign(std::istreambuf_iterator<char>(std::cin), std::istreambuf_iterator<char>());
  } else {
    std::ifstream in(file, std::ios::binary);
    if (!in) throw InputError(fmt::format("cannot read file '{}'", file), "command line");
    std::ostringstream buffer;
    buffer << in.rdbuf();
    text = std::move(buffer).str();
  }
  return parse_document(text);
}

std::string child_path(const std::string& path, std::string_view key) {
  return fmt::format("{}.{}", path, key);
}

std::string index_path(const std::string& path, std::size_t index) {
  return fmt::format("{}[{}]", path, index);
}

const Json& as_object(const Json& value, const std::string& path) {
  if (!value.is_object()) throw InputError(fmt::format("must be an object, got {}", type_name(value)), path);
  return value;
}

const Json& as_array(const Json& value, const std::string& path) {
  if (!value.is_array()) throw InputError(fmt::format("must be an array, got {}", type_name(value)), path);
  return value;
}

const Json& require(const Json& object, const std::string& path, std::string_view key) {
  auto it = object.find(key);
  if (it == object.end()) throw InputError("missing field", child_path(path, key));
  return *it;
}

void reject_unknown_fields(const Json& object, const std::string& path,
                           std::initializer_list<std::string_view> allowed) {
  for (auto it = object.begin(); it != object.end(); ++it) {
    bool known = false;
    for (std::string_view a : allowed) known = known || it.key() == a;
    if (!known) throw InputError("unknown field", child_path(path, it.key()));
  }
}

std::int64_t as_int64(const Json& value, const std::string& path) {
  if (value.is_number_integer() && !value.is_number_unsigned()) return value.get<std::int64_t>();
  if (value.is_number_unsigned()) {
    const auto u = value.get<std::uint64_t>();
    if (u > static_cast<std::uint64_t>(INT64_MAX)) {
      throw InputError("integer outside the signed 64-bit range", path);
    }
    return static_cast<std::int64_t>(u);
  }
  if (value.is_number_float()) {
    const double d = value.get<double>();
    if (std::isfinite(d) && d == std::floor(d) && std::fabs(d) >= 9.2e18) {
      throw InputError("integer outside the signed 64-bit range", path);
    }
    throw InputError(fmt::format("must be an integer, got {}", value.dump()), path);
  }
  throw InputError(fmt::format("must be an integer, got {}", type_name(value)), path);
}

double as_finite_number(const Json& value, const std::string& path) {
  if (!value.is_number()) throw InputError(fmt::format("must be a number, got {}", type_name(value)), path);
  const double d = value.get<double>();
  if (!std::isfinite(d)) throw InputError("must be a finite number", path);
  return d;
}

double as_positive_number(const Json& value, const std::string& path) {
  const double d = as_finite_number(value, path);
  if (!(d > 0)) throw InputError(fmt::format("must be > 0, got {}", value.dump()), path);
  return d;
}

bool as_bool(const Json& value, const std::string& path) {
  if (!value.is_boolean()) throw InputError(fmt::format("must be true or false, got {}", type_name(value)), path);
  return value.get<bool>();
}

std::string as_string(const Json& value, const std::string& path) {
  if (!value.is_string()) throw InputError(fmt::format("must be a string, got {}", type_name(value)), path);
  return value.get<std::string>();
}

std::vector<std::int64_t> as_int64_array(const Json& value, const std::string& path) {
  as_array(value, path);
  std::vector<std::int64_t> out;
  out.reserve(value.size());
  for (std::size_t i = 0; i < value.size(); ++i) out.push_back(as_int64(value[i], index_path(path, i)));
  return out;
}

}  // namespace redist::io
