// STAR §5.1: divisible load on a switch (multiport, overlapped), the model.
//
// m workers on a switch. Worker i holds alpha_i units of divisible load, computes s_i units per
// time unit and sends or receives through a link of bandwidth b_i, in each direction at once, to
// any number of workers at a time (multiport), while it computes (overlapped). A schedule moves
// delta_i = sent_i - received_i from each worker by transfers, each of an `amount` at a constant
// `rate` from time 0 (it ends at amount / rate).
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "redist/common/result.hpp"
#include "redist/common/solver.hpp"

namespace redist::dlt {

// `dlt plan` refuses more workers than these (about half a minute and under 1 GB at the limit):
// JSON in and out dominate for fast; CLP's time grows about quadratically in m.
inline constexpr std::size_t kMaxWorkersFast = 1000000;
inline constexpr std::size_t kMaxWorkersLp = 50000;

struct Instance {
  std::vector<double> b;      // bandwidths, > 0
  std::vector<double> s;      // speeds, > 0
  std::vector<double> alpha;  // initial loads, >= 0
  std::size_t workers() const { return alpha.size(); }
};

struct Transfer {
  std::int64_t from = 0, to = 0;  // workers (a schedule read from a file may name unknown ones)
  double amount = 0;              // f_ij
  double rate = 0;                // f_ij / T
};

// How LP 7 is solved (planner.hpp): its closed form, or COIN-OR CLP (redist/common/solver.hpp,
// the same choice as the ring family's).
using redist::Solver;
using redist::solver_named;
using redist::to_string;

// A solver as `--solver` names and describes it.
struct SolverName {
  Solver solver;
  const char* name;
  const char* description;
};
// fast, lp, with what each does: the table of the command line's help.
const std::vector<SolverName>& solver_names();

// A schedule with its claims: algorithm ("lp7"), makespan (the latest end of a transfer or a
// computation), lower_bound (LP 7's optimum, the least makespan of the model) and optimal (by
// that bound). `solver` names the LP 7 solver that was used.
struct Schedule : PlanClaims {
  Solver solver = Solver::fast;
  std::vector<double> delta;  // sent_i - received_i
  std::vector<Transfer> transfers;
};

// Throws InputError (path relative to the instance object) on sizes, b or s not finite > 0, alpha
// not finite >= 0, sums of alpha or of s and b that overflow a double, alpha_i / s_i that
// overflows (T is at most max_i alpha_i / s_i), alpha_i / (s_i + b_i) below the smallest normal
// double (the makespan would underflow) and a total load times (m + 1) that overflows.
void validate_instance(const Instance& instance);

}  // namespace redist::dlt
