// What a partitioned run of the particle application records for replay (docs/zoltan.md): the
// partition the partitioner proposed after every iteration, with the speeds it was given, so that
// every rebalancing policy and the hindsight optimum can be evaluated on the same decisions
// afterwards, in the model or in SimGrid, without running the partitioner again.
//
// JSON: {"particle_recording": {"particles": {ParticleSpec fields}, "ranks": P,
//   "partitioner": "...", "speeds": [[s_0(1), ..., s_{P-1}(1)], ...],   (K rows: iteration 1..K)
//   "proposals": [[owner of particle 0, ...], ...]}}                       (K rows: after 0..K-1)
// proposals[0] is the initial partition, proposals[j] (j >= 1) the one proposed after iteration j,
// from the particles of iteration j with part sizes proportional to the speeds of iteration j.
// Limits: 2 <= P <= kMaxRecordingRanks, 1 <= K <= kMaxRecordingIterations, K N <=
// kMaxRecordingOwners.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "experiments/particles/particle_system.hpp"

namespace redist::experiments {

inline constexpr std::int64_t kMaxRecordingRanks = 1024;
inline constexpr std::int64_t kMaxRecordingIterations = 10'000;
inline constexpr std::int64_t kMaxRecordingOwners = 50'000'000;

struct PartitionRecording {
  ParticleSpec particles;
  std::int64_t ranks = 0;
  std::string partitioner;                           // e.g. "Zoltan RCB, cut directions locked"
  std::vector<std::vector<double>> speeds;           // speeds[t - 1][r]: during iteration t
  std::vector<std::vector<std::int32_t>> proposals;  // proposals[j][i]: owner of particle i
  std::int64_t iterations() const { return static_cast<std::int64_t>(speeds.size()); }
};

// InputError naming the field ("particle_recording.proposals[3][17]", ...) for sizes that
// disagree, owners out of 0..P-1, speeds not finite and > 0, and the limits above.
void validate(const PartitionRecording& recording);
std::string to_json(const PartitionRecording& recording);
PartitionRecording recording_from_json(const std::string& text);

}  // namespace redist::experiments
