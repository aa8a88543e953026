#include "redist/api/seconds.hpp"

#include <cmath>
#include <ostream>
#include <string_view>

#include "redist/io/json.hpp"
#include "redist/text/summary.hpp"

namespace redist {

double seconds_since(std::chrono::steady_clock::time_point started) {
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
  return std::round(std::max(seconds, 0.0) * 1e6) / 1e6;
}

namespace {

// Where the seconds go: the first `keep` characters of the output, then `tail`.
struct WithSeconds {
  std::size_t keep;
  std::string tail;
};

WithSeconds place_seconds(std::string_view output, double seconds) {
  constexpr std::string_view kEnd = "}\n";
  if (output.starts_with('{') && output.ends_with(kEnd)) {
    std::size_t keep = output.size() - kEnd.size();
    while (keep > 0 && output[keep - 1] == '\n') --keep;
    const bool empty = keep == 1;  // the document was "{}"
    return {keep, (empty ? "\n  \"seconds\": " : ",\n  \"seconds\": ") + io::json_number(seconds) +
                      "\n}\n"};
  }
  text::Summary line;
  line.field("seconds", text::number(seconds));
  return {output.size(), line.str()};
}

}  // namespace

std::string with_seconds(std::string output, double seconds) {
  const WithSeconds placed = place_seconds(output, seconds);
  output.resize(placed.keep);
  output += placed.tail;
  return output;
}

void write_with_seconds(std::ostream& out, std::string_view output, double seconds) {
  const WithSeconds placed = place_seconds(output, seconds);
  out.write(output.data(), static_cast<std::streamsize>(placed.keep));
  out << placed.tail;
}

}  // namespace redist
