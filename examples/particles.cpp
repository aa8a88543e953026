// particles: an iterative MPI application balanced by Zoltan, whose rebalancing is decided by
// redist::balance::RebalanceDecider and whose migration is done by redist (docs/zoltan.md,
// "The particles example").
//
//   mpirun -np P particles [--particles N] [--particle-bytes B] [--seed S] [--iterations K]
//          [--drift steps|walk|transient] [--method RCB|HYPERGRAPH]
//          [--rcb-directions locked|free] [--policy NAME]
//          [--migrate redist|zoltan] [--bandwidth B1,B2,...] [--latency L] [--no-calibrate]
//          [--verbose]
//   mpirun -np P particles --record FILE [--cross-check] [same options]
//
// The particles of experiments/particles/particle_system.hpp (N of them, seed S): every rank
// advances all of them every iteration (cheap and deterministic), and owns a subset. A particle
// carries its id, its position and a payload of B bytes derived from its id; it stays on its
// rank until a rebalance moves it. The ranks' speeds follow balance::random_trace (drift, P
// processors, K iterations, seed S): iteration t's compute time on rank r is the work of its
// particles in iteration t over s_r(t), emulated (not slept).
//
// Zoltan (LB_METHOD RCB on the particles' x, y, or HYPERGRAPH on cells of a grid) partitions with
// object weights = each particle's work in the iteration just computed and part sizes
// proportional to the speeds the decider returns (REMAP 0: part r is rank r). With RCB, the
// directions of the cuts are those of the first partition (KEEP_CUTS and RCB_LOCK_DIRECTIONS;
// --rcb-directions free lets every partition choose them again). The initial
// partition (equal part sizes) is migrated from blocks of ids before iteration 1. After every
// iteration t < K: the decider observes every rank's load and time, redist::zoltan::Adapter
// proposes Zoltan's partition, the decider weighs its loads against the planned makespan of its
// migration (exchange::plan on the platform of --bandwidth and --latency); on a rebalance the
// particles move by redist's MPI executor (--migrate redist) or by Zoltan_Migrate (--migrate
// zoltan), through this program's pack and unpack functions. Every rank runs the decider on the
// same allgathered inputs; an agreement checks that every rank decided the same. The measured
// (wall-clock) migration times calibrate the costs the policy sees (RebalanceDecider::migrated),
// unless --no-calibrate: then the decisions follow the model alone and are reproducible.
// Checked after every migration: each particle present exactly once (an allreduce of per-id
// counts), where Zoltan's lists put it, with its id, position and payload intact (locally, and a
// global checksum), and each rank holding the proposal's objects_after.
// Rank 0 prints a summary; exit 0 when every check held, 1 if one failed, 2 on bad options (one
// `error:` line from rank 0).
//
// --record FILE: no migration. The initial partition and the partition proposed after each
// iteration t = 1..K-1 (weights of iteration t, part sizes proportional to the trace's speeds of
// iteration t) are written as a PartitionRecording (experiments/particles/recording.hpp) by rank
// 0. --cross-check also asks Zoltan for every recorded partition from a second distribution of
// the particles (the previous proposal's owners; round robin at first) and counts the particles
// whose owner differs.
// Limits: 2 <= P <= 1024, N <= 1,000,000, B <= 65536, N (B + 24) < 2^31, K <= 10,000.
// Cost per iteration: O(N) to advance and weigh, one Zoltan_LB_Partition, the adapter's census;
// per migration O(N B) for the checks.
#include <mpi.h>
#include <zoltan.h>

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <numeric>
#include <optional>
#include <string>
#include <vector>

#include <fmt/format.h>
#include <CLI/CLI.hpp>

#include "apps/strict_numbers.hpp"
#include "experiments/particles/particle_system.hpp"
#include "experiments/particles/recording.hpp"
#include "redist/balance/decider.hpp"
#include "redist/balance/policy.hpp"
#include "redist/balance/traces.hpp"
#include "redist/common/error.hpp"
#include "redist/common/parse.hpp"
#include "redist/mpi/command_line.hpp"
#include "redist/zoltan.hpp"

namespace {

namespace rb = redist::balance;
namespace rx = redist::experiments;
namespace rz = redist::zoltan;

constexpr int kGrid = 32;  // HYPERGRAPH: cells per side of each of the two grids

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

[[noreturn]] void refuse(const std::string& what, const std::string& where) {
  throw redist::mpi::Error(fmt::format("particles: {} (at {})", redist::one_line(what), where));
}

// Whether `path` can be written: opened for appending, so that nothing already in it is lost; a
// file the probe made is removed again.
bool writable(const std::string& path) {
  std::error_code error;
  const bool existed = std::filesystem::exists(path, error);
  if (std::ofstream probe(path, std::ios::app); !probe) return false;
  if (!existed) std::filesystem::remove(path, error);
  return true;
}

// ---- The particles' data ----------------------------------------------------------------------

std::uint64_t mix(std::uint64_t x) {
  x += 0x9e3779b97f4a7c15ULL;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
  return x ^ (x >> 31);
}

// The payload of particle `id`: B bytes that follow from the id and the seed.
std::vector<unsigned char> payload_of(std::int64_t id, std::uint64_t seed, std::int64_t bytes) {
  std::vector<unsigned char> out(static_cast<std::size_t>(bytes));
  const std::uint64_t base = mix(seed ^ (static_cast<std::uint64_t>(id) << 17));
  std::uint64_t word = 0;
  for (std::size_t k = 0; k < out.size(); ++k) {
    if (k % 8 == 0) word = mix(base + k);
    out[k] = static_cast<unsigned char>(word >> (8 * (k % 8)));
  }
  return out;
}

struct Particle {
  std::int64_t id = 0;
  double x = 0.0, y = 0.0;
  std::vector<unsigned char> payload;
};

// A 64-bit digest of a particle's id, position and payload; summed over particles (mod 2^64).
std::uint64_t digest(std::int64_t id, double x, double y, const std::vector<unsigned char>& data) {
  std::uint64_t h = mix(static_cast<std::uint64_t>(id));
  h = mix(h ^ std::bit_cast<std::uint64_t>(x));
  h = mix(h ^ std::bit_cast<std::uint64_t>(y));
  for (std::size_t k = 0; k < data.size(); k += 8) {
    std::uint64_t word = 0;
    std::memcpy(&word, data.data() + k, std::min<std::size_t>(8, data.size() - k));
    h = mix(h ^ word);
  }
  return h;
}

// ---- The application as Zoltan sees it --------------------------------------------------------

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

App& app_of(void* data) { return *static_cast<App*>(data); }

int num_obj(void* data, int* ierr) {
  *ierr = ZOLTAN_OK;
  return int(app_of(data).owned.size());
}

void obj_list(void* data, int, int, ZOLTAN_ID_PTR gids, ZOLTAN_ID_PTR lids, int wdim,
              float* weights, int* ierr) {
  const App& a = app_of(data);
  for (std::size_t k = 0; k < a.owned.size(); ++k) {
    gids[k] = ZOLTAN_ID_TYPE(a.owned[k].id);
    lids[k] = ZOLTAN_ID_TYPE(k);
    if (wdim > 0) weights[k * std::size_t(wdim)] = float((*a.work)[std::size_t(a.owned[k].id)]);
  }
  *ierr = ZOLTAN_OK;
}

int num_geom(void*, int* ierr) {
  *ierr = ZOLTAN_OK;
  return 2;
}

void geom_multi(void* data, int, int, int n, ZOLTAN_ID_PTR, ZOLTAN_ID_PTR lids, int, double* out,
                int* ierr) {
  const App& a = app_of(data);
  for (int k = 0; k < n; ++k) {
    const Particle& p = a.owned[lids[k]];
    out[2 * k] = p.x;
    out[2 * k + 1] = p.y;
  }
  *ierr = ZOLTAN_OK;
}

// HYPERGRAPH: a particle is a pin of the cell it lies in, on a kGrid x kGrid grid and on the
// same grid shifted by half a cell (so that neighbouring cells are tied together).
ZOLTAN_ID_TYPE cell(double x, double y, double shift, int offset) {
  const auto at = [&](double v) {
    return std::clamp(int(std::floor(v * kGrid + shift)), 0, kGrid);
  };
  return ZOLTAN_ID_TYPE(offset + at(x) * (kGrid + 1) + at(y));
}

void hg_size(void* data, int* lists, int* pins, int* format, int* ierr) {
  *lists = int(app_of(data).owned.size());
  *pins = 2 * *lists;
  *format = ZOLTAN_COMPRESSED_VERTEX;
  *ierr = ZOLTAN_OK;
}

void hg_cs(void* data, int, int lists, int, int, ZOLTAN_ID_PTR vertices, int* starts,
           ZOLTAN_ID_PTR pins, int* ierr) {
  const App& a = app_of(data);
  constexpr int kCells = (kGrid + 1) * (kGrid + 1);
  for (int k = 0; k < lists; ++k) {
    const Particle& p = a.owned[std::size_t(k)];
    vertices[k] = ZOLTAN_ID_TYPE(p.id);
    starts[k] = 2 * k;
    pins[2 * k] = cell(p.x, p.y, 0.0, 0);
    pins[2 * k + 1] = cell(p.x, p.y, 0.5, kCells);
  }
  *ierr = ZOLTAN_OK;
}

void obj_size_multi(void* data, int, int, int n, ZOLTAN_ID_PTR, ZOLTAN_ID_PTR, int* sizes,
                    int* ierr) {
  const int bytes = app_of(data).record_bytes();
  std::fill(sizes, sizes + n, bytes);
  *ierr = ZOLTAN_OK;
}

// A particle on the wire: id, x, y, payload.
void pack_multi(void* data, int, int, int n, ZOLTAN_ID_PTR gids, ZOLTAN_ID_PTR lids, int*,
                int* sizes, int* idx, char* buf, int* ierr) {
  const App& a = app_of(data);
  *ierr = ZOLTAN_OK;
  for (int k = 0; k < n; ++k) {
    const Particle& p = a.owned[lids[k]];
    if (gids[k] != ZOLTAN_ID_TYPE(p.id) || sizes[k] < a.record_bytes()) *ierr = ZOLTAN_FATAL;
    if (*ierr != ZOLTAN_OK) return;
    char* out = buf + idx[k];
    std::memcpy(out, &p.id, sizeof p.id);
    std::memcpy(out + 8, &p.x, sizeof p.x);
    std::memcpy(out + 16, &p.y, sizeof p.y);
    if (!p.payload.empty()) std::memcpy(out + 24, p.payload.data(), p.payload.size());
  }
}

void unpack_multi(void* data, int, int n, ZOLTAN_ID_PTR gids, int*, int* idx, char* buf,
                  int* ierr) {
  App& a = app_of(data);
  for (int k = 0; k < n; ++k) {
    const char* in = buf + idx[k];
    Particle p;
    std::memcpy(&p.id, in, sizeof p.id);
    std::memcpy(&p.x, in + 8, sizeof p.x);
    std::memcpy(&p.y, in + 16, sizeof p.y);
    p.payload.assign(in + 24, in + 24 + a.payload_bytes);
    if (gids[k] != ZOLTAN_ID_TYPE(p.id)) a.bad_unpack = true;
    a.arrived.push_back(std::move(p));
  }
  *ierr = ZOLTAN_OK;
}

// Drops the particles that leave (their local ids are their places in `owned` until now).
void mid_migrate(void* data, int, int, int, ZOLTAN_ID_PTR, ZOLTAN_ID_PTR, int*, int*, int n,
                 ZOLTAN_ID_PTR, ZOLTAN_ID_PTR lids, int* procs, int*, int* ierr) {
  App& a = app_of(data);
  std::vector<bool> leaves(a.owned.size(), false);
  for (int k = 0; k < n; ++k) {
    if (procs[k] != a.rank) leaves[lids[k]] = true;
  }
  std::vector<Particle> kept;
  kept.reserve(a.owned.size());
  for (std::size_t k = 0; k < a.owned.size(); ++k) {
    if (!leaves[k]) kept.push_back(std::move(a.owned[k]));
  }
  a.owned = std::move(kept);
  *ierr = ZOLTAN_OK;
}

void post_migrate(void* data, int, int, int, ZOLTAN_ID_PTR, ZOLTAN_ID_PTR, int*, int*, int,
                  ZOLTAN_ID_PTR, ZOLTAN_ID_PTR, int*, int*, int* ierr) {
  App& a = app_of(data);
  for (Particle& p : a.arrived) a.owned.push_back(std::move(p));
  a.arrived.clear();
  *ierr = ZOLTAN_OK;
}

struct Handle {
  Zoltan_Struct* zz = nullptr;
  Handle(App& app, const Args& args);
  Handle(const Handle&) = delete;
  Handle& operator=(const Handle&) = delete;
  ~Handle() { Zoltan_Destroy(&zz); }
};

Handle::Handle(App& app, const Args& args) : zz(Zoltan_Create(MPI_COMM_WORLD)) {
  Zoltan_Set_Param(zz, "DEBUG_LEVEL", "0");
  Zoltan_Set_Param(zz, "LB_METHOD", args.method.c_str());
  Zoltan_Set_Param(zz, "LB_APPROACH", "PARTITION");  // a partition of its own, not the current one
  Zoltan_Set_Param(zz, "REMAP", "0");                // part r stays rank r
  if (args.method == "RCB" && args.rcb_directions == "locked") {
    // Every later partition cuts in the directions of the first one: the cuts only move, so a
    // proposal differs from a recent partition by the particles near its cuts.
    Zoltan_Set_Param(zz, "KEEP_CUTS", "1");
    Zoltan_Set_Param(zz, "RCB_LOCK_DIRECTIONS", "1");
  }
  Zoltan_Set_Param(zz, "NUM_GID_ENTRIES", "1");
  Zoltan_Set_Param(zz, "NUM_LID_ENTRIES", "1");
  Zoltan_Set_Param(zz, "OBJ_WEIGHT_DIM", "1");
  Zoltan_Set_Param(zz, "RETURN_LISTS", "ALL");
  Zoltan_Set_Num_Obj_Fn(zz, num_obj, &app);
  Zoltan_Set_Obj_List_Fn(zz, obj_list, &app);
  Zoltan_Set_Num_Geom_Fn(zz, num_geom, &app);
  Zoltan_Set_Geom_Multi_Fn(zz, geom_multi, &app);
  Zoltan_Set_HG_Size_CS_Fn(zz, hg_size, &app);
  Zoltan_Set_HG_CS_Fn(zz, hg_cs, &app);
  Zoltan_Set_Obj_Size_Multi_Fn(zz, obj_size_multi, &app);
  Zoltan_Set_Pack_Obj_Multi_Fn(zz, pack_multi, &app);
  Zoltan_Set_Unpack_Obj_Multi_Fn(zz, unpack_multi, &app);
  Zoltan_Set_Mid_Migrate_PP_Fn(zz, mid_migrate, &app);
  Zoltan_Set_Post_Migrate_PP_Fn(zz, post_migrate, &app);
}

// Part r's size proportional to speeds[r] (equal sizes when `speeds` is empty); the same on every
// rank.
void set_part_sizes(Zoltan_Struct* zz, const std::vector<double>& speeds, int ranks) {
  const auto p = static_cast<std::size_t>(ranks);
  std::vector<int> parts(p), weight_index(p, 0);
  std::iota(parts.begin(), parts.end(), 0);
  std::vector<float> sizes(p, 1.0f / float(ranks));
  if (!speeds.empty()) {
    const double sum = std::accumulate(speeds.begin(), speeds.end(), 0.0);
    for (std::size_t r = 0; r < sizes.size(); ++r) sizes[r] = float(speeds[r] / sum);
  }
  if (Zoltan_LB_Set_Part_Sizes(zz, 1, ranks, parts.data(), weight_index.data(), sizes.data()) !=
      ZOLTAN_OK) {
    throw redist::mpi::Error("particles: Zoltan_LB_Set_Part_Sizes failed");
  }
}

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

// ---- The application ---------------------------------------------------------------------------

struct Run {
  Run(const Args& a, int rank, int ranks)
      : args(a), system(particle_spec(a)), trace(speed_trace(a, ranks)), app(a, rank, ranks, work) {
    app.owned = initial_particles(app, system, false);
  }

  const Args& args;
  std::vector<double> work;
  rx::ParticleSystem system;
  rb::Trace trace;
  App app;
  Checks checks;
  // The summary.
  std::vector<std::int64_t> rebalanced_after;
  std::int64_t moved = 0, migrations = 0, initial_moved = 0;
  double iterations_time = 0.0, migrations_time = 0.0, initial_cost = 0.0, measured = 0.0;
  double never_time = 0.0;  // every iteration under the initial partition
  std::vector<std::int32_t> initial_owner;
  bool decisions_agree = true;
  std::string log;
};

// Moves the particles as `p` says (redist or Zoltan_Migrate), measures it (the slowest rank's
// wall-clock seconds), and checks every particle.
double migrate(Run& run, rz::Adapter& adapter, const rz::Proposal& p,
               const redist::exchange::Plan& plan, const std::string& when) {
  const std::vector<std::int32_t> owner = owners_after(run.app, p, run.system.size());
  MPI_Barrier(MPI_COMM_WORLD);
  const double start = MPI_Wtime();
  if (run.args.migrate == "zoltan") {
    adapter.migrate_with_zoltan(p);
  } else {
    adapter.migrate(p, plan);
  }
  double seconds = MPI_Wtime() - start;
  MPI_Allreduce(MPI_IN_PLACE, &seconds, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
  Checks& c = run.checks;
  c.require(std::int64_t(run.app.owned.size()) == p.objects_after[std::size_t(run.app.rank)],
            fmt::format("{}: rank {} holds {} particles, the proposal says {}", when, run.app.rank,
                        run.app.owned.size(), p.objects_after[std::size_t(run.app.rank)]));
  check_particles(run.app, run.system, when, &owner, c);
  ++run.migrations;
  return seconds;
}

void initial_partition(Run& run, rz::Adapter& adapter, Zoltan_Struct* zz) {
  run.work = run.system.work();
  set_part_sizes(zz, {}, run.app.ranks);
  const rz::Proposal p = adapter.propose(proposal_options(run.args));
  const redist::exchange::Plan plan = redist::exchange::plan(p.instance);
  run.checks.require(same_everywhere({std::uint64_t(p.moved_objects),
                                      std::bit_cast<std::uint64_t>(plan.makespan)}),
                     "the initial proposal differs between ranks");
  migrate(run, adapter, p, plan, "initial partition");
  run.initial_moved = p.moved_objects;
  run.initial_cost = plan.makespan;
  run.initial_owner = owners_after(run.app, rz::Proposal{}, run.system.size());
}

// Iteration t's time had the particles stayed on the initial partition.
double time_without_rebalancing(const Run& run, std::int64_t t) {
  std::vector<double> load(std::size_t(run.app.ranks), 0.0);
  for (std::size_t id = 0; id < run.work.size(); ++id)
    load[std::size_t(run.initial_owner[id])] += run.work[id];
  double time = 0.0;
  for (std::size_t r = 0; r < load.size(); ++r)
    time = std::max(time, load[r] / run.trace.speeds[std::size_t(t - 1)][r]);
  return time;
}

// The --verbose line of a rebalance, every time in seconds: what the policy weighed when it
// weighs a cost (its predicted saving against the migration cost it saw: the planned makespan,
// times the calibration factor once measured migrations calibrate it), else its own sentence
// (imbalance ratios, iteration counts); then the migration, planned and measured.
std::string rebalance_line(std::int64_t t, const rb::Verdict& v, std::int64_t moved, double planned,
                           double measured) {
  std::string why = v.reason;
  if (v.planned) {
    why = fmt::format("predicted saving {:.6g} s against a migration cost of {:.6g} s",
                      v.predicted_saving, v.migration_cost * v.cost_factor);
    if (v.cost_factor != 1.0)
      why += fmt::format(" (the planned makespan x calibration {:.4g})", v.cost_factor);
  }
  return fmt::format(
      "after iteration {}: {}; {} particles moved, migration planned {:.6g} s, measured {:.6g} s\n",
      t, why, moved, planned, measured);
}

// After iteration t < K: observe, propose, decide, maybe migrate.
void decide_after(Run& run, std::int64_t t, rz::Adapter& adapter, Zoltan_Struct* zz,
                  rb::RebalanceDecider& decider, const rb::Observation& observation) {
  const std::vector<double> speeds = decider.observe(observation);
  set_part_sizes(zz, speeds, run.app.ranks);
  const rz::Proposal p = adapter.propose(proposal_options(run.args));
  std::optional<redist::exchange::Plan> plan;
  const auto plan_cost = [&] {
    if (!plan) plan = redist::exchange::plan(p.instance);
    return plan->makespan;
  };
  rb::Proposal proposal;
  // Zoltan sums float weights: with nothing to move, the loads stay the observed ones exactly.
  proposal.loads = p.moved_objects > 0 ? p.load_after : observation.loads;
  proposal.migration_cost = plan_cost;
  const rb::Verdict v = decider.decide(proposal);
  run.decisions_agree =
      run.decisions_agree &&
      same_everywhere({std::uint64_t(v.rebalance), std::bit_cast<std::uint64_t>(v.migration_cost),
                       std::bit_cast<std::uint64_t>(v.balanced_time)});
  if (!v.rebalance) return;
  const double cost = plan_cost();
  double seconds = 0.0;
  if (p.moved_objects > 0) {
    seconds = migrate(run, adapter, p, *plan, fmt::format("after iteration {}", t));
    if (!run.args.no_calibrate) decider.migrated(cost, seconds);
  }
  decider.rebalanced(v);
  run.rebalanced_after.push_back(t);
  run.moved += p.moved_objects;
  run.migrations_time += cost;
  run.measured += seconds;
  if (run.args.verbose) run.log += rebalance_line(t, v, p.moved_objects, cost, seconds);
}

void iterate(Run& run, rz::Adapter& adapter, Zoltan_Struct* zz, rb::RebalanceDecider& decider) {
  const std::size_t r = std::size_t(run.app.rank);
  for (std::int64_t t = 1; t <= run.args.iterations; ++t) {
    run.work = run.system.work();  // the particles as they are during iteration t
    double load = 0.0;
    for (const Particle& p : run.app.owned) load += run.work[std::size_t(p.id)];
    const double speed = run.trace.speeds[std::size_t(t - 1)][r];
    rb::Observation observation;
    observation.loads = allgather(load, run.app.ranks);
    observation.seconds = allgather(load / speed, run.app.ranks);  // emulated compute time
    run.iterations_time +=
        *std::max_element(observation.seconds.begin(), observation.seconds.end());
    run.never_time += time_without_rebalancing(run, t);
    if (t < run.args.iterations) {
      decide_after(run, t, adapter, zz, decider, observation);
      run.system.advance();
      for (Particle& p : run.app.owned) {
        p.x = run.system.x()[std::size_t(p.id)];
        p.y = run.system.y()[std::size_t(p.id)];
      }
    }
  }
}

std::string joined(const std::vector<std::int64_t>& values) {
  std::string out;
  for (std::int64_t v : values) out += (out.empty() ? "" : ", ") + std::to_string(v);
  return out;
}

void print_summary(const Run& run, bool verified, int ranks) {
  const Args& a = run.args;
  std::cout << run.log;
  std::cout << fmt::format(
      "particles: {} particles of {} bytes on {} ranks, {}, migration by {}\n"
      "speeds: {} drift (seed {}); policy {} ({}); platform {} bytes/s per rank, latency {:g} s\n"
      "initial partition: {} particles moved (planned {:.6g} s, not counted below)\n"
      "iterations: {}\n",
      a.particles, a.particle_bytes, ranks, partitioner_name(a),
      a.migrate == "zoltan" ? "Zoltan_Migrate" : "redist", a.drift, a.seed,
      redist::one_line(a.policy, 80),
      a.no_calibrate ? "migration costs from the model" : "costs calibrated by measured migrations",
      redist::one_line(a.bandwidth, 80), a.latency, run.initial_moved, run.initial_cost,
      a.iterations);
  if (run.rebalanced_after.empty()) {
    std::cout << "rebalances: 0\n";
  } else {
    std::cout << fmt::format("rebalances: {}, after iterations {}\n", run.rebalanced_after.size(),
                             joined(run.rebalanced_after));
  }
  std::cout << fmt::format(
      "particles moved: {}\n"
      "model total time: {:.6g} s = {:.6g} s of iterations + {:.6g} s of planned migrations\n"
      "never rebalancing: {:.6g} s\n"
      "verified: {}\n",
      run.moved, run.iterations_time + run.migrations_time, run.iterations_time,
      run.migrations_time, run.never_time, verified ? "yes" : "no");
}

int run_application(const Args& args, int rank, int ranks) {
  Run run(args, rank, ranks);
  Handle handle(run.app, args);
  rz::Adapter adapter(MPI_COMM_WORLD, handle.zz);
  rb::RebalanceDecider decider(std::size_t(ranks), rb::make_policy(args.policy, args.iterations),
                               args.iterations);
  initial_partition(run, adapter, handle.zz);
  iterate(run, adapter, handle.zz, decider);
  check_particles(run.app, run.system, "at the end", nullptr, run.checks);
  run.checks.require(run.decisions_agree, "the ranks did not all decide the same");
  for (const std::string& f : run.checks.failures) std::cerr << "FAIL: " << f << "\n";
  const bool verified = run.checks.all_held();
  if (rank == 0) print_summary(run, verified, ranks);
  return verified ? 0 : 1;
}

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

// ---- Command line -------------------------------------------------------------------------------

std::vector<double> parse_bandwidths(const std::string& text, int ranks) {
  std::vector<double> out;
  std::size_t from = 0;
  while (true) {
    const std::size_t comma = text.find(',', from);
    const std::string item = text.substr(from, comma == std::string::npos ? comma : comma - from);
    const redist::Parsed<double> value = redist::parse_real(item);
    const double* v = std::get_if<double>(&value);
    if (v == nullptr || *v <= 0) {
      refuse(fmt::format("'{}' must be a number > 0", redist::one_line(item, 40)), "--bandwidth");
    }
    out.push_back(*v);
    if (comma == std::string::npos) break;
    from = comma + 1;
  }
  if (out.size() == 1) out.assign(std::size_t(ranks), out[0]);
  if (out.size() != std::size_t(ranks)) {
    refuse(fmt::format("{} bandwidths for {} ranks (give one, or one per rank)", out.size(), ranks),
           "--bandwidth");
  }
  return out;
}

void declare(CLI::App& app, Args& a) {
  app.add_option("--particles", a.particles, "particles N (default 5000)")
      ->check(CLI::Range(1, 1000000));
  app.add_option("--particle-bytes", a.particle_bytes, "payload bytes per particle (default 256)")
      ->check(CLI::Range(0, 65536));
  app.add_option("--seed", a.seed, "seed of the particles and of the speeds (default 1)");
  app.add_option("--iterations", a.iterations, "iterations K (default 100)")
      ->check(CLI::Range(1, 10000));
  app.add_option("--drift", a.drift, "how speeds drift: steps, walk (default), transient")
      ->check(CLI::IsMember({"steps", "walk", "transient"}));
  app.add_option("--method", a.method, "Zoltan's LB_METHOD: RCB (default) or HYPERGRAPH")
      ->check(CLI::IsMember({"RCB", "HYPERGRAPH"}));
  app.add_option("--rcb-directions", a.rcb_directions,
                 "RCB: locked (default; later partitions cut in the first one's directions) or "
                 "free (each partition chooses its own)")
      ->check(CLI::IsMember({"locked", "free"}));
  app.add_option("--policy", a.policy, "rebalancing policy (default cost-benefit)");
  app.add_option("--migrate", a.migrate, "redist (default) or zoltan (Zoltan_Migrate)")
      ->check(CLI::IsMember({"redist", "zoltan"}));
  app.add_option("--bandwidth", a.bandwidth,
                 "bytes/s of each rank, one value or one per rank, comma-separated (default 1e9)");
  app.add_option("--latency", a.latency, "seconds per message piece (default 5e-6)")
      ->check(redist::cli::non_negative());
  app.add_option("--record", a.record, "write the proposals of a run without migration to FILE");
  app.add_flag("--cross-check", a.cross_check,
               "with --record: ask Zoltan again from another distribution and compare");
  app.add_flag("--no-calibrate", a.no_calibrate,
               "keep the measured migration times from the decider (decisions on the model alone)");
  app.add_flag("--verbose", a.verbose, "one line per rebalance (with wall-clock times)");
}

// Parses argv; false after --help (printed by rank 0). Bad options: redist::mpi::Error naming the
// option.
bool parse(int argc, char** argv, int rank, int ranks, Args& a) {
  CLI::App app{"particles: Zoltan partitions, redist decides and migrates"};
  declare(app, a);
  redist::cli::strict_numbers(app);
  try {
    app.parse(argc, argv);
  } catch (const CLI::Success&) {
    if (rank == 0) std::cout << app.help();
    return false;
  } catch (const CLI::ParseError& e) {
    const redist::cli::ErrorParts error = redist::cli::error_parts(e);
    refuse(error.what, error.where);
  }
  if (ranks < 2 || ranks > 1024)
    refuse(fmt::format("{} ranks: run 2 to 1024", ranks), "mpirun -np");
  if (a.particles * (a.particle_bytes + 24) >= (std::int64_t{1} << 31)) {
    refuse("particles x (bytes + 24) must stay below 2^31", "--particle-bytes");
  }
  if (a.cross_check && a.record.empty()) refuse("needs --record", "--cross-check");
  // Rank 0 writes the recording: a path it cannot write is refused before the run, on every rank
  // (the agreement on the command line carries rank 0's refusal).
  if (!a.record.empty() && rank == 0 && !writable(a.record)) {
    refuse(fmt::format("'{}' cannot be written", redist::one_line(a.record, 200)), "--record");
  }
  if (app.count("--rcb-directions") > 0 && a.method != "RCB")
    refuse("applies to --method RCB only", "--rcb-directions");
  a.bandwidths = parse_bandwidths(a.bandwidth, ranks);
  try {
    (void)rb::make_policy(a.policy, a.iterations);
  } catch (const redist::InputError& e) {
    refuse(e.message(), "--policy");
  }
  return true;
}

}  // namespace

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank = 0, ranks = 1;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &ranks);
  float version = 0.0f;
  Zoltan_Initialize(argc, argv, &version);
  int code = 0;
  try {
    Args args;
    // Parsed on every rank, then agreed, so that no rank refuses alone.
    if (redist::mpi::agree_on_command_line(MPI_COMM_WORLD, "particles", argc, argv,
                                           [&] { return parse(argc, argv, rank, ranks, args); })) {
      code =
          args.record.empty() ? run_application(args, rank, ranks) : record_run(args, rank, ranks);
    }
  } catch (const redist::mpi::Error& e) {
    // Every rank refuses at the same point; rank 0 says why.
    if (rank == 0) std::cerr << "error: " << redist::one_line(e.what(), 600) << "\n";
    code = 2;
  } catch (const std::exception& e) {
    // The decider and the trace see the same inputs on every rank, so they refuse everywhere.
    if (rank == 0) std::cerr << "error: particles: " << redist::one_line(e.what(), 600) << "\n";
    code = 2;
  }
  MPI_Finalize();
  return code;
}
