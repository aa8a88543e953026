// Which method solves the linear systems of RRV04 §6 (`--solver fast|lp`): redist::Solver
// (redist/common/solver.hpp), the same choice as the dlt family's. fast: an exact combinatorial
// method; lp: a real LP solver (redist/lp) plus exact rounding. Both give the same makespan.
#pragma once

#include "redist/common/solver.hpp"

namespace redist::ring {

using redist::Solver;
using redist::solver_named;

}  // namespace redist::ring
