// The particles example: who owns which particle, and the checks of every migration.
#include <algorithm>
#include <string>

#include <fmt/format.h>

#include "examples/particles.hpp"

namespace particles_example {

// ---- Ownership and checks ---------------------------------------------------------------------

// Blocks of ids: rank r owns ids [r N / P, (r + 1) N / P); or round robin (id mod P).
std::vector<Particle> initial_particles(const App& a, const rx::ParticleSystem& system,
                                        bool round_robin) {
  const std::int64_t n = system.size();
  std::vector<Particle> out;
  for (std::int64_t id = 0; id < n; ++id) {
    const int owner = round_robin ? int(id % a.ranks) : int(id * a.ranks / n);
    if (owner != a.rank) continue;
    out.push_back({id, system.x()[std::size_t(id)], system.y()[std::size_t(id)],
                   payload_of(id, a.seed, a.payload_bytes)});
  }
  return out;
}

// Rebuilds this rank's particles as owner[] says (no data moved: the payload follows from the id).
void assign(App& a, const rx::ParticleSystem& system, const std::vector<std::int32_t>& owner) {
  a.owned.clear();
  for (std::size_t id = 0; id < owner.size(); ++id) {
    if (owner[id] != a.rank) continue;
    a.owned.push_back({std::int64_t(id), system.x()[id], system.y()[id],
                       payload_of(std::int64_t(id), a.seed, a.payload_bytes)});
  }
}

// The owner of every particle after the proposal, the same on every rank (one MPI_Allreduce).
std::vector<std::int32_t> owners_after(const App& a, const rz::Proposal& p, std::int64_t n) {
  std::vector<std::int32_t> owner(std::size_t(n), 0);
  for (const Particle& q : a.owned) owner[std::size_t(q.id)] = a.rank;
  for (std::size_t k = 0; k < p.exports.size(); ++k) {
    owner[std::size_t(p.exports.global_ids[k])] = p.exports.procs[k];
  }
  // Each particle's entry is set by its one owner: a sum is the owner's value.
  MPI_Allreduce(MPI_IN_PLACE, owner.data(), int(n), MPI_INT32_T, MPI_SUM, MPI_COMM_WORLD);
  return owner;
}

// Collective: every particle on exactly one rank (per-id counts summed), intact (this rank's
// particles one by one, and the checksum of all against the one every rank can compute), and
// where `owner` says (when given).
void check_particles(App& a, const rx::ParticleSystem& system, const std::string& when,
                     const std::vector<std::int32_t>* owner, Checks& c) {
  const std::int64_t n = system.size();
  std::vector<std::int32_t> count(std::size_t(n), 0);
  std::uint64_t sum = 0, want = 0;
  std::int64_t damaged = 0, misplaced = 0;
  for (const Particle& p : a.owned) {
    const auto id = std::size_t(p.id);
    if (p.id < 0 || p.id >= n) {
      ++damaged;
      continue;
    }
    ++count[id];
    sum += digest(p.id, p.x, p.y, p.payload);
    damaged += p.x != system.x()[id] || p.y != system.y()[id] ||
               p.payload != payload_of(p.id, a.seed, a.payload_bytes);
    misplaced += owner != nullptr && (*owner)[id] != a.rank;
  }
  c.require(damaged == 0 && !a.bad_unpack,
            fmt::format("{}: {} damaged particles on rank {}", when, damaged, a.rank));
  c.require(misplaced == 0, fmt::format("{}: rank {} holds {} particles the lists put elsewhere",
                                        when, a.rank, misplaced));
  MPI_Allreduce(MPI_IN_PLACE, count.data(), int(n), MPI_INT32_T, MPI_SUM, MPI_COMM_WORLD);
  MPI_Allreduce(MPI_IN_PLACE, &sum, 1, MPI_UINT64_T, MPI_SUM, MPI_COMM_WORLD);
  for (std::int64_t id = 0; id < n; ++id) {
    want += digest(id, system.x()[std::size_t(id)], system.y()[std::size_t(id)],
                   payload_of(id, a.seed, a.payload_bytes));
  }
  const auto once = std::count(count.begin(), count.end(), 1);
  c.require(once == n, fmt::format("{}: {} of {} particles present exactly once", when, once, n));
  c.require(sum == want, fmt::format("{}: the checksum of all particles differs", when));
}

// Collective: the 64-bit words `words` are the same on every rank.
bool same_everywhere(const std::vector<std::uint64_t>& words) {
  std::uint64_t h = 0;
  for (std::uint64_t w : words) h = mix(h ^ w);
  std::uint64_t max = h, min = h;
  MPI_Allreduce(MPI_IN_PLACE, &max, 1, MPI_UINT64_T, MPI_MAX, MPI_COMM_WORLD);
  MPI_Allreduce(MPI_IN_PLACE, &min, 1, MPI_UINT64_T, MPI_MIN, MPI_COMM_WORLD);
  return max == min;
}

std::vector<double> allgather(double mine, int ranks) {
  std::vector<double> all(static_cast<std::size_t>(ranks));
  MPI_Allgather(&mine, 1, MPI_DOUBLE, all.data(), 1, MPI_DOUBLE, MPI_COMM_WORLD);
  return all;
}

rz::ProposalOptions proposal_options(const Args& args) {
  rz::ProposalOptions options;
  options.weight_dim = 1;
  options.platform.send_bandwidth = args.bandwidths;
  options.platform.recv_bandwidth = args.bandwidths;
  options.platform.latency = args.latency;
  return options;
}

std::string partitioner_name(const Args& args) {
  if (args.method != "RCB") return "Zoltan " + args.method;
  return "Zoltan RCB, cut directions " + args.rcb_directions;
}

rb::Trace speed_trace(const Args& args, int ranks) {
  rb::TraceSpec spec;
  spec.drift = rb::parse_drift(args.drift);
  spec.processors = std::size_t(ranks);
  spec.iterations = args.iterations;
  spec.seed = args.seed;
  return rb::random_trace(spec);
}

rx::ParticleSpec particle_spec(const Args& args) {
  rx::ParticleSpec spec;
  spec.particles = args.particles;
  spec.seed = args.seed;
  return spec;
}

}  // namespace particles_example
