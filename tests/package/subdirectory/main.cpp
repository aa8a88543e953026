// The program of the add_subdirectory test (package_subdirectory_test.sh): a project that uses one
// family's library, redist::ring, through its typed API. Plans the bidirectional ring given on the
// command line and prints its makespan (17 significant digits), whether it is optimal and whether
// the independent validator accepts it, one per line.
// Usage: subdirectory-consumer LOADS TARGETS COST_NEXT COST_PREV (comma-separated lists)
#include <cstdint>
#include <cstdio>
#include <exception>
#include <sstream>
#include <string>
#include <vector>

#include "redist/ring.hpp"

namespace {

template <typename T>
std::vector<T> read_list(const std::string& text) {
  std::vector<T> values;
  std::istringstream in(text);
  for (std::string item; std::getline(in, item, ',');)
    values.push_back(static_cast<T>(std::stod(item)));
  return values;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 5) {
    std::fprintf(stderr, "usage: subdirectory-consumer LOADS TARGETS COST_NEXT COST_PREV\n");
    return 2;
  }
  try {
    redist::ring::Instance ring;
    ring.bidirectional = true;
    ring.loads = read_list<std::int64_t>(argv[1]);
    ring.targets = read_list<std::int64_t>(argv[2]);
    ring.cost_next = read_list<double>(argv[3]);
    ring.cost_prev = read_list<double>(argv[4]);
    const redist::ring::Schedule schedule = redist::ring::plan(ring);
    std::printf("makespan %.17g\noptimal %s\nvalid %s\n", schedule.makespan,
                schedule.optimal ? "true" : "false",
                redist::ring::check(ring, schedule).valid ? "true" : "false");
  } catch (const std::exception& error) {
    std::fprintf(stderr, "error: %s\n", error.what());
    return 1;
  }
  return 0;
}
