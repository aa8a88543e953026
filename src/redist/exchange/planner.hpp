// Choosing an exchange planner by name (`redist exchange plan --algorithm NAME`).
#pragma once

#include <array>
#include <string_view>

#include "redist/exchange/model.hpp"

namespace redist::exchange {

struct AlgorithmName {
  std::string_view name;
  std::string_view description;  // one line of the command's help
};

// Every algorithm, in the order the help lists them; `auto` first (the default).
inline constexpr std::array<AlgorithmName, 6> kAlgorithms{{
    {"auto",
     "preemptive when it applies and no start-up cost is charged, else the better of "
     "preemptive and whole (the default)"},
    {"preemptive",
     "matchings of the message matrix: optimal without start-up cost (one-port, "
     "no backbone)"},
    {"whole",
     "every message in one piece, dense greedy: within 2x of the bound (3x with a "
     "backbone)"},
    {"ggp",
     "KPBS steps by graph peeling (Cohen et al.): within 2 (eta + latency) of the step "
     "bound eta"},
    {"oggp",
     "ggp peeling bottleneck matchings: fewer steps, same guarantee, slower (small "
     "instances)"},
    {"steps", "each message whole, greedy steps longest first: a step baseline, no guarantee"},
}};

// The plan of the named algorithm; OptionError at "algorithm" for an unknown name or one that
// does not apply, InputError for an invalid instance. Sets solve_seconds.
Plan plan(const Instance& instance, std::string_view algorithm = "auto");

}  // namespace redist::exchange
