#include "redist/io/suggest.hpp"

#include <algorithm>
#include <cctype>
#include <limits>

namespace redist::io {

namespace {

constexpr std::size_t kMaxGuessedLength = 64;

bool same_letter(char a, char b) {
  return std::tolower(static_cast<unsigned char>(a)) == std::tolower(static_cast<unsigned char>(b));
}

}  // namespace

std::size_t edit_distance(std::string_view a, std::string_view b) {
  // Three rows of the dynamic programme: i - 2, i - 1 and i.
  const std::size_t m = b.size();
  std::vector<std::size_t> before(m + 1), previous(m + 1), current(m + 1);
  for (std::size_t j = 0; j <= m; ++j) previous[j] = j;
  for (std::size_t i = 1; i <= a.size(); ++i) {
    current[0] = i;
    for (std::size_t j = 1; j <= m; ++j) {
      const std::size_t cost = same_letter(a[i - 1], b[j - 1]) ? 0 : 1;
      current[j] = std::min({previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost});
      if (i > 1 && j > 1 && same_letter(a[i - 1], b[j - 2]) && same_letter(a[i - 2], b[j - 1])) {
        current[j] = std::min(current[j], before[j - 2] + 1);
      }
    }
    std::swap(before, previous);
    std::swap(previous, current);
  }
  return previous[m];
}

std::string closest_name(std::string_view given, const std::vector<std::string>& known) {
  if (given.size() < 2 || given.size() > kMaxGuessedLength) return "";
  const std::size_t allowed = given.size() <= 4 ? 1 : 2;
  std::size_t best = std::numeric_limits<std::size_t>::max();
  std::string name;
  for (const std::string& k : known) {
    if (k == given) return "";  // nothing mistyped
    const std::size_t d = edit_distance(given, k);
    if (d <= allowed && d < best) best = d, name = k;
  }
  return name;
}

std::string did_you_mean(std::string_view given, const std::vector<std::string>& known) {
  const std::string name = closest_name(given, known);
  return name.empty() ? "" : " (did you mean '" + name + "'?)";
}

}  // namespace redist::io
