// The particles example (docs/zoltan.md, "The particles example"): what its files share. The
// program is examples/particles.cpp (its command line and main); the particles' data and the
// application as Zoltan sees it are particles_zoltan.cpp, the ownership maps and the checks
// particles_checks.cpp, the application's loop particles_run.cpp and the recording mode
// particles_record.cpp.
#pragma once

#include <mpi.h>
#include <zoltan.h>

#include <cstdint>
#include <string>
#include <vector>

#include "experiments/particles/particle_system.hpp"
#include "redist/balance/traces.hpp"
#include "redist/zoltan.hpp"

namespace particles_example {

namespace rb = redist::balance;
namespace rx = redist::experiments;
namespace rz = redist::zoltan;

constexpr int kGrid = 32;  // HYPERGRAPH: cells per side of each of the two grids

// The command line (particles.cpp).
struct Args {
  std::int64_t particles = 5000;
  std::int64_t particle_bytes = 256;
  std::uint64_t seed = 1;
  std::int64_t iterations = 100;
  std::string drift = "walk";
  std::string method = "RCB";
  std::string rcb_directions = "locked";
  std::string policy = "cost-benefit";
  std::string migrate = "redist";
  std::string bandwidth = "1e9";
  double latency = 5e-6;
  std::string record;
  bool cross_check = false;
  bool verbose = false;
  bool no_calibrate = false;
  std::vector<double> bandwidths;  // one per rank, from `bandwidth`
};

// ---- The particles' data (particles_zoltan.cpp) ------------------------------------------------

std::uint64_t mix(std::uint64_t x);

// The payload of particle `id`: B bytes that follow from the id and the seed.
std::vector<unsigned char> payload_of(std::int64_t id, std::uint64_t seed, std::int64_t bytes);

struct Particle {
  std::int64_t id = 0;
  double x = 0.0, y = 0.0;
  std::vector<unsigned char> payload;
};

// A 64-bit digest of a particle's id, position and payload; summed over particles (mod 2^64).
std::uint64_t digest(std::int64_t id, double x, double y, const std::vector<unsigned char>& data);

// ---- The application as Zoltan sees it (particles_zoltan.cpp) ----------------------------------

struct App {
  App(const Args& args, int rank_, int ranks_, const std::vector<double>& work_)
      : rank(rank_),
        ranks(ranks_),
        seed(args.seed),
        payload_bytes(args.particle_bytes),
        work(&work_) {}

  int rank = 0, ranks = 1;
  std::uint64_t seed = 1;
  std::int64_t payload_bytes = 0;
  std::vector<Particle> owned;
  std::vector<Particle> arrived;    // unpacked, appended after the migration
  const std::vector<double>* work;  // every particle's work in the iteration just computed
  bool bad_unpack = false;          // an unpacked record did not match its global id

  int record_bytes() const {
    return int(sizeof(std::int64_t) + 2 * sizeof(double) + payload_bytes);
  }
};

// Zoltan's handle, its parameters set from the options and its callbacks on `app`.
struct Handle {
  Zoltan_Struct* zz = nullptr;
  Handle(App& app, const Args& args);
  Handle(const Handle&) = delete;
  Handle& operator=(const Handle&) = delete;
  ~Handle() { Zoltan_Destroy(&zz); }
};

// Part r's size proportional to speeds[r] (equal sizes when `speeds` is empty); the same on every
// rank.
void set_part_sizes(Zoltan_Struct* zz, const std::vector<double>& speeds, int ranks);

// ---- Ownership and checks (particles_checks.cpp) -----------------------------------------------

// Blocks of ids: rank r owns ids [r N / P, (r + 1) N / P); or round robin (id mod P).
std::vector<Particle> initial_particles(const App& a, const rx::ParticleSystem& system,
                                        bool round_robin);
// Rebuilds this rank's particles as owner[] says (no data moved: the payload follows from the id).
void assign(App& a, const rx::ParticleSystem& system, const std::vector<std::int32_t>& owner);
// The owner of every particle after the proposal, the same on every rank (one MPI_Allreduce).
std::vector<std::int32_t> owners_after(const App& a, const rz::Proposal& p, std::int64_t n);

struct Checks {
  std::vector<std::string> failures;
  void require(bool ok, const std::string& what) {
    if (!ok && failures.size() < 10) failures.push_back(what);
  }
  // Collective: whether every rank's checks held.
  bool all_held() const {
    int failed = failures.empty() ? 0 : 1;
    MPI_Allreduce(MPI_IN_PLACE, &failed, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
    return failed == 0;
  }
};

// Collective: every particle on exactly one rank (per-id counts summed), intact (this rank's
// particles one by one, and the checksum of all against the one every rank can compute), and
// where `owner` says (when given).
void check_particles(App& a, const rx::ParticleSystem& system, const std::string& when,
                     const std::vector<std::int32_t>* owner, Checks& c);
// Collective: the 64-bit words `words` are the same on every rank.
bool same_everywhere(const std::vector<std::uint64_t>& words);
std::vector<double> allgather(double mine, int ranks);
rz::ProposalOptions proposal_options(const Args& args);
std::string partitioner_name(const Args& args);
rb::Trace speed_trace(const Args& args, int ranks);
rx::ParticleSpec particle_spec(const Args& args);

// ---- The application (particles_run.cpp) -------------------------------------------------------

// The run: the initial partition, then K iterations with a decision after each but the last; rank
// 0 prints the summary. Returns the exit code (0 when every check held, else 1).
int run_application(const Args& args, int rank, int ranks);

// ---- Recording (particles_record.cpp) -------------------------------------------------------

// --record: the proposals of a run without migration, written by rank 0. Returns the exit code.
int record_run(const Args& args, int rank, int ranks);

}  // namespace particles_example
