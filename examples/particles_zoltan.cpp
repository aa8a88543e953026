// The particles example: the particles' data and the application as Zoltan sees it (its
// callbacks, the handle, the part sizes). particles.hpp says what each function does.
#include <algorithm>
#include <bit>
#include <cmath>
#include <cstring>
#include <numeric>

#include "examples/particles.hpp"
#include "redist/mpi/command_line.hpp"

namespace particles_example {

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

namespace {

// ---- The application as Zoltan sees it --------------------------------------------------------

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

}  // namespace

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

}  // namespace particles_example
