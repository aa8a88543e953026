#include "experiments/particles/recording.hpp"

#include <cmath>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "redist/common/error.hpp"

namespace redist::experiments {
namespace {

using Json = nlohmann::json;
constexpr const char* kRoot = "particle_recording";

std::string at(const std::string& field) { return fmt::format("{}.{}", kRoot, field); }

void require(bool ok, const std::string& field, const std::string& what) {
  if (!ok) throw InputError(what, at(field));
}

void validate_speeds(const PartitionRecording& r) {
  for (std::size_t t = 0; t < r.speeds.size(); ++t) {
    require(static_cast<std::int64_t>(r.speeds[t].size()) == r.ranks, fmt::format("speeds[{}]", t),
            fmt::format("{} speeds for {} ranks", r.speeds[t].size(), r.ranks));
    for (std::size_t q = 0; q < r.speeds[t].size(); ++q) {
      require(std::isfinite(r.speeds[t][q]) && r.speeds[t][q] > 0,
              fmt::format("speeds[{}][{}]", t, q), "a speed must be a finite number > 0");
    }
  }
}

void validate_proposals(const PartitionRecording& r) {
  for (std::size_t j = 0; j < r.proposals.size(); ++j) {
    require(
        static_cast<std::int64_t>(r.proposals[j].size()) == r.particles.particles,
        fmt::format("proposals[{}]", j),
        fmt::format("{} owners for {} particles", r.proposals[j].size(), r.particles.particles));
    for (std::size_t i = 0; i < r.proposals[j].size(); ++i) {
      const std::int32_t owner = r.proposals[j][i];
      require(owner >= 0 && owner < r.ranks, fmt::format("proposals[{}][{}]", j, i),
              fmt::format("owner {} is not a rank in 0..{}", owner, r.ranks - 1));
    }
  }
}

}  // namespace

void validate(const PartitionRecording& r) {
  validate(r.particles);
  require(r.ranks >= 2 && r.ranks <= kMaxRecordingRanks, "ranks",
          fmt::format("{} ranks: between 2 and {}", r.ranks, kMaxRecordingRanks));
  const std::int64_t k = r.iterations();
  require(k >= 1 && k <= kMaxRecordingIterations, "speeds",
          fmt::format("{} iterations: between 1 and {}", k, kMaxRecordingIterations));
  require(static_cast<std::int64_t>(r.proposals.size()) == k, "proposals",
          fmt::format("{} proposals for {} iterations (one initial, one after each but the last)",
                      r.proposals.size(), k));
  require(k <= kMaxRecordingOwners / r.particles.particles, "proposals",
          fmt::format("{} iterations x {} particles: at most {} owners", k, r.particles.particles,
                      kMaxRecordingOwners));
  validate_speeds(r);
  validate_proposals(r);
}

std::string to_json(const PartitionRecording& r) {
  validate(r);
  const ParticleSpec& p = r.particles;
  Json doc;
  doc[kRoot] = {{"particles",
                 {{"particles", p.particles},
                  {"seed", p.seed},
                  {"max_velocity", p.max_velocity},
                  {"hot_work", p.hot_work},
                  {"hot_radius", p.hot_radius},
                  {"orbit_period", p.orbit_period}}},
                {"ranks", r.ranks},
                {"partitioner", r.partitioner},
                {"speeds", r.speeds},
                {"proposals", r.proposals}};
  return doc.dump() + "\n";
}

PartitionRecording recording_from_json(const std::string& text) {
  const Json doc = Json::parse(text, nullptr, false);
  if (doc.is_discarded() || !doc.is_object() || !doc.contains(kRoot)) {
    throw InputError(fmt::format("not a JSON document with a \"{}\" object", kRoot), "$");
  }
  const Json& root = doc[kRoot];
  PartitionRecording r;
  try {
    const Json& p = root.at("particles");
    r.particles.particles = p.at("particles").get<std::int64_t>();
    r.particles.seed = p.at("seed").get<std::uint64_t>();
    r.particles.max_velocity = p.at("max_velocity").get<double>();
    r.particles.hot_work = p.at("hot_work").get<double>();
    r.particles.hot_radius = p.at("hot_radius").get<double>();
    r.particles.orbit_period = p.at("orbit_period").get<std::int64_t>();
    r.ranks = root.at("ranks").get<std::int64_t>();
    r.partitioner = root.at("partitioner").get<std::string>();
    r.speeds = root.at("speeds").get<std::vector<std::vector<double>>>();
    r.proposals = root.at("proposals").get<std::vector<std::vector<std::int32_t>>>();
  } catch (const Json::exception& e) {
    throw InputError(fmt::format("malformed recording: {}", e.what()), kRoot);
  }
  validate(r);
  return r;
}

}  // namespace redist::experiments
