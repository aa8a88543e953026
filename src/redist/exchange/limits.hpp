// Size limits of the exchange commands (docs/exchange.md, "Limits"): beyond them a command would
// need more than a few GB of memory or minutes of time, and the instance is refused up front.
#pragma once

#include <cstddef>
#include <cstdint>

namespace redist::exchange {

inline constexpr std::size_t kMaxNodes = 1'000'000;
// Messages of an instance: a document of 5 million [from, to, bytes] triples stays within the JSON
// reader's 25 million values.
inline constexpr std::size_t kMaxMessages = 5'000'000;
// Nodes of an instance given as a dense matrix (p x p values).
inline constexpr std::size_t kMaxMatrixNodes = 4096;
// Bytes of one message: every count up to 2^53 is exact in a double.
inline constexpr std::int64_t kMaxMessageBytes = std::int64_t{1} << 53;
// Pieces in a plan read by `exchange check`.
inline constexpr std::size_t kMaxCheckPieces = 50'000'000;
// `exchange migration`: owners given item by item, per map (a document of two such lists stays
// within the JSON reader's 25 million values), and ranges [begin, end, owner], per map.
inline constexpr std::size_t kMaxMigrationOwners = 10'000'000;
inline constexpr std::size_t kMaxMigrationRanges = 2'000'000;
// Pieces of a step plan (ggp, oggp): a message active over many steps is one piece in each. The
// peeling counts them as it goes and stops at this many.
inline constexpr std::size_t kMaxStepPieces = 10'000'000;

// Messages an algorithm plans at most, for those whose time grows faster than m log m; beyond,
// `exchange plan -a NAME` refuses the instance before any work (OptionError at "algorithm"). Each
// is set where its slowest measured pattern stays under about 20 s of CPU on the 2-core development
// machine (bench/exchange_benchmark.cpp, BM_AtLimits: random instances of 1, 5 and 64 partners per
// node and dense ones, with and without a backbone, latency 0, 100 and 10,000 s against messages of
// up to 2^20 s; docs/exchange.md, "Limits"). The other algorithms plan every instance up to
// kMaxNodes and kMaxMessages within a minute.
// ggp: an augmenting path (a short depth-first search, then a breadth-first one over up to the
// peeling graph of E <= m + 2 (n1 + n2) edges) for each edge used up; slowest with a backbone and
// one partner per node (k <= 3 messages a step, so the piece limit does not stop it).
inline constexpr std::size_t kMaxGgpMessages = 50'000;
// oggp: a widest augmenting path for each edge that leaves the bottleneck matching (used up, or
// fallen below the bottleneck); slowest with a backbone, one partner per node and no latency.
inline constexpr std::size_t kMaxOggpMessages = 10'000;
// steps: each step reads the waiting messages until it is full, and there are at least Delta steps
// (the most messages of one node), so its time grows as messages x Delta: slowest on dense
// patterns (7 s at 10^6 x 1,000, 33 s at 2 x 10^6 x 1,415); sparse ones run up to kMaxMessages
// (5 s at 5 x 10^6 x 5 partners).
inline constexpr std::size_t kMaxStepsMessagesTimesDegree = 1'500'000'000;
// min-steps: the colouring scans up to Delta colours per message (and paths of up to 2 p edges),
// so its time also grows as messages x Delta: 9 s at 10^6 x 1,000, 20 s at 2 x 10^6 x 1,415 and
// 61 s at 5 x 10^6 x 2,236 (dense); 27 s at 5 x 10^6 x 5 partners.
inline constexpr std::size_t kMaxMinStepsMessagesTimesDegree = 2'000'000'000;
// busiest-first: each time a port frees, its node reads its waiting messages, so its time also
// grows as messages x Delta.
inline constexpr std::size_t kMaxBusiestFirstMessagesTimesDegree = 2'000'000'000;
// preemptive: one augmenting path per used-up edge, each a breadth-first search over up to every
// node, so its time grows as messages x nodes (about 2.3e-8 s per unit measured, from 10,000
// messages on 2,000 nodes to 65,536 on 16,384); dense patterns stay far within the limit.
inline constexpr std::size_t kMaxPreemptiveMessagesTimesNodes = 500'000'000;
// Largest total of all durations: times stay far from the largest double.
inline constexpr double kMaxTotalSeconds = 1e300;

}  // namespace redist::exchange
