// The particles example: --record, the proposals of a run without migration.
#include <fstream>
#include <iostream>
#include <string>

#include <fmt/format.h>

#include "examples/particles.hpp"
#include "experiments/particles/recording.hpp"
#include "redist/balance/traces.hpp"
#include "redist/common/error.hpp"

namespace particles_example {
namespace {

// ---- Recording ----------------------------------------------------------------------------------

struct Recorder {
  Recorder(const Args& a, int rank, int ranks)
      : args(a),
        system(particle_spec(a)),
        app(a, rank, ranks, work),
        other(a, rank, ranks, work),
        handle(app, a),
        other_handle(other, a),
        adapter(MPI_COMM_WORLD, handle.zz),
        other_adapter(MPI_COMM_WORLD, other_handle.zz) {
    app.owned = initial_particles(app, system, false);
    other.owned = initial_particles(other, system, true);
  }

  const Args& args;
  std::vector<double> work;
  rx::ParticleSystem system;
  App app, other;  // `other`: the second distribution of --cross-check
  Handle handle, other_handle;
  rz::Adapter adapter, other_adapter;
  std::int64_t differing = 0, differing_proposals = 0;
};

// The owners Zoltan proposes from `a`'s particles with part sizes from `speeds` (empty: equal).
std::vector<std::int32_t> proposed_owners(App& a, Zoltan_Struct* zz, rz::Adapter& adapter,
                                          const std::vector<double>& speeds, const Args& args) {
  set_part_sizes(zz, speeds, a.ranks);
  const rz::Proposal p = adapter.propose(proposal_options(args));
  return owners_after(a, p, args.particles);
}

// Proposal j (0: the initial partition) from the particles as they are now; with --cross-check,
// asked again from the other distribution (`previous`'s owners when given).
std::vector<std::int32_t> record_proposal(Recorder& rec, std::int64_t j, const rb::Trace& trace,
                                          const std::vector<std::int32_t>* previous) {
  rec.work = rec.system.work();
  const std::vector<double> speeds =
      j == 0 ? std::vector<double>{} : trace.speeds[std::size_t(j - 1)];
  std::vector<std::int32_t> owner =
      proposed_owners(rec.app, rec.handle.zz, rec.adapter, speeds, rec.args);
  if (!rec.args.cross_check) return owner;
  if (previous != nullptr) assign(rec.other, rec.system, *previous);
  const std::vector<std::int32_t> again =
      proposed_owners(rec.other, rec.other_handle.zz, rec.other_adapter, speeds, rec.args);
  std::int64_t differ = 0;
  for (std::size_t id = 0; id < owner.size(); ++id) differ += owner[id] != again[id];
  rec.differing += differ;
  rec.differing_proposals += differ > 0;
  return owner;
}

// Rank 0: validates and writes the recording; false (with a FAIL line) if it cannot.
bool write_recording(const rx::PartitionRecording& recording, const std::string& path) {
  try {
    rx::validate(recording);
  } catch (const redist::InputError& e) {
    std::cerr << "FAIL: the recording is invalid: " << e.what() << "\n";
    return false;
  }
  std::ofstream out(path);
  out << rx::to_json(recording) << "\n";
  out.close();
  if (!out) std::cerr << "FAIL: cannot write " << path << "\n";
  return bool(out);
}

}  // namespace

int record_run(const Args& args, int rank, int ranks) {
  Recorder rec(args, rank, ranks);
  const rb::Trace trace = speed_trace(args, ranks);
  rx::PartitionRecording recording;
  recording.particles = particle_spec(args);
  recording.ranks = ranks;
  recording.partitioner = partitioner_name(args);
  recording.speeds = trace.speeds;
  for (std::int64_t j = 0; j < args.iterations; ++j) {
    if (j >= 2) {
      rec.system.advance();  // proposal j is made from the particles of iteration j
      for (Particle& p : rec.app.owned) {
        p.x = rec.system.x()[std::size_t(p.id)];
        p.y = rec.system.y()[std::size_t(p.id)];
      }
    }
    recording.proposals.push_back(
        record_proposal(rec, j, trace, j == 0 ? nullptr : &recording.proposals.back()));
  }
  if (rank != 0) return 0;
  const bool verified = write_recording(recording, args.record);
  if (verified) {
    std::cout << fmt::format("recorded: {} proposals of {} particles on {} ranks ({}) to {}\n",
                             recording.proposals.size(), args.particles, ranks,
                             recording.partitioner, args.record);
  }
  if (args.cross_check) {
    std::cout << fmt::format(
        "cross-check: {} of {} proposals differ when Zoltan starts from another distribution "
        "({} owners differ in all)\n",
        rec.differing_proposals, args.iterations, rec.differing);
  }
  std::cout << fmt::format("verified: {}\n", verified ? "yes" : "no");
  return verified ? 0 : 1;
}

}  // namespace particles_example
