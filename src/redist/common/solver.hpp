// Which method solves a family's linear program (`--solver fast|lp`, docs/formats.md): `fast`,
// the family's own exact method (RRV04 §6 System 6 by a convex search; STAR §5 LP 7 in closed
// form), or `lp`, the linear program solved by COIN-OR CLP (redist/lp). Both give the same
// optimum. The ring and dlt families offer the choice; each describes the two in its help.
#pragma once

#include <string_view>

#include "redist/common/error.hpp"

namespace redist {

enum class Solver { fast, lp };

// "fast" or "lp".
inline const char* to_string(Solver solver) { return solver == Solver::lp ? "lp" : "fast"; }

// The solver of that name; OptionError at "solver" for any other ("unknown solver 'x' (expected
// fast or lp)").
inline Solver solver_named(std::string_view name) {
  if (name == "fast") return Solver::fast;
  if (name == "lp") return Solver::lp;
  throw OptionError("unknown solver '" + one_line(name, 40) + "' (expected fast or lp)", "solver");
}

}  // namespace redist
