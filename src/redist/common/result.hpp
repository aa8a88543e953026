// The part every planner's result shares (docs/library.md, "The shape of a family"): what the
// plan achieves, how the planner ended and what is proven about it. Each family's result
// (ring::Schedule, star::Schedule, lau::Plan, dlt::Schedule, slicering::Solution, exchange::Plan)
// derives from PlanClaims and adds its schedule.
//
// Every face (the JSON writer, the text summaries, the pictures, Python) states these claims as
// the planner set them and never recomputes one, so no two faces can disagree about a plan.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
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

// How the planner ended. A refusal is no status: it is an error, and there is no plan.
enum class Status : std::uint8_t {
  feasible,    // a valid plan, not proven optimal
  optimal,     // a valid plan proven optimal (optimal == true)
  time_limit,  // a search stopped at its time limit and returned its best plan
  node_limit,  // a search stopped at its node (work) limit and returned its best plan
};

// "feasible", "optimal", "time limit", "node limit": the words every face prints.
inline const char* to_string(Status status) {
  switch (status) {
    case Status::optimal:
      return "optimal";
    case Status::time_limit:
      return "time limit";
    case Status::node_limit:
      return "node limit";
    case Status::feasible:
      break;
  }
  return "feasible";
}

// The status a document names ("optimal", "feasible", "time limit", "node limit"), or nullopt.
inline std::optional<Status> status_named(std::string_view name) {
  for (Status s : {Status::feasible, Status::optimal, Status::time_limit, Status::node_limit}) {
    if (name == to_string(s)) return s;
  }
  return std::nullopt;
}

// Whether a search stopped at one of its limits (Status::time_limit or Status::node_limit).
inline bool stopped_at_limit(Status status) {
  return status == Status::time_limit || status == Status::node_limit;
}

struct PlanClaims {
  std::string algorithm;              // the algorithm that made the plan
  double makespan = 0.0;              // the plan's completion time, in the model's time unit
  std::optional<double> lower_bound;  // a proven lower bound on every valid plan's makespan
  bool optimal = false;               // proven: no valid plan of the model is shorter
  Proof proof = Proof::none;
  Status status = Status::feasible;
  std::vector<std::string> notes;  // remarks for a reader (why a fallback was used, ...)
  double solve_seconds = 0.0;      // wall time the planner took; never written to documents

  // Marks the plan optimal by `how` (anything but Proof::none).
  void prove_optimal(Proof how) {
    optimal = true;
    proof = how;
    status = Status::optimal;
  }

  // Withdraws every proof: a feasible plan (for a result copied from another planner's).
  void drop_proof() {
    optimal = false;
    proof = Proof::none;
    status = Status::feasible;
  }

  // Records that a search stopped at `limit` (Status::time_limit or Status::node_limit) before
  // it proved its best plan optimal.
  void stop_at(Status limit) {
    optimal = false;
    proof = Proof::none;
    status = limit;
  }

  // The relative distance to the lower bound, makespan / lower_bound - 1 (0 for a proven optimum,
  // never negative), when a finite bound is known and the ratio is a number: 0 when makespan and
  // bound are both 0, nullopt when only the bound is 0 or the ratio overflows. The one place the
  // gap is computed: every face prints this value.
  std::optional<double> gap() const {
    if (!lower_bound || !std::isfinite(*lower_bound)) return std::nullopt;
    if (optimal) return 0.0;
    if (*lower_bound <= 0) return makespan <= 0 ? std::optional<double>(0.0) : std::nullopt;
    const double ratio = makespan / *lower_bound - 1.0;
    if (!std::isfinite(ratio)) return std::nullopt;
    return std::max(0.0, ratio);
  }

  // Whether optimal, proof and status agree: optimal exactly when status is Status::optimal, and
  // a proof only for an optimal plan. A planner's optimal plan also names its proof; a document
  // read from a file states no proof.
  bool consistent() const {
    return optimal == (status == Status::optimal) && (optimal || proof == Proof::none);
  }
};

}  // namespace redist
