// particles-recording-check: reads a recording written by `particles --record FILE`
// (experiments/particles/recording.hpp) and checks that it holds the expected number of proposals.
//
//   particles-recording-check FILE K
//
// Reads FILE with recording_from_json (which validates it: sizes, owners in 0..P-1, speeds > 0)
// and requires K proposals and K rows of speeds. Prints what it holds and, for each pair of
// consecutive proposals, how many particles change owner (the largest and the mean).
// Exit 0 when valid with K proposals, 1 when the count differs, 2 when FILE cannot be read or is
// refused (one `error:` line).
#include <algorithm>
#include <cstdint>
#include <fstream>
#include <iostream>
#include <sstream>
#include <string>
#include <variant>

#include <fmt/format.h>

#include "experiments/particles/recording.hpp"
#include "redist/common/error.hpp"
#include "redist/common/parse.hpp"

namespace {

int error(const std::string& what) {
  std::cerr << "error: particles-recording-check: " << redist::one_line(what, 600) << "\n";
  return 2;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 3) return error("usage: particles-recording-check FILE K");
  const redist::Parsed<std::int64_t> k = redist::parse_integer<std::int64_t>(argv[2]);
  if (!std::holds_alternative<std::int64_t>(k)) return error("K must be a decimal integer");
  std::ifstream in(argv[1]);
  if (!in) return error(fmt::format("cannot read {}", argv[1]));
  std::stringstream text;
  text << in.rdbuf();
  redist::experiments::PartitionRecording r;
  try {
    r = redist::experiments::recording_from_json(text.str());
  } catch (const std::exception& e) {
    return error(e.what());
  }
  std::int64_t most = 0, all = 0;
  for (std::size_t j = 1; j < r.proposals.size(); ++j) {
    std::int64_t changed = 0;
    for (std::size_t i = 0; i < r.proposals[j].size(); ++i)
      changed += r.proposals[j][i] != r.proposals[j - 1][i];
    most = std::max(most, changed);
    all += changed;
  }
  const auto pairs = static_cast<double>(std::max<std::size_t>(r.proposals.size(), 2) - 1);
  std::cout << fmt::format(
      "recording: {} proposals of {} particles on {} ranks ({})\n"
      "owners changed between consecutive proposals: at most {}, {:.1f} on average\n",
      r.proposals.size(), r.particles.particles, r.ranks, r.partitioner, most,
      static_cast<double>(all) / pairs);
  const std::int64_t want = std::get<std::int64_t>(k);
  if (r.iterations() != want || static_cast<std::int64_t>(r.proposals.size()) != want) {
    std::cout << fmt::format("FAIL: {} proposals, want {}\n", r.proposals.size(), want);
    return 1;
  }
  std::cout << "valid: yes\n";
  return 0;
}
