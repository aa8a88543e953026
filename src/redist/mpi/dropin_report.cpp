#include "redist/mpi/dropin_report.hpp"

#include <cmath>

#include <fmt/format.h>

namespace redist::mpi::dropin {

namespace {

// A JSON number: shortest round-trip form; never inf or NaN (those become -1, "unknown").
std::string number(double x) { return std::isfinite(x) ? fmt::format("{}", x) : "-1"; }

std::string quoted(const std::string& text) {
  std::string out = "\"";
  for (char c : text) {
    if (c == '"' || c == '\\') {
      out += '\\';
      out += c;
    } else if (static_cast<unsigned char>(c) < 0x20) {
      out += fmt::format("\\u{:04x}", static_cast<int>(c));
    } else {
      out += c;
    }
  }
  return out + "\"";
}

double mean(double total, std::int64_t count) {
  return count > 0 ? total / static_cast<double>(count) : -1.0;
}

}  // namespace

std::string pattern_json(const PatternReport& p) {
  const bool redist = p.choice == "redist";
  const double measured =
      redist ? mean(p.redist_s, p.redist_measured) : mean(p.native_s, p.native_measured);
  return fmt::format(
      "{{\"hash\": {}, \"ranks\": {}, \"bytes\": {}, \"messages\": {}, \"calls\": {}, "
      "\"cache_hits\": {}, \"choice\": {}, \"reason\": {}, \"algorithm\": {}, "
      "\"lower_bound_s\": {}, \"predicted_native_s\": {}, \"predicted_redist_s\": {}, "
      "\"plan_s\": {}, \"measured_s\": {}, \"native_calls\": {}, \"redist_calls\": {}, "
      "\"measured_native_s\": {}, \"measured_redist_s\": {}}}",
      quoted(p.hash), p.ranks, p.bytes, p.messages, p.calls, p.cache_hits, quoted(p.choice),
      quoted(p.reason), quoted(p.algorithm), number(p.lower_bound_s), number(p.predicted_native_s),
      number(p.predicted_redist_s), number(p.plan_s), number(measured), p.native_calls,
      p.redist_calls, number(mean(p.native_s, p.native_measured)),
      number(mean(p.redist_s, p.redist_measured)));
}

std::string report_json(const Report& r, const std::string& more_patterns) {
  std::string out = fmt::format(
      "{{\"report\": {{\"ranks\": {}, \"mode\": {}, \"min_gain\": {}, \"platform\": {}, "
      "\"calibration_s\": {}, \"patterns\": [",
      r.ranks, quoted(r.mode), number(r.min_gain), quoted(r.platform), number(r.calibration_s));
  std::vector<std::string> all;
  for (const PatternReport& p : r.patterns) all.push_back(pattern_json(p));
  std::size_t at = 0;
  while (at < more_patterns.size()) {
    const std::size_t end = more_patterns.find('\n', at);
    const std::size_t stop = end == std::string::npos ? more_patterns.size() : end;
    if (stop > at) all.push_back(more_patterns.substr(at, stop - at));
    at = stop + 1;
  }
  for (std::size_t k = 0; k < all.size(); ++k) out += (k ? ",\n  " : "\n  ") + all[k];
  out += "],\n \"fallbacks\": {";
  bool first = true;
  for (const auto& [reason, calls] : r.fallbacks) {
    out += fmt::format("{}{}: {}", first ? "" : ", ", quoted(reason), calls);
    first = false;
  }
  return out + "}}}\n";
}

}  // namespace redist::mpi::dropin
