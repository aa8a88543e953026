#include "redist/exchange/block_cyclic.hpp"

#include <algorithm>
#include <numeric>
#include <unordered_map>
#include <vector>

#include <fmt/format.h>

#include "redist/common/error.hpp"
#include "redist/exchange/limits.hpp"

namespace redist::exchange {
namespace {

// 128-bit counts: products of two 64-bit sizes never overflow (a GNU extension of gcc and clang).
__extension__ using Wide = __int128;
// Elements moving between each pair, keyed by from * Q + to.
using Counts = std::unordered_map<std::int64_t, Wide>;

void require_range(std::int64_t value, std::int64_t lo, std::int64_t hi, const char* field) {
  if (value < lo || value > hi) throw InputError(fmt::format("must be in {}..{}", lo, hi), field);
}

// lcm(a, b), or 0 when it exceeds `cap`.
Wide lcm_capped(Wide a, Wide b, Wide cap) {
  const Wide l = a / std::gcd(static_cast<std::int64_t>(a), static_cast<std::int64_t>(b)) * b;
  return l > cap ? 0 : l;
}

// Adds, for the elements [0, count), the elements moving between each pair, times `weight`.
void count_runs(const BlockCyclic& l, std::int64_t count, Wide weight, Counts& counts) {
  std::int64_t e = 0;
  while (e < count) {
    const std::int64_t end =
        std::min({count, (e / l.from_block + 1) * l.from_block, (e / l.to_block + 1) * l.to_block});
    const std::int64_t from = (e / l.from_block) % l.from_procs;
    const std::int64_t to = (e / l.to_block) % l.to_procs;
    if (from != to) counts[from * l.to_procs + to] += weight * (end - e);
    e = end;
  }
}

void require_few_runs(const BlockCyclic& l, std::int64_t walked) {
  const Wide runs =
      static_cast<Wide>(walked) / l.from_block + static_cast<Wide>(walked) / l.to_block + 2;
  if (runs > kMaxBlockCyclicRuns) {
    throw InputError(fmt::format("the layout changes owner more than {} times within a period; "
                                 "use larger blocks or fewer elements",
                                 kMaxBlockCyclicRuns),
                     "elements");
  }
}

}  // namespace

Instance block_cyclic(const BlockCyclic& l) {
  require_range(l.elements, 1, std::int64_t{1} << 53, "elements");
  require_range(l.element_bytes, 1, kMaxMessageBytes, "element_bytes");
  require_range(l.from_block, 1, std::int64_t{1} << 53, "from_block");
  require_range(l.to_block, 1, std::int64_t{1} << 53, "to_block");
  require_range(l.from_procs, 1, kMaxBlockCyclicProcs, "from_procs");
  require_range(l.to_procs, 1, kMaxBlockCyclicProcs, "to_procs");
  if (std::max(l.from_procs, l.to_procs) < 2) {
    throw InputError("an exchange needs at least 2 processors", "to_procs");
  }
  const Wide period = lcm_capped(static_cast<Wide>(l.from_block) * l.from_procs,
                                 static_cast<Wide>(l.to_block) * l.to_procs, l.elements);
  Counts counts;
  if (period == 0) {  // the pattern does not repeat within the array
    require_few_runs(l, l.elements);
    count_runs(l, l.elements, 1, counts);
  } else {
    const auto p = static_cast<std::int64_t>(period);
    require_few_runs(l, p);
    count_runs(l, p, l.elements / p, counts);
    count_runs(l, l.elements % p, 1, counts);  // the remainder starts a period like the first
  }
  Instance in;
  in.nodes = static_cast<std::size_t>(std::max(l.from_procs, l.to_procs));
  in.send_bandwidth.assign(in.nodes, 1.0);
  in.recv_bandwidth.assign(in.nodes, 1.0);
  std::vector<std::pair<std::int64_t, Wide>> pairs(counts.begin(), counts.end());
  std::sort(pairs.begin(), pairs.end(),
            [](const auto& a, const auto& b) { return a.first < b.first; });
  for (const auto& [key, elements] : pairs) {
    const std::int64_t from = key / l.to_procs, to = key % l.to_procs;
    const Wide bytes = elements * l.element_bytes;
    if (bytes > kMaxMessageBytes) {
      throw InputError(fmt::format("processors {} and {} would exchange more than {} bytes", from,
                                   to, kMaxMessageBytes),
                       "element_bytes");
    }
    in.messages.push_back({from, to, static_cast<std::int64_t>(bytes)});
  }
  return in;
}

}  // namespace redist::exchange
