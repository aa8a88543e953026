// Which method solves the linear systems of RRV04 §6 (docs/formats.md, `--solver fast|lp`).
#pragma once

namespace redist::ring {

// fast: an exact combinatorial method; lp: a real LP solver (redist/lp) plus exact rounding.
// Both give the same makespan.
enum class Solver { fast, lp };

}  // namespace redist::ring
