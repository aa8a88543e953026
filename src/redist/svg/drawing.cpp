// The helpers every SVG renderer of redist shares (gantt.hpp): axis ticks, XML escaping, text
// widths and numbers.
#include <algorithm>
#include <cmath>
#include <string>
#include <string_view>
#include <vector>

#include <fmt/format.h>

#include "redist/svg/gantt.hpp"

namespace redist::svg {

namespace {

bool finite(double x) { return std::isfinite(x); }

// Number of code points of a UTF-8 string.
std::size_t text_length(std::string_view text) {
  return static_cast<std::size_t>(std::count_if(text.begin(), text.end(), [](char ch) {
    return (static_cast<unsigned char>(ch) & 0xC0) != 0x80;
  }));
}

}  // namespace

double nice_step(double lo, double hi, int target) {
  if (target < 1) target = 1;
  if (!finite(lo) || !finite(hi)) return 1.0;
  if (!(hi > lo)) hi = lo + 1.0;
  const double raw = (hi - lo) / target;
  if (!finite(raw) || raw <= 0.0) return 1.0;
  const double exponent = std::floor(std::log10(raw));
  const double base = std::pow(10.0, exponent);
  const double f = raw / base;
  constexpr double eps = 1e-9;
  const double mantissa = f <= 1.0 + eps ? 1.0 : f <= 2.0 + eps ? 2.0 : f <= 5.0 + eps ? 5.0 : 10.0;
  return mantissa * base;
}

std::vector<double> nice_ticks(double lo, double hi, int target) {
  if (!finite(lo) || !finite(hi)) return {0.0};
  if (!(hi > lo)) hi = lo + 1.0;
  const double step = nice_step(lo, hi, target);
  const double first = std::ceil(lo / step - 1e-9);
  const double last = std::floor(hi / step + 1e-9);
  std::vector<double> ticks;
  for (double k = first; k <= last && ticks.size() < 1000; k += 1.0) {
    ticks.push_back(k == 0.0 ? 0.0 : k * step);
  }
  return ticks;
}

std::string xml_escape(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  std::size_t i = 0;
  while (i < text.size()) {
    const auto byte = static_cast<unsigned char>(text[i]);
    if (byte >= 0x80) {
      // Copy a well-formed UTF-8 sequence; replace anything else by U+FFFD.
      const std::size_t length = byte >= 0xF0 && byte <= 0xF4   ? 4
                                 : byte >= 0xE0                 ? 3
                                 : byte >= 0xC2 && byte <= 0xDF ? 2
                                                                : 0;
      bool ok = length > 0 && i + length <= text.size() && byte < 0xF5;
      for (std::size_t k = 1; ok && k < length; ++k) {
        ok = (static_cast<unsigned char>(text[i + k]) & 0xC0) == 0x80;
      }
      if (ok && length >= 3) {
        const auto second = static_cast<unsigned char>(text[i + 1]);
        if (byte == 0xE0 && second < 0xA0) ok = false;   // overlong
        if (byte == 0xED && second >= 0xA0) ok = false;  // surrogates
        if (byte == 0xF0 && second < 0x90) ok = false;   // overlong
        if (byte == 0xF4 && second >= 0x90) ok = false;  // above U+10FFFF
      }
      if (ok) {
        out.append(text.substr(i, length));
        i += length;
      } else {
        out += "\xEF\xBF\xBD";
        ++i;
      }
      continue;
    }
    switch (byte) {
      case '&':
        out += "&amp;";
        break;
      case '<':
        out += "&lt;";
        break;
      case '>':
        out += "&gt;";
        break;
      case '"':
        out += "&quot;";
        break;
      case '\'':
        out += "&apos;";
        break;
      default:
        // Control characters other than tab, newline and carriage return are not allowed in
        // XML 1.0 documents at all.
        out += byte < 0x20 && byte != '\t' && byte != '\n' && byte != '\r' ? ' ' : text[i];
    }
    ++i;
  }
  return out;
}

std::string format_number(double value) {
  if (value == 0.0) return "0";  // also -0
  return fmt::format("{:.6g}", value);
}

double text_width(std::string_view text, double font_size) {
  return 0.62 * font_size * static_cast<double>(text_length(text));
}

}  // namespace redist::svg
