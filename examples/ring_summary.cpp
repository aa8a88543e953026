// ring_summary: plan a redistribution on a processor ring, check it, and summarise who sends
// how many items to whom.
//
//   example-ring-summary              the ring built below, in code
//   example-ring-summary FILE.json    a ring document {"ring": {...}} (docs/formats.md), e.g.
//                                     data/examples/demo-ring.json
//
// The model (redist/ring/model.hpp): n processors on a ring, processor i holds loads[i]
// identical items and must end with targets[i]. Sending one item to the next processor costs
// cost_next[i], to the previous one (bidirectional rings) cost_prev[i]. A processor sends at most
// one item and receives at most one item at a time (one-port). The planner returns a Schedule:
// a list of Runs, each `count` items sent by `from` over one direction starting at `start`.
//
// Exit status: 0 when the schedule is valid, 1 otherwise (or on any error).
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <exception>
#include <fstream>
#include <map>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "redist/ring.hpp"

namespace {

// The ring of the example: 6 processors, two of them overloaded, heterogeneous links.
redist::ring::Instance ring_in_code() {
  redist::ring::Instance ring;
  ring.bidirectional = true;
  ring.loads = {14, 2, 3, 9, 1, 7};
  ring.targets = {6, 6, 6, 6, 6, 6};
  ring.cost_next = {1.0, 2.0, 1.0, 0.5, 1.0, 2.0};  // i -> i+1
  ring.cost_prev = {1.5, 1.0, 1.0, 2.0, 0.5, 1.0};  // i -> i-1
  return ring;
}

// A ring document as `redist ring plan` reads it: {"ring": {"bidirectional", "loads", "targets",
// "cost_next", "cost_prev"}}, a cost being one number for every link or one per processor. The
// planner validates the instance (sizes, signs, sums) and names the faulty field.
redist::ring::Instance ring_from_file(const std::string& path) {
  std::ifstream file(path);
  if (!file) throw std::runtime_error("cannot read " + path);
  const nlohmann::json ring = nlohmann::json::parse(file).at("ring");
  redist::ring::Instance instance;
  instance.bidirectional = ring.value("bidirectional", false);
  instance.loads = ring.at("loads").get<std::vector<std::int64_t>>();
  instance.targets = ring.at("targets").get<std::vector<std::int64_t>>();
  const auto costs = [&](const char* key) {
    const nlohmann::json& c = ring.at(key);
    return c.is_number() ? std::vector<double>(instance.loads.size(), c.get<double>())
                         : c.get<std::vector<double>>();
  };
  instance.cost_next = costs("cost_next");
  if (instance.bidirectional) instance.cost_prev = costs("cost_prev");
  return instance;
}

void print_counts(const char* label, const std::vector<std::int64_t>& counts) {
  std::printf("%-9s", label);
  for (const std::int64_t c : counts) std::printf(" %4lld", static_cast<long long>(c));
  std::printf("\n");
}

}  // namespace

int main(int argc, char** argv) try {
  const redist::ring::Instance ring = argc > 1 ? ring_from_file(argv[1]) : ring_in_code();
  std::printf("ring of %zu processors, %s\n", ring.size(),
              ring.bidirectional ? "bidirectional" : "unidirectional");
  print_counts("loads:", ring.loads);
  print_counts("targets:", ring.targets);

  // Plan with the default algorithm, `auto`: it picks the best planner that applies to this
  // ring (optimal ones when a theorem of RRV04 covers it) and proves optimality when it can.
  const redist::ring::Schedule schedule = redist::ring::plan(ring);

  // Check the schedule with the independent validator: every run respects the one-port model,
  // no processor sends an item it does not hold, everyone ends with its target.
  const redist::CheckResult verdict = redist::ring::check(ring, schedule);
  if (!verdict.valid) {
    std::printf("INVALID schedule: %s\n", verdict.reason.c_str());
    return 1;
  }
  if (std::abs(verdict.makespan - schedule.makespan) > 1e-9 * (1 + schedule.makespan)) {
    std::printf("makespan mismatch: planner %g, validator %g\n", schedule.makespan,
                verdict.makespan);
    return 1;
  }

  std::printf("\nalgorithm:      %s\n", schedule.algorithm.c_str());
  std::printf("makespan:       %.3f\n", schedule.makespan);
  std::printf("lower bound:    %.3f\n", schedule.lower_bound.value_or(0.0));
  std::printf("proven optimal: %s\n", schedule.optimal ? "yes" : "no");
  std::printf("check:          valid\n");
  // Remarks of the planner: how optimality was proven, why a fallback was used.
  for (const std::string& note : schedule.notes) std::printf("note:           %s\n", note.c_str());

  // Who sends how many items to whom: sum the runs per (sender, receiver) pair. An item may
  // cross several links (store and forward), so it is counted once per link it crosses.
  std::map<std::pair<std::int64_t, std::int64_t>, std::pair<std::int64_t, int>> per_link;
  for (const redist::ring::Run& run : schedule.transfers) {
    if (run.count <= 0) continue;
    const auto to =
        static_cast<std::int64_t>(ring.receiver(static_cast<std::size_t>(run.from), run.dir));
    auto& [items, runs] = per_link[{run.from, to}];
    items += run.count;
    runs += 1;
  }
  std::printf("\nitems sent per link (%zu runs):\n", schedule.transfers.size());
  for (const auto& [link, sent] : per_link) {
    std::printf("  P%lld -> P%lld: %3lld item%s in %d run%s\n", static_cast<long long>(link.first),
                static_cast<long long>(link.second), static_cast<long long>(sent.first),
                sent.first == 1 ? "" : "s", sent.second, sent.second == 1 ? "" : "s");
  }
  return 0;
} catch (const std::exception& e) {
  std::fprintf(stderr, "error: %s\n", e.what());
  return 1;
}
