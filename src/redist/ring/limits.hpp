// Size limits of the ring commands (docs/formats.md): beyond them a command would need more than a
// few GB of memory or a few minutes, so the instance is refused up front with an InputError naming
// the limit and the way around it. docs/ring-algorithms.md ("Limits and extreme inputs") lists
// them with measured peak memory and time at each limit.
#pragma once

#include <cstddef>

namespace redist::ring {

// Processors in a ring instance (every command; checked by the instance reader).
inline constexpr std::size_t kMaxProcessors = 2'000'000;

// Processors for `--solver lp` (the LP of System 6 has 3n rows; CLP takes ~12 s at n = 10^4 on a
// loaded 2-core machine and grows faster than linearly). `--solver fast` gives the same optimum.
inline constexpr std::size_t kMaxLpProcessors = 10'000;

// Runs in a schedule read by `ring check` (refused while streaming the transfers).
inline constexpr std::size_t kMaxCheckRuns = 10'000'000;

}  // namespace redist::ring
