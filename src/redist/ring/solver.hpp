// Which method solves the linear systems of RRV04 §6 (docs/formats.md, `--solver fast|lp`).
#pragma once

#include <string_view>

#include "redist/common/error.hpp"

namespace redist::ring {

// fast: an exact combinatorial method; lp: a real LP solver (redist/lp) plus exact rounding.
// Both give the same makespan.
enum class Solver { fast, lp };

// The solver of the command line's --solver NAME; OptionError at "solver" for any other name.
inline Solver solver_named(std::string_view name) {
  if (name == "fast") return Solver::fast;
  if (name == "lp") return Solver::lp;
  throw OptionError("unknown solver '" + one_line(name, 40) + "' (expected fast or lp)", "solver");
}

}  // namespace redist::ring
