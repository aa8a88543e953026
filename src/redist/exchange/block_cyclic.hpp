// The messages of moving a 1-D array from a CYCLIC(r) distribution on P processors to CYCLIC(s)
// on Q processors, the ScaLAPACK redistribution problem (docs/exchange.md, "Block-cyclic
// arrays"; Desprez, Dongarra, Petitet, Randriamaro and Robert, IEEE TPDS 9(2), 1998).
//
// Element e (0 <= e < N) is on processor floor(e / r) mod P before and on floor(e / s) mod Q
// after; each element that changes processor is a message of B bytes from its old owner to its
// new one, and the messages of a pair are summed. The instance has max(P, Q) nodes, bandwidths 1
// and latency 0 (set them afterwards for a platform).
// Complexity: the owners are constant on runs between multiples of r and s, and the pattern
// repeats every lcm(rP, sQ) elements, so the count walks at most 2 min(N, lcm) / min(r, s) runs
// (refused beyond kMaxBlockCyclicRuns), plus O(PQ log PQ) to list the pairs.
#pragma once

#include <cstdint>

#include "redist/exchange/model.hpp"

namespace redist::exchange {

struct BlockCyclic {
  std::int64_t elements = 0;       // N >= 1
  std::int64_t element_bytes = 1;  // B >= 1
  std::int64_t from_block = 1;     // r >= 1
  std::int64_t from_procs = 1;     // P >= 1
  std::int64_t to_block = 1;       // s >= 1
  std::int64_t to_procs = 1;       // Q >= 1
};

inline constexpr std::int64_t kMaxBlockCyclicRuns = 10'000'000;
inline constexpr std::int64_t kMaxBlockCyclicProcs = 4096;  // P and Q

// InputError at the layout's field (`elements`, `from_block`, ...) for values out of range, a
// message beyond kMaxMessageBytes, or more runs than kMaxBlockCyclicRuns.
Instance block_cyclic(const BlockCyclic& layout);

}  // namespace redist::exchange
