#include "redist/api/seconds.hpp"

#include <cmath>
#include <string_view>

#include "redist/io/json.hpp"
#include "redist/text/summary.hpp"

namespace redist {

double seconds_since(std::chrono::steady_clock::time_point started) {
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
  return std::round(std::max(seconds, 0.0) * 1e6) / 1e6;
}

std::string with_seconds(std::string output, double seconds) {
  constexpr std::string_view kEnd = "}\n";
  if (output.starts_with('{') && output.ends_with(kEnd)) {
    output.resize(output.size() - kEnd.size());
    while (!output.empty() && output.back() == '\n') output.pop_back();
    const bool empty = output == "{";
    output += (empty ? "\n  \"seconds\": " : ",\n  \"seconds\": ") + io::json_number(seconds);
    return output + "\n}\n";
  }
  text::Summary line;
  line.field("seconds", text::number(seconds));
  return output + line.str();
}

}  // namespace redist
