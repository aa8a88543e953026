// The part every planner's result shares (docs/library.md, "The shape of a family"): what the
// plan achieves and what is proven about it. Each family's result (ring::Schedule, star::Schedule,
// lau::Plan, dlt::Schedule, slicering::Solution) derives from PlanClaims and adds its schedule.
//
// Every face (the JSON writer, the text summaries, the pictures, Python) states these claims as
// the planner set them and never recomputes one, so no two faces can disagree about a plan.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace redist {

// How `optimal` was established. `none` exactly when optimal is false.
enum class Proof : std::uint8_t {
  none,         // not proven optimal (the gap to lower_bound is what is known)
  lower_bound,  // the makespan meets a proven lower bound of the model
  search,       // an exhaustive search (or an integer program) found nothing shorter
  theorem,      // the algorithm is proven optimal on this class of instances (the paper's theorem)
};

// "none", "lower bound", "search", "theorem": the words the text summaries use.
inline const char* to_string(Proof proof) {
  switch (proof) {
    case Proof::lower_bound:
      return "lower bound";
    case Proof::search:
      return "search";
    case Proof::theorem:
      return "theorem";
    case Proof::none:
      break;
  }
  return "none";
}

struct PlanClaims {
  double makespan = 0.0;     // the plan's completion time, in the model's time unit
  double lower_bound = 0.0;  // a proven lower bound on every valid plan's makespan (0: none known)
  bool optimal = false;      // proven: no valid plan of the model is shorter
  Proof proof = Proof::none;
  std::vector<std::string> notes;  // remarks for a reader (why a fallback was used, ...)
  double solve_seconds = 0.0;      // wall time the planner took; never written to documents

  // Marks the plan optimal by `how` (anything but Proof::none).
  void prove_optimal(Proof how) {
    optimal = true;
    proof = how;
  }
};

}  // namespace redist
