// star_rebalance: redistribute unbalanced tasks on a star (master-worker) platform, with the
// default planner and with the exact search, and show each worker's task count before and after.
//
//   example-star-rebalance
//
// The model (redist/star/model.hpp): worker i holds loads[i] identical independent tasks,
// computes one in w[i] and sends or receives one to or from the master in c[i]. A task moves
// from worker `from` to the master, then from the master to worker `to` (one Transfer per task);
// the master sends one task and receives one task at a time. The makespan is the end of the
// last computation; the lower bound counts computation and the master's ports, or is the makespan
// when proven optimal (by a theorem, or by the exact search that `best` runs on small instances).
//
// Exit status: 0 when both schedules are valid, 1 otherwise (or on any error).
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <exception>
#include <string>
#include <vector>

#include "redist/star.hpp"

namespace {

// Plans `platform` with `algorithm`, checks the schedule and prints its summary. False when the
// schedule is invalid.
bool plan_and_show(const redist::star::Instance& platform, const std::string& algorithm) {
  const redist::star::Schedule schedule = redist::star::plan(platform, {.algorithm = algorithm});

  // The independent validator replays every transfer and computation under the one-port model.
  const redist::CheckResult verdict = redist::star::check(platform, schedule);
  if (!verdict.valid) {
    std::printf("%s: INVALID schedule: %s\n", algorithm.c_str(), verdict.reason.c_str());
    return false;
  }

  std::printf("--algorithm %s\n", algorithm.c_str());
  std::printf("  planner:        %s\n", schedule.algorithm.c_str());
  std::printf("  makespan:       %.3f\n", schedule.makespan);
  std::printf("  lower bound:    %.3f\n", schedule.lower_bound.value_or(0.0));
  std::printf("  proven optimal: %s\n", schedule.optimal ? "yes" : "no");
  std::printf("  check:          valid, makespan %.3f\n", verdict.makespan);
  for (const std::string& note : schedule.notes)
    std::printf("  note:           %s\n", note.c_str());

  // Each worker's tasks after the redistribution: its own, minus those it sends, plus those the
  // master forwards to it.
  std::vector<std::int64_t> after = platform.loads;
  for (const redist::star::Transfer& t : schedule.transfers) {
    --after[static_cast<std::size_t>(t.from)];
    ++after[static_cast<std::size_t>(t.to)];
  }
  std::printf("  %zu tasks moved\n", schedule.transfers.size());
  std::printf("  worker   c   w  before  after  finish\n");
  for (std::size_t i = 0; i < platform.workers(); ++i) {
    std::printf("  %6zu %3g %3g %7lld %6lld %7.3f\n", i, platform.c[i], platform.w[i],
                static_cast<long long>(platform.loads[i]), static_cast<long long>(after[i]),
                schedule.finish[i]);
  }
  return true;
}

}  // namespace

int main() try {
  // Four workers: worker 0 holds most of the tasks; worker 2 computes fast but has a slow link.
  redist::star::Instance platform;
  platform.c = {1, 1, 3, 2};  // time to send or receive one task
  platform.w = {4, 3, 2, 5};  // time to compute one task
  platform.loads = {11, 1, 0, 2};

  // `best` (the default) keeps the best of the heuristics BBA, MBBSA and R-BSA, then runs the
  // exact search from it on small instances (at most 6 workers and 40 tasks), which proves the
  // optimum or finds better; `exact` runs that search alone.
  bool ok = plan_and_show(platform, "best");
  std::printf("\n");
  ok = plan_and_show(platform, "exact") && ok;
  return ok ? 0 : 1;
} catch (const std::exception& e) {
  std::fprintf(stderr, "error: %s\n", e.what());
  return 1;
}
