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
// Pieces of a step plan (ggp, oggp): a message active over many steps is one piece in each.
inline constexpr std::size_t kMaxStepPieces = 10'000'000;
// Largest total of all durations: times stay far from the largest double.
inline constexpr double kMaxTotalSeconds = 1e300;

}  // namespace redist::exchange
