#include "redist/io/json.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <iterator>
#include <limits>
#include <sstream>
#include <unordered_set>

#include <fmt/format.h>

#include "redist/common/error.hpp"
#include "redist/io/suggest.hpp"

namespace redist::io {

namespace {

const char* type_name(const Json& v) {
  if (v.is_number_integer() || v.is_number_unsigned()) return "an integer";
  if (v.is_number_float()) return "a number";
  return v.type_name();
}

}  // namespace

namespace {

// The keys seen so far in one object: a short list for the usual few keys, a hash set beyond, so
// that a hostile object of 10^6 keys costs O(keys) and not O(keys^2).
class KeySet {
 public:
  // False when `key` was already there.
  bool insert(const std::string& key) {
    if (!large_.empty()) return large_.insert(key).second;
    if (std::find(small_.begin(), small_.end(), key) != small_.end()) return false;
    small_.push_back(key);
    if (small_.size() > 16) {
      large_.insert(small_.begin(), small_.end());
      small_.clear();
    }
    return true;
  }

 private:
  std::vector<std::string> small_;
  std::unordered_set<std::string> large_;
};

// Builds the document like nlohmann's DOM parser while tracking the JSONPath of the value being
// read, so that a syntax error or a number that overflows a double is reported where it occurs.
// It also enforces the document limits (depth, values, unique keys) as it goes, so that a hostile
// document is refused before it costs memory or time.
class PathTrackingSax : public nlohmann::detail::json_sax_dom_parser<Json> {
  using Base = nlohmann::detail::json_sax_dom_parser<Json>;

 public:
  PathTrackingSax(Json& root, const ArrayStream* stream, const JsonLimits& limits)
      : Base(root, /*allow_exceptions_=*/true), root_(root), stream_(stream), limits_(limits) {}

  bool null() { return value(Base::null()); }
  bool boolean(bool v) { return value(Base::boolean(v)); }
  bool number_integer(Json::number_integer_t v) { return value(Base::number_integer(v)); }
  bool number_unsigned(Json::number_unsigned_t v) { return value(Base::number_unsigned(v)); }
  bool number_float(Json::number_float_t v, const Json::string_t& s) {
    return value(Base::number_float(v, s));
  }
  bool string(Json::string_t& v) { return value(Base::string(v)); }
  bool binary(Json::binary_t& v) { return value(Base::binary(v)); }
  bool start_object(std::size_t n) {
    enter(false);
    return Base::start_object(n);
  }
  bool key(Json::string_t& k) {
    Frame& frame = frames_.back();
    frame.key = k;
    if (!frame.keys.insert(k)) throw InputError("duplicate key", path());
    return Base::key(k);
  }
  bool end_object() {
    frames_.pop_back();
    return value(Base::end_object());
  }
  bool start_array(std::size_t n) {
    enter(true);
    if (is_streamed_array()) values_before_stream_ = values_;
    return Base::start_array(n);
  }
  bool end_array() {
    frames_.pop_back();
    return value(Base::end_array());
  }

  std::string path() const {
    std::string p = "$";
    for (const Frame& f : frames_) {
      if (f.array) {
        p = index_path(p, f.next_index);
      } else if (!f.key.empty()) {
        p = child_path(p, f.key);
      }
    }
    return p;
  }

 private:
  struct Frame {
    bool array;
    std::size_t next_index = 0;
    std::string key;
    KeySet keys;
  };

  void enter(bool array) {
    if (frames_.size() >= limits_.depth) {
      throw InputError(fmt::format("nested deeper than {} levels", limits_.depth), path());
    }
    frames_.push_back(Frame{array, 0, {}, {}});
  }

  // The top-level member whose elements go to the stream consumer.
  bool is_streamed_array() const {
    return stream_ != nullptr && frames_.size() == 2 && frames_[1].array && !frames_[0].array &&
           frames_[0].key == stream_->member;
  }

  // Called after every complete value; hands elements of the streamed array to the consumer,
  // which then no longer count towards the document's values.
  bool value(bool ok) {
    if (++values_ > limits_.values) {
      throw InputError(
          fmt::format("more than {} values in one document (the size limit of every input)",
                      limits_.values),
          path());
    }
    if (frames_.empty() || !frames_.back().array) return ok;
    if (is_streamed_array()) {
      Json& array = root_[stream_->member];
      stream_->consume(array.back(), frames_.back().next_index);
      array.erase(array.size() - 1);
      values_ = values_before_stream_;
    }
    ++frames_.back().next_index;
    return ok;
  }

  Json& root_;
  const ArrayStream* stream_;
  JsonLimits limits_;
  std::vector<Frame> frames_;
  std::size_t values_ = 0;
  std::size_t values_before_stream_ = 0;
};

// A top-level "$schema" names the document's JSON Schema (docs/schemas/) for editors and
// validators: it is checked to be a string and removed, so that no reader sees it.
void drop_schema_reference(Json& root) {
  if (!root.is_object()) return;
  const auto it = root.find(kSchemaReference);
  if (it == root.end()) return;
  as_string(*it, child_path("$", kSchemaReference));
  root.erase(it);
}

}  // namespace

Json parse_document(std::string_view text, const ArrayStream* stream, const JsonLimits& limits) {
  // The JSON reader would take a NUL byte for the end of the input and ignore what follows.
  if (const std::size_t nul = text.find('\0'); nul != std::string_view::npos) {
    throw InputError(fmt::format("NUL byte at offset {}: a JSON document is text", nul), "$");
  }
  Json root;
  PathTrackingSax sax(root, stream, limits);
  try {
    Json::sax_parse(text.begin(), text.end(), &sax);
  } catch (const Json::exception& e) {
    std::string what = e.what();
    // nlohmann prefixes "[json.exception.parse_error.101] "; keep the readable part.
    if (auto pos = what.find("] "); pos != std::string::npos) what = what.substr(pos + 2);
    if (e.id == 406) throw InputError("must be a finite number (" + what + ")", sax.path());
    throw InputError("malformed JSON: " + what, sax.path());
  }
  drop_schema_reference(root);
  return root;
}

std::string read_text(const std::string& file) {
  const bool from_stdin = file.empty() || file == "-";
  std::ifstream in_file;
  if (!from_stdin) {
    in_file.open(file, std::ios::binary);
    if (!in_file)
      throw InputError(fmt::format("cannot read file '{}'", one_line(file)), "command line");
  }
  std::istream& in = from_stdin ? std::cin : in_file;
  // Errors name the input in their text and stand at "command line": a file's path is no place
  // in a JSON document.
  const std::string input = from_stdin ? "standard input" : fmt::format("'{}'", one_line(file));
  std::error_code error;
  if (!from_stdin && std::filesystem::is_directory(file, error)) {
    throw InputError(fmt::format("cannot read {}: it is a directory", input), "command line");
  }
  std::string text;
  // A file's size known up front: the text never grows by a copy (a growing string holds its old
  // and new buffers at once, up to twice the text).
  if (!from_stdin) {
    const std::uintmax_t size = std::filesystem::file_size(file, error);
    if (!error && size <= kMaxDocumentBytes) text.reserve(static_cast<std::size_t>(size));
  }
  char chunk[1 << 16];
  while (in.read(chunk, sizeof chunk) || in.gcount() > 0) {
    if (text.size() + static_cast<std::size_t>(in.gcount()) > kMaxDocumentBytes) {
      throw InputError(fmt::format("{} is larger than {} MiB (the size limit of every input)",
                                   input, kMaxDocumentBytes >> 20),
                       "command line");
    }
    text.append(chunk, static_cast<std::size_t>(in.gcount()));
  }
  if (in.bad()) throw InputError(fmt::format("read error in {}", input), "command line");
  return text;
}

Json read_document(const std::string& file) { return parse_document(read_text(file)); }

std::string json_number(double value) {
  if (!std::isfinite(value)) throw NonFiniteResult("a computed time or amount");
  std::string text = fmt::format("{}", value);
  if (text.find_first_not_of("-0123456789") == std::string::npos) text += ".0";
  return text;
}

namespace {

void require_finite_at(const OrderedJson& value, const std::string& path) {
  if (value.is_number_float() && !std::isfinite(value.get<double>())) {
    throw NonFiniteResult("the value at " + path);
  }
  if (value.is_array()) {
    for (std::size_t i = 0; i < value.size(); ++i) require_finite_at(value[i], index_path(path, i));
  } else if (value.is_object()) {
    for (auto it = value.begin(); it != value.end(); ++it) {
      require_finite_at(it.value(), child_path(path, it.key()));
    }
  }
}

}  // namespace

void require_finite_numbers(const OrderedJson& document) { require_finite_at(document, "$"); }

ScheduleHeader read_schedule_header(const Json& document,
                                    std::initializer_list<std::string_view> members) {
  as_object(document, "$");
  reject_unknown_fields(document, "$", members);
  as_array(require(document, "$", "transfers"), "$.transfers");
  ScheduleHeader out{read_plan_summary(document), {}};
  if (auto it = document.find("gap"); it != document.end()) as_finite_number(*it, "$.gap");
  if (auto it = document.find("notes"); it != document.end()) {
    const Json& notes = as_array(*it, "$.notes");
    for (std::size_t k = 0; k < notes.size(); ++k)
      out.notes.push_back(as_string(notes[k], index_path("$.notes", k)));
  }
  return out;
}

PlanSummary read_plan_summary(const Json& document) {
  const std::string path = "$";
  PlanSummary summary;
  if (auto it = document.find("algorithm"); it != document.end()) {
    summary.algorithm = as_string(*it, child_path(path, "algorithm"));
  }
  if (auto it = document.find("makespan"); it != document.end()) {
    summary.makespan = as_finite_number(*it, child_path(path, "makespan"));
  }
  if (auto it = document.find("lower_bound"); it != document.end() && !it->is_null()) {
    summary.lower_bound = as_finite_number(*it, child_path(path, "lower_bound"));
  }
  if (auto it = document.find("optimal"); it != document.end() && !it->is_null()) {
    summary.optimal = as_bool(*it, child_path(path, "optimal"));
  }
  if (auto it = document.find("status"); it != document.end()) {
    summary.status = read_status(*it, summary.optimal);
  }
  // The seconds a command states (docs/formats.md) are not a claim: only their type is checked.
  if (auto it = document.find("seconds"); it != document.end()) {
    as_finite_number(*it, child_path(path, "seconds"));
  }
  return summary;
}

Status read_status(const Json& value, std::optional<bool> optimal) {
  const std::string path = "$.status";
  const std::optional<Status> status = status_named(as_string(value, path));
  if (!status) {
    throw InputError("must be one of \"optimal\", \"feasible\", \"time limit\", \"node limit\"",
                     path);
  }
  if (optimal && *optimal != (*status == Status::optimal)) {
    throw InputError(*optimal ? "must be \"optimal\": the plan claims to be optimal"
                              : "cannot be \"optimal\": the plan does not claim to be optimal",
                     path);
  }
  return *status;
}

void read_plan_claims(const PlanSummary& summary, PlanClaims& claims) {
  claims.algorithm = summary.algorithm;
  claims.makespan = summary.makespan.value_or(0.0);
  claims.lower_bound = summary.lower_bound;
  claims.optimal = summary.optimal.value_or(false);
  claims.proof = Proof::none;
  claims.status = summary.status.value_or(claims.optimal ? Status::optimal : Status::feasible);
}

void write_plan_claims(std::string& out, const PlanClaims& claims) {
  out += "{\n  \"algorithm\": ";
  out += Json(claims.algorithm).dump();
  out += ",\n  \"makespan\": ";
  out += json_number(claims.makespan);
  if (claims.lower_bound) {
    out += ",\n  \"lower_bound\": ";
    out += json_number(*claims.lower_bound);
  }
  if (const std::optional<double> gap = claims.gap()) {
    out += ",\n  \"gap\": ";
    // A proven optimum has no gap, whatever the rounding of makespan / lower_bound.
    out += claims.optimal ? "0" : json_number(*gap);
  }
  out += ",\n  \"optimal\": ";
  out += claims.optimal ? "true" : "false";
  out += ",\n  \"status\": ";
  out += Json(to_string(claims.status)).dump();
}

std::string child_path(const std::string& path, std::string_view key) {
  const bool plain =
      !key.empty() && key.size() <= 64 && std::all_of(key.begin(), key.end(), [](char c) {
        return std::isalnum(static_cast<unsigned char>(c)) || c == '_';
      });
  if (plain) return fmt::format("{}.{}", path, key);
  // Any other key is quoted, with its control characters escaped and its length capped, so that
  // an error line stays one short line whatever the document holds.
  return fmt::format("{}[{}]", path, Json(one_line(key, 64)).dump());
}

std::string index_path(const std::string& path, std::size_t index) {
  return fmt::format("{}[{}]", path, index);
}

const Json& as_object(const Json& value, const std::string& path) {
  if (!value.is_object())
    throw InputError(fmt::format("must be an object, got {}", type_name(value)), path);
  return value;
}

const Json& as_array(const Json& value, const std::string& path) {
  if (!value.is_array())
    throw InputError(fmt::format("must be an array, got {}", type_name(value)), path);
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
    if (!known) {
      const std::vector<std::string> names(allowed.begin(), allowed.end());
      throw InputError(std::string(kUnknownField) + did_you_mean(it.key(), names),
                       child_path(path, it.key()));
    }
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
  if (!value.is_number())
    throw InputError(fmt::format("must be a number, got {}", type_name(value)), path);
  const double d = value.get<double>();
  if (!std::isfinite(d)) throw InputError("must be a finite number", path);
  return d;
}

double as_normal_number(const Json& value, const std::string& path) {
  const double d = as_finite_number(value, path);
  if (d != 0 && std::fabs(d) < std::numeric_limits<double>::min()) {
    throw InputError(fmt::format("must be 0 or at least {} in magnitude (the smallest normal "
                                 "double), got {}",
                                 std::numeric_limits<double>::min(), value.dump()),
                     path);
  }
  return d;
}

double as_positive_number(const Json& value, const std::string& path) {
  const double d = as_finite_number(value, path);
  if (!(d > 0)) throw InputError(fmt::format("must be > 0, got {}", value.dump()), path);
  if (d < std::numeric_limits<double>::min()) {
    throw InputError(fmt::format("must be at least {} (the smallest normal double), got {}",
                                 std::numeric_limits<double>::min(), value.dump()),
                     path);
  }
  return d;
}

bool as_bool(const Json& value, const std::string& path) {
  if (!value.is_boolean())
    throw InputError(fmt::format("must be true or false, got {}", type_name(value)), path);
  return value.get<bool>();
}

std::string as_string(const Json& value, const std::string& path) {
  if (!value.is_string())
    throw InputError(fmt::format("must be a string, got {}", type_name(value)), path);
  return value.get<std::string>();
}

std::vector<std::int64_t> as_int64_array(const Json& value, const std::string& path) {
  as_array(value, path);
  std::vector<std::int64_t> out;
  out.reserve(value.size());
  for (std::size_t i = 0; i < value.size(); ++i)
    out.push_back(as_int64(value[i], index_path(path, i)));
  return out;
}

std::vector<double> as_finite_number_array(const Json& value, const std::string& path) {
  as_array(value, path);
  std::vector<double> out;
  out.reserve(value.size());
  for (std::size_t i = 0; i < value.size(); ++i) {
    out.push_back(as_finite_number(value[i], index_path(path, i)));
  }
  return out;
}

namespace {

// Top-level members one per line; arrays of scalars inline; arrays of objects one object per line
// (a schedule of 10^6 runs stays one line per run, readable and diff-friendly).
void write_compact(std::string& out, const OrderedJson& value, int indent) {
  const std::string pad(static_cast<std::size_t>(indent), ' ');
  if (value.is_object() && indent == 0) {
    out += "{";
    bool first = true;
    for (auto it = value.begin(); it != value.end(); ++it) {
      out += first ? "\n" : ",\n";
      first = false;
      out += "  " + OrderedJson(it.key()).dump() + ": ";
      write_compact(out, it.value(), 2);
    }
    out += first ? "}" : "\n}";
    return;
  }
  if (value.is_array() && !value.empty() && value.front().is_structured()) {
    out += "[";
    for (std::size_t i = 0; i < value.size(); ++i) {
      out += (i == 0 ? "\n" : ",\n") + pad + "  " + value[i].dump();
    }
    out += "\n" + pad + "]";
    return;
  }
  out += value.dump();
}

}  // namespace

std::string output_text(const OrderedJson& document) {
  require_finite_numbers(document);
  std::string out;
  write_compact(out, document, 0);
  out += "\n";
  return out;
}

std::string check_result_text(const CheckResult& result) {
  OrderedJson out;
  out["valid"] = result.valid;
  if (result.valid) {
    out["makespan"] = result.makespan;
  } else {
    out["reason"] = result.reason;
  }
  return output_text(out);
}

}  // namespace redist::io
