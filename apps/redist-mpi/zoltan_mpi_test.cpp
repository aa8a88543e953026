// zoltan-mpi-test: redist's Zoltan adapter under mpirun (src/redist/zoltan/adapter.hpp).
//
//   mpirun -np P zoltan-mpi-test --method RCB|HYPERGRAPH [--seed S] [--particles N]
//          [--gid-entries G] [--single] [--fault KIND:RANK]
//
// A particle set: N particles with ids of G words, 3-D coordinates and a payload of 0..96 bytes,
// all derived from the particle's number, so that any copy can be checked on its own. They start
// unevenly spread (rank r holds about (P - r) shares), each weighing 1 + payload / 32. Zoltan
// partitions them with the method's callbacks (geometry for RCB; for HYPERGRAPH, PHG on
// hyperedges joining particles of consecutive numbers); the application's size, pack and unpack
// functions (MULTI forms, or the single-object forms with --single) and its PRE/MID/POST
// migration functions (which drop the exported particles and append the arrived ones) are the
// only migration code. One proposal is migrated twice from the same start: by redist
// (Adapter::migrate) and by Zoltan_Migrate (migrate_with_zoltan); then a second partition with
// new weights is migrated by redist. Checked after every migration: every particle present
// exactly once (gathered on rank 0) with its coordinates and payload intact, each rank holding
// what the lists say and as many as the proposal's objects_after, the hooks called in
// Zoltan_Migrate's order; the proposal identical on every rank (a hash, MPI_MAX and MPI_MIN), its
// loads before equal to each rank's weights; both paths leave every rank the same particles.
// Rank 0 prints one JSON line {"verified": true, ...}; exit 0 when all holds, 1 if not.
// --fault KIND:RANK: RANK misbehaves and every rank must throw the same Error, nothing lost (each
// rank's particles still intact when the fault strikes before data moves); the program prints
// `error: <message>` on every rank and exits 2 (mpi_run_test.sh's error mode). KIND: unknown-id
// (an export names a particle RANK does not hold), drop (RANK drops an export or an import),
// proc (an export names rank P), negative (RANK's size function gives -1), options (RANK plans
// for another latency), grown (RANK's particles grow between proposal and migration),
// unpack (RANK's unpack function fails).
#include <mpi.h>
#include <zoltan.h>

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <iostream>
#include <iterator>
#include <stdexcept>
#include <string>
#include <vector>

#include <fmt/format.h>
#include <CLI/CLI.hpp>

#include "redist/zoltan.hpp"

namespace {

namespace rz = redist::zoltan;

struct Args {
  std::string method = "RCB";
  std::uint64_t seed = 1;
  int particles = 600;
  int gid_entries = 1;
  bool single = false;
  std::string fault;
};

std::uint64_t mix(std::uint64_t x) {
  x += 0x9e3779b97f4a7c15ULL;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
  return x ^ (x >> 31);
}

// Everything about particle `key` follows from the key and the seed.
struct Particle {
  std::int64_t key = 0;
  double x[3] = {0, 0, 0};
  std::vector<char> payload;
};

Particle make_particle(std::int64_t key, std::uint64_t seed) {
  Particle p;
  p.key = key;
  for (int d = 0; d < 3; ++d) {
    p.x[d] = double(mix(seed * 31 + std::uint64_t(key) * 3 + std::uint64_t(d)) >> 11) * 0x1p-53;
  }
  const std::uint64_t h = mix(seed ^ (std::uint64_t(key) << 20));
  p.payload.resize(h % 97);
  for (std::size_t i = 0; i < p.payload.size(); ++i) p.payload[i] = char(mix(h + i) & 0xff);
  return p;
}

bool intact(const Particle& p, std::uint64_t seed) {
  const Particle want = make_particle(p.key, seed);
  // Bit for bit: the coordinates travel as bytes.
  for (std::size_t d = 0; d < std::size(p.x); ++d) {
    if (std::bit_cast<std::uint64_t>(p.x[d]) != std::bit_cast<std::uint64_t>(want.x[d]))
      return false;
  }
  return p.payload == want.payload;
}

// The application: its particles and the Zoltan callbacks over them.
struct App {
  int rank = 0, ranks = 1, gid_entries = 1;
  std::uint64_t seed = 1;
  double weight_scale = 1.0;  // weights 1 + payload / 32, times this on the right half
  std::vector<Particle> particles;
  std::vector<Particle> arrived;
  std::vector<std::string> events;
  int grow = 0;  // bytes added to every size (fault `grown`)
  bool negative = false, fail_unpack = false;

  void gid(std::int64_t key, ZOLTAN_ID_PTR out) const {
    out[0] = ZOLTAN_ID_TYPE(key);
    for (int e = 1; e < gid_entries; ++e) out[e] = ZOLTAN_ID_TYPE(key * 7 + e);
  }
  std::int64_t key_of(const ZOLTAN_ID_TYPE* id) const {
    for (int e = 1; e < gid_entries; ++e) {
      if (id[e] != ZOLTAN_ID_TYPE(std::int64_t(id[0]) * 7 + e)) return -1;
    }
    return std::int64_t(id[0]);
  }
  float weight(const Particle& p) const {
    return float((1.0 + double(p.payload.size()) / 32.0) * (p.x[0] > 0.5 ? weight_scale : 1.0));
  }
  int size_of(const Particle& p) const {
    return negative ? -1 : int(3 * sizeof(double) + sizeof(int) + p.payload.size()) + grow;
  }
};

App& app_of(void* data) { return *static_cast<App*>(data); }

int num_obj(void* data, int* ierr) {
  *ierr = ZOLTAN_OK;
  return int(app_of(data).particles.size());
}

void obj_list(void* data, int, int, ZOLTAN_ID_PTR gids, ZOLTAN_ID_PTR lids, int wdim,
              float* weights, int* ierr) {
  App& a = app_of(data);
  for (std::size_t k = 0; k < a.particles.size(); ++k) {
    a.gid(a.particles[k].key, gids + k * std::size_t(a.gid_entries));
    lids[k] = ZOLTAN_ID_TYPE(k);
    if (wdim > 0) weights[k * std::size_t(wdim)] = a.weight(a.particles[k]);
  }
  *ierr = ZOLTAN_OK;
}

int num_geom(void*, int* ierr) {
  *ierr = ZOLTAN_OK;
  return 3;
}

void geom_multi(void* data, int, int, int n, ZOLTAN_ID_PTR, ZOLTAN_ID_PTR lids, int, double* out,
                int* ierr) {
  App& a = app_of(data);
  for (int k = 0; k < n; ++k) std::memcpy(out + 3 * k, a.particles[lids[k]].x, 3 * sizeof(double));
  *ierr = ZOLTAN_OK;
}

// Hypergraph: each particle belongs to hyperedges key / 4 and (key + 2) / 4.
void hg_size(void* data, int* lists, int* pins, int* format, int* ierr) {
  *lists = int(app_of(data).particles.size());
  *pins = 2 * *lists;
  *format = ZOLTAN_COMPRESSED_VERTEX;
  *ierr = ZOLTAN_OK;
}

void hg_cs(void* data, int g, int lists, int, int, ZOLTAN_ID_PTR vertices, int* ptr,
           ZOLTAN_ID_PTR pins, int* ierr) {
  App& a = app_of(data);
  for (int k = 0; k < lists; ++k) {
    const std::int64_t key = a.particles[std::size_t(k)].key;
    a.gid(key, vertices + std::size_t(k * g));
    ptr[k] = 2 * k;
    for (int j = 0; j < 2; ++j) {
      ZOLTAN_ID_PTR pin = pins + std::size_t((2 * k + j) * g);
      std::fill(pin, pin + g, ZOLTAN_ID_TYPE(0));
      pin[0] = ZOLTAN_ID_TYPE((key + 2 * j) / 4);
    }
  }
  *ierr = ZOLTAN_OK;
}

void obj_size_multi(void* data, int, int, int n, ZOLTAN_ID_PTR, ZOLTAN_ID_PTR lids, int* sizes,
                    int* ierr) {
  App& a = app_of(data);
  a.events.push_back("size");
  for (int k = 0; k < n; ++k) sizes[k] = a.size_of(a.particles[lids[k]]);
  *ierr = ZOLTAN_OK;
}

// The callbacks take Zoltan's own signatures (ZOLTAN_ID_PTR, int*), whatever they only read.
int obj_size(void* data, int, int, ZOLTAN_ID_PTR,
             ZOLTAN_ID_PTR lid,  // NOLINT(readability-non-const-parameter)
             int* ierr) {
  App& a = app_of(data);
  a.events.push_back("size");
  *ierr = ZOLTAN_OK;
  return a.size_of(a.particles[*lid]);
}

void pack_one(App& a, const Particle& p, int size, char* buf) {
  if (size < a.size_of(p)) throw std::runtime_error("pack: no room");
  std::memcpy(buf, p.x, sizeof p.x);
  const int n = int(p.payload.size());
  std::memcpy(buf + sizeof p.x, &n, sizeof n);
  if (n > 0) std::memcpy(buf + sizeof p.x + sizeof n, p.payload.data(), p.payload.size());
}

void pack_multi(void* data, int g, int, int n, ZOLTAN_ID_PTR gids, ZOLTAN_ID_PTR lids, int*,
                int* sizes, int* idx, char* buf, int* ierr) {
  App& a = app_of(data);
  a.events.push_back("pack");
  *ierr = ZOLTAN_OK;
  for (int k = 0; k < n; ++k) {
    const Particle& p = a.particles[lids[k]];
    if (a.key_of(gids + std::size_t(k * g)) != p.key) *ierr = ZOLTAN_FATAL;
    pack_one(a, p, sizes[k], buf + idx[k]);
  }
}

void pack(void* data, int g, int, ZOLTAN_ID_PTR gid,
          ZOLTAN_ID_PTR lid,  // NOLINT(readability-non-const-parameter)
          int, int size, char* buf, int* ierr) {
  App& a = app_of(data);
  a.events.push_back("pack");
  const Particle& p = a.particles[*lid];
  *ierr = a.key_of(gid) == p.key && g == a.gid_entries ? ZOLTAN_OK : ZOLTAN_FATAL;
  pack_one(a, p, size, buf);
}

void unpack_one(App& a, const ZOLTAN_ID_TYPE* gid, const char* buf, int* ierr) {
  Particle p;
  p.key = a.key_of(gid);
  std::memcpy(p.x, buf, sizeof p.x);
  int n = 0;
  std::memcpy(&n, buf + sizeof p.x, sizeof n);
  p.payload.assign(buf + sizeof p.x + sizeof n, buf + sizeof p.x + sizeof n + n);
  a.arrived.push_back(std::move(p));
  *ierr = a.fail_unpack ? ZOLTAN_FATAL : ZOLTAN_OK;
}

void unpack_multi(void* data, int g, int n, ZOLTAN_ID_PTR gids, int*, int* idx, char* buf,
                  int* ierr) {
  App& a = app_of(data);
  a.events.push_back("unpack");
  for (int k = 0; k < n; ++k) unpack_one(a, gids + std::size_t(k * g), buf + idx[k], ierr);
}

void unpack(void* data, int, ZOLTAN_ID_PTR gid, int, char* buf, int* ierr) {
  App& a = app_of(data);
  a.events.push_back("unpack");
  unpack_one(a, gid, buf, ierr);
}

void pre_pp(void* data, int, int, int, ZOLTAN_ID_PTR, ZOLTAN_ID_PTR, int*, int*, int, ZOLTAN_ID_PTR,
            ZOLTAN_ID_PTR, int*, int*, int* ierr) {
  app_of(data).events.push_back("pre");
  *ierr = ZOLTAN_OK;
}

// Drops the particles that leave (their local ids are their places until now).
void mid_pp(void* data, int, int l, int, ZOLTAN_ID_PTR, ZOLTAN_ID_PTR, int*, int*, int n,
            ZOLTAN_ID_PTR, ZOLTAN_ID_PTR lids,
            int* procs,  // NOLINT(readability-non-const-parameter)
            int*, int* ierr) {
  App& a = app_of(data);
  a.events.push_back("mid");
  std::vector<bool> leaves(a.particles.size(), false);
  for (int k = 0; k < n; ++k) {
    if (procs[k] != a.rank) leaves[lids[std::size_t(k * l)]] = true;
  }
  std::vector<Particle> kept;
  for (std::size_t k = 0; k < a.particles.size(); ++k) {
    if (!leaves[k]) kept.push_back(std::move(a.particles[k]));
  }
  a.particles = std::move(kept);
  *ierr = ZOLTAN_OK;
}

void post_pp(void* data, int, int, int, ZOLTAN_ID_PTR, ZOLTAN_ID_PTR, int*, int*, int,
             ZOLTAN_ID_PTR, ZOLTAN_ID_PTR, int*, int*, int* ierr) {
  App& a = app_of(data);
  a.events.push_back("post");
  for (Particle& p : a.arrived) a.particles.push_back(std::move(p));
  a.arrived.clear();
  *ierr = ZOLTAN_OK;
}

// The particles rank `rank` starts with: particle k goes to rank r with odds (P - r) / (P(P+1)/2).
std::vector<Particle> initial_particles(const Args& args, int rank, int ranks) {
  std::vector<Particle> mine;
  const std::uint64_t shares = std::uint64_t(ranks) * std::uint64_t(ranks + 1) / 2;
  for (std::int64_t key = 0; key < args.particles; ++key) {
    std::uint64_t draw = mix(args.seed * 977 + std::uint64_t(key)) % shares;
    int owner = 0;
    while (draw >= std::uint64_t(ranks - owner)) draw -= std::uint64_t(ranks - owner++);
    if (owner == rank) mine.push_back(make_particle(key, args.seed));
  }
  return mine;
}

Zoltan_Struct* make_handle(App& app, const Args& args) {
  Zoltan_Struct* zz = Zoltan_Create(MPI_COMM_WORLD);
  Zoltan_Set_Param(zz, "DEBUG_LEVEL", "0");
  Zoltan_Set_Param(zz, "LB_METHOD", args.method.c_str());
  Zoltan_Set_Param(zz, "LB_APPROACH", "REPARTITION");
  Zoltan_Set_Param(zz, "NUM_GID_ENTRIES", std::to_string(args.gid_entries).c_str());
  Zoltan_Set_Param(zz, "NUM_LID_ENTRIES", "1");
  Zoltan_Set_Param(zz, "OBJ_WEIGHT_DIM", "1");
  Zoltan_Set_Param(zz, "RETURN_LISTS", "ALL");
  Zoltan_Set_Num_Obj_Fn(zz, num_obj, &app);
  Zoltan_Set_Obj_List_Fn(zz, obj_list, &app);
  Zoltan_Set_Num_Geom_Fn(zz, num_geom, &app);
  Zoltan_Set_Geom_Multi_Fn(zz, geom_multi, &app);
  Zoltan_Set_HG_Size_CS_Fn(zz, hg_size, &app);
  Zoltan_Set_HG_CS_Fn(zz, hg_cs, &app);
  if (args.single) {
    Zoltan_Set_Obj_Size_Fn(zz, obj_size, &app);
    Zoltan_Set_Pack_Obj_Fn(zz, pack, &app);
    Zoltan_Set_Unpack_Obj_Fn(zz, unpack, &app);
  } else {
    Zoltan_Set_Obj_Size_Multi_Fn(zz, obj_size_multi, &app);
    Zoltan_Set_Pack_Obj_Multi_Fn(zz, pack_multi, &app);
    Zoltan_Set_Unpack_Obj_Multi_Fn(zz, unpack_multi, &app);
  }
  Zoltan_Set_Pre_Migrate_PP_Fn(zz, pre_pp, &app);
  Zoltan_Set_Mid_Migrate_PP_Fn(zz, mid_pp, &app);
  Zoltan_Set_Post_Migrate_PP_Fn(zz, post_pp, &app);
  return zz;
}

// Failures of the checks, collected on each rank and reported by rank 0.
struct Checks {
  std::vector<std::string> failures;
  void require(bool ok, const std::string& what) {
    if (!ok && failures.size() < 10) failures.push_back(what);
  }
};

std::vector<std::int64_t> sorted_keys(const std::vector<Particle>& ps) {
  std::vector<std::int64_t> keys;
  for (const Particle& p : ps) keys.push_back(p.key);
  std::sort(keys.begin(), keys.end());
  return keys;
}

// Collective: the proposal is the same on every rank (a hash; MPI_MAX and MPI_MIN agree).
bool same_everywhere(const rz::Proposal& p) {
  std::uint64_t h = 0;
  const auto add = [&](std::uint64_t w) { h = mix(h ^ w); };
  for (const auto& m : p.instance.messages)
    add(std::uint64_t(m.from)), add(std::uint64_t(m.to)), add(std::uint64_t(m.bytes));
  for (double x : p.load_before) add(std::bit_cast<std::uint64_t>(x));
  for (double x : p.load_after) add(std::bit_cast<std::uint64_t>(x));
  for (std::int64_t x : p.objects_after) add(std::uint64_t(x));
  add(std::uint64_t(p.moved_objects)), add(std::uint64_t(p.payload_bytes));
  std::uint64_t max = 0, min = 0;
  MPI_Allreduce(&h, &max, 1, MPI_UINT64_T, MPI_MAX, MPI_COMM_WORLD);
  MPI_Allreduce(&h, &min, 1, MPI_UINT64_T, MPI_MIN, MPI_COMM_WORLD);
  return max == min;
}

// The keys this rank must hold after the proposal's migration.
std::vector<std::int64_t> expected_keys(const App& a, const std::vector<std::int64_t>& before,
                                        const rz::Proposal& p) {
  std::vector<std::int64_t> leaving, keys;
  const auto g = std::size_t(a.gid_entries);
  for (std::size_t k = 0; k < p.exports.size(); ++k) {
    if (p.exports.procs[k] != a.rank)
      leaving.push_back(a.key_of(p.exports.global_ids.data() + k * g));
  }
  std::sort(leaving.begin(), leaving.end());
  std::set_difference(before.begin(), before.end(), leaving.begin(), leaving.end(),
                      std::back_inserter(keys));
  for (std::size_t k = 0; k < p.imports.size(); ++k) {
    if (p.imports.procs[k] != a.rank) keys.push_back(a.key_of(p.imports.global_ids.data() + k * g));
  }
  std::sort(keys.begin(), keys.end());
  return keys;
}

// The hooks ran in Zoltan_Migrate's order: pre, sizes and packs, mid, unpacks, post.
bool in_migration_order(const std::vector<std::string>& events) {
  const std::vector<std::string> stages{"pre", "size", "pack", "mid", "unpack", "post"};
  std::size_t stage = 0;
  for (const std::string& e : events) {
    const auto at = std::find(stages.begin(), stages.end(), e) - stages.begin();
    if (std::size_t(at) < stage) return false;
    stage = std::size_t(at);
  }
  return std::count(events.begin(), events.end(), "pre") == 1 &&
         std::count(events.begin(), events.end(), "mid") == 1 &&
         std::count(events.begin(), events.end(), "post") == 1;
}

// Collective: after a migration, every particle once, intact, where the proposal puts it.
void check_migration(const App& a, const Args& args, const std::vector<std::int64_t>& before,
                     const rz::Proposal& p, const std::string& path, Checks& c) {
  for (const Particle& q : a.particles) {
    c.require(intact(q, a.seed),
              fmt::format("{}: particle {} damaged on rank {}", path, q.key, a.rank));
  }
  const std::vector<std::int64_t> keys = sorted_keys(a.particles);
  c.require(keys == expected_keys(a, before, p),
            fmt::format("{}: rank {} holds other particles than the lists say", path, a.rank));
  c.require(std::int64_t(keys.size()) == p.objects_after[std::size_t(a.rank)],
            fmt::format("{}: rank {} holds {} particles, the proposal says {}", path, a.rank,
                        keys.size(), p.objects_after[std::size_t(a.rank)]));
  c.require(in_migration_order(a.events),
            fmt::format("{}: hooks out of order on rank {}", path, a.rank));
  // Every particle exactly once: all keys on rank 0.
  const int n = int(keys.size());
  std::vector<int> counts(std::size_t(a.ranks)), displs(std::size_t(a.ranks));
  MPI_Gather(&n, 1, MPI_INT, counts.data(), 1, MPI_INT, 0, MPI_COMM_WORLD);
  int total = 0;
  for (int r = 0; r < a.ranks; ++r) displs[std::size_t(r)] = total, total += counts[std::size_t(r)];
  std::vector<std::int64_t> all(std::size_t(a.rank == 0 ? total : 0));
  MPI_Gatherv(keys.data(), n, MPI_INT64_T, all.data(), counts.data(), displs.data(), MPI_INT64_T, 0,
              MPI_COMM_WORLD);
  if (a.rank == 0) {
    std::sort(all.begin(), all.end());
    bool once = int(all.size()) == args.particles;
    for (std::size_t k = 0; once && k < all.size(); ++k) once = all[k] == std::int64_t(k);
    c.require(once, fmt::format("{}: {} particles after, want each of {} once", path, all.size(),
                                args.particles));
  }
}

struct Fault {
  std::string kind;
  int rank = -1;
  bool on(int r, const char* k) const { return kind == k && rank == r; }
};

Fault parse_fault(const std::string& text, int ranks) {
  Fault f;
  if (text.empty()) return f;
  const auto colon = text.find(':');
  const std::vector<std::string> kinds{"unknown-id", "drop",  "proc",  "negative",
                                       "options",    "grown", "unpack"};
  f.kind = text.substr(0, colon);
  if (colon == std::string::npos || std::find(kinds.begin(), kinds.end(), f.kind) == kinds.end()) {
    throw CLI::ValidationError("--fault",
                               "KIND:RANK with KIND one of unknown-id, drop, proc, "
                               "negative, options, grown, unpack");
  }
  f.rank = std::stoi(text.substr(colon + 1));
  if (f.rank < 0 || f.rank >= ranks) throw CLI::ValidationError("--fault", "no such rank");
  return f;
}

// Lists with the fault of `f` on its rank (unknown-id, drop, proc), for propose_lists.
void tamper(const Fault& f, const App& a, rz::Lists& imports, rz::Lists& exports) {
  const auto g = std::size_t(a.gid_entries);
  rz::Lists& side = exports.size() > 0 || f.kind != "drop" ? exports : imports;
  if (side.size() == 0) throw std::logic_error("the faulty rank has no list entry to spoil");
  if (f.kind == "unknown-id") {
    a.gid(std::int64_t(1) << 30, side.global_ids.data());
  } else if (f.kind == "proc") {
    side.procs[0] = a.ranks;
  } else {
    side.global_ids.erase(side.global_ids.begin(), side.global_ids.begin() + std::ptrdiff_t(g));
    side.local_ids.erase(side.local_ids.begin());
    side.procs.erase(side.procs.begin());
    side.parts.erase(side.parts.begin());
  }
}

struct Handle {
  Zoltan_Struct* zz;
  ~Handle() { Zoltan_Destroy(&zz); }
};

struct Outcome {
  rz::Proposal first, second;
  double model_makespan = 0.0;
};

Outcome migrations(App& app, const Args& args, rz::Adapter& adapter, const Fault& fault,
                   Checks& c) {
  rz::ProposalOptions options;
  options.weight_dim = 1;
  if (fault.on(app.rank, "options")) options.platform.latency = 1e-3;
  app.negative = fault.on(app.rank, "negative");
  const std::vector<std::int64_t> start = sorted_keys(app.particles);
  double weights = 0.0;
  for (const Particle& q : app.particles) weights += double(app.weight(q));
  Outcome out;
  out.first = adapter.propose(options);
  if (fault.kind == "unknown-id" || fault.kind == "drop" || fault.kind == "proc") {
    rz::Lists imports = out.first.imports, exports = out.first.exports;
    if (fault.rank == app.rank) tamper(fault, app, imports, exports);
    adapter.propose_lists(out.first.ids, imports, exports, options);
  }
  const rz::Proposal& p = out.first;
  c.require(same_everywhere(p), "the proposal differs between ranks");
  c.require(std::abs(p.load_before[std::size_t(app.rank)] - weights) <= 1e-9 * weights,
            fmt::format("rank {}: load before {} != its weights {}", app.rank,
                        p.load_before[std::size_t(app.rank)], weights));
  c.require(p.changes && p.moved_objects > 0, "the first partition moves nothing");
  app.grow = fault.on(app.rank, "grown") ? 8 : 0;
  app.fail_unpack = fault.on(app.rank, "unpack");
  app.events.clear();
  out.model_makespan = adapter.migrate(p, redist::exchange::plan(p.instance)).model_makespan;
  check_migration(app, args, start, p, "redist", c);
  const std::vector<std::int64_t> after_redist = sorted_keys(app.particles);

  app.particles = initial_particles(args, app.rank, app.ranks);
  app.events.clear();
  adapter.migrate_with_zoltan(p);
  check_migration(app, args, start, p, "zoltan", c);
  c.require(sorted_keys(app.particles) == after_redist,
            fmt::format("rank {}: redist and Zoltan_Migrate leave other particles", app.rank));

  app.weight_scale = 4.0;  // the right half grows heavier: a second partition, migrated by redist
  const std::vector<std::int64_t> middle = sorted_keys(app.particles);
  out.second = adapter.propose(options);
  app.events.clear();
  c.require(same_everywhere(out.second), "the second proposal differs between ranks");
  adapter.migrate(out.second);
  check_migration(app, args, middle, out.second, "second", c);
  return out;
}

int print_error(const std::string& what) {
  const std::string line = "error: " + what + "\n";
  std::cerr << line << std::flush;
  return 2;
}

int run(const Args& args, int rank, int ranks) {
  const Fault fault = parse_fault(args.fault, ranks);
  App app;
  app.rank = rank, app.ranks = ranks, app.gid_entries = args.gid_entries, app.seed = args.seed;
  app.particles = initial_particles(args, rank, ranks);
  const std::vector<std::int64_t> start = sorted_keys(app.particles);
  Handle handle{make_handle(app, args)};
  rz::Adapter adapter(MPI_COMM_WORLD, handle.zz);
  Checks c;
  Outcome out;
  try {
    out = migrations(app, args, adapter, fault, c);
  } catch (const redist::mpi::Error& e) {
    // Before any particle moved (every fault but unpack), none is lost or changed.
    if (fault.kind != "unpack") {
      bool kept = sorted_keys(app.particles) == start && app.arrived.empty();
      for (const Particle& q : app.particles) kept = kept && intact(q, app.seed);
      if (!kept) std::cerr << "FAIL: rank " << rank << " lost or changed particles\n";
    }
    return print_error(e.what());
  }
  for (const std::string& f : c.failures) std::cerr << "FAIL: " << f << "\n";
  int failed = c.failures.empty() ? 0 : 1, any = 0;
  MPI_Allreduce(&failed, &any, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
  if (rank == 0) {
    const auto max = [](const std::vector<double>& v) {
      return *std::max_element(v.begin(), v.end());
    };
    std::int64_t bytes = 0;
    for (const auto& m : out.first.instance.messages) bytes += m.bytes;
    std::cout << fmt::format(
        "{{\"verified\": {}, \"method\": \"{}\", \"ranks\": {}, \"particles\": {}, \"moved\": {}, "
        "\"messages\": {}, \"bytes\": {}, \"model_makespan\": {}, \"max_load_before\": {}, "
        "\"max_load_after\": {}, \"second_moved\": {}}}\n",
        any == 0 ? "true" : "false", args.method, ranks, args.particles, out.first.moved_objects,
        out.first.instance.messages.size(), bytes, out.model_makespan, max(out.first.load_before),
        max(out.first.load_after), out.second.moved_objects);
  }
  return any == 0 ? 0 : 1;
}

}  // namespace

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
  int rank = 0, ranks = 1;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &ranks);
  float version = 0.0f;
  Zoltan_Initialize(argc, argv, &version);
  CLI::App cli{"zoltan-mpi-test: redist's Zoltan adapter under mpirun"};
  Args args;
  cli.add_option("--method", args.method, "Zoltan's LB_METHOD")
      ->check(CLI::IsMember({"RCB", "HYPERGRAPH"}));
  cli.add_option("--seed", args.seed, "seed of the particles");
  cli.add_option("--particles", args.particles, "particles in all")->check(CLI::Range(1, 1000000));
  cli.add_option("--gid-entries", args.gid_entries, "words of a global id")
      ->check(CLI::Range(1, 4));
  cli.add_flag("--single", args.single, "single-object size, pack and unpack functions");
  cli.add_option("--fault", args.fault, "KIND:RANK, a collective refusal");
  int rc = 0;
  try {
    cli.parse(argc, argv);
    rc = run(args, rank, ranks);
  } catch (const CLI::ParseError& e) {
    rc = print_error(e.what());
  } catch (const redist::mpi::Error& e) {
    rc = print_error(e.what());
  }
  MPI_Finalize();
  return rc;
}
