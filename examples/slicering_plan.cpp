// slicering_plan: balance an iterative computation on a small heterogeneous cluster (SliceRing):
// choose which processors form a ring, in which order, and the share of the work of each.
//
//   example-slicering-plan
//
// The model (redist/slicering/model.hpp): processor i computes one unit of work in w[i]; sending
// one unit of data from i to j takes c[i][j]. Each iteration does W units of work, split by the
// shares alpha (summing to 1) among the ring's processors, and each ring member exchanges H units
// of data with both neighbours. The time of one iteration is
//   T_step = max over the ring of alpha_i W w[i] + H (c[i][pred(i)] + c[i][succ(i)]),
// the solution's makespan. Processors left out of the ring do nothing.
//
// Exit status: 0 when both solutions check, 1 otherwise (or on any error).
#include <cstddef>
#include <cstdio>
#include <exception>
#include <string>

#include "redist/slicering.hpp"

namespace {

// Plans `cluster` with `algorithm`, checks the solution and prints it. False when the check fails.
bool plan_and_show(const redist::slicering::Cluster& cluster, const std::string& algorithm) {
  redist::slicering::PlanOptions options;
  options.algorithm = algorithm;  // options.ring_size would force the number of ring members
  const redist::slicering::Solution solution = redist::slicering::plan(cluster, options);

  // The checker recomputes T_step from the cluster, the ring and the shares alone, and checks the
  // solution's claims (makespan, lower bound, optimality) against it.
  const redist::CheckResult verdict = redist::slicering::check(cluster, solution);
  if (!verdict.valid) {
    std::printf("%s: INVALID solution: %s\n", algorithm.c_str(), verdict.reason.c_str());
    return false;
  }

  std::printf("--algorithm %s\n", solution.algorithm.c_str());
  std::printf("  ring:          ");
  for (const std::size_t p : solution.ring) std::printf(" P%zu", p);
  std::printf("  (%zu of %zu processors)\n", solution.ring.size(), cluster.size());
  std::printf("  shares:        ");
  for (const double a : solution.alpha) std::printf(" %.4f", a);
  std::printf("\n");
  std::printf("  T_step:         %.4f\n", solution.makespan);
  if (solution.lower_bound) {  // greedy proves none
    std::printf("  lower bound:    %.4f\n", *solution.lower_bound);
  } else {
    std::printf("  lower bound:    none\n");
  }
  std::printf("  proven optimal: %s\n", solution.optimal ? "yes" : "no");
  for (const std::string& note : solution.notes)
    std::printf("  note:           %s\n", note.c_str());
  return true;
}

}  // namespace

int main() try {
  // Five processors: P0 and P1 are fast, P4 is slow and far from everyone (slow links).
  redist::slicering::Cluster cluster;
  cluster.w = {1.0, 1.5, 2.0, 3.0, 8.0};  // time per unit of work
  cluster.c = {
      // to P0  P1   P2   P3   P4       time per unit of data, row i = from Pi
      0.0, 0.2, 0.5, 1.0, 4.0,  // P0
      0.2, 0.0, 0.3, 0.4, 4.0,  // P1
      0.5, 0.3, 0.0, 0.2, 4.0,  // P2
      1.0, 0.4, 0.2, 0.0, 4.0,  // P3
      4.0, 4.0, 4.0, 4.0, 0.0,  // P4
  };
  cluster.W = 20.0;  // work per iteration
  cluster.H = 1.0;   // data exchanged with each neighbour per iteration
  std::printf("cluster of %zu processors, W = %g, H = %g\n\n", cluster.size(), cluster.W,
              cluster.H);

  // greedy (the default) grows the ring one processor at a time (SLICE §6.2): fast, no proof.
  // exact enumerates the rings with Held-Karp and branch and bound and proves its optimum.
  bool ok = plan_and_show(cluster, "greedy");
  std::printf("\n");
  ok = plan_and_show(cluster, "exact") && ok;
  return ok ? 0 : 1;
} catch (const std::exception& e) {
  std::fprintf(stderr, "error: %s\n", e.what());
  return 1;
}
