// Host speeds of a balance trace as SimGrid power states (ours). A trace (docs/balance.md) gives
// every processor i a speed s_i(t) per iteration; the SMPI platform written by
// `redist-smpi-platform --balance` gives host i one pstate per distinct value of s_i(t), in the
// order of first appearance, and the SMPI application switches host i to the pstate of s_i(t) at
// the start of iteration t (sg_host_set_pstate). Both sides use these functions, so they agree.
// Complexity: O(K d) for K iterations and d distinct speeds of the host.
#pragma once

#include <algorithm>
#include <cstddef>
#include <vector>

#include "redist/balance/model.hpp"

namespace redist::mpi {

// The distinct speeds of processor `host`, in order of first appearance.
inline std::vector<double> host_speeds(const balance::Trace& trace, std::size_t host) {
  std::vector<double> speeds;
  for (const auto& row : trace.speeds) {
    if (std::find(speeds.begin(), speeds.end(), row[host]) == speeds.end())
      speeds.push_back(row[host]);
  }
  return speeds;
}

// pstate[t]: the index in host_speeds of s_host(t).
inline std::vector<unsigned long> host_pstates(const balance::Trace& trace, std::size_t host) {
  const std::vector<double> speeds = host_speeds(trace, host);
  std::vector<unsigned long> pstates;
  for (const auto& row : trace.speeds) {
    const auto it = std::find(speeds.begin(), speeds.end(), row[host]);
    pstates.push_back(static_cast<unsigned long>(it - speeds.begin()));
  }
  return pstates;
}

}  // namespace redist::mpi
