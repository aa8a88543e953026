// Zoltan's partitions migrated by redist (docs/zoltan.md): an application that balances with
// Zoltan keeps its handle, its parameters (LB_METHOD RCB, HYPERGRAPH, GRAPH, ...) and its
// callbacks, and gets from Adapter a Proposal (Zoltan_LB_Partition's import and export lists as
// one exchange instance, the same on every rank, with each rank's load before and after), which a
// decision may weigh, and a migration that moves the application's objects with redist's MPI
// executor (redist/mpi/exchange.hpp) along any exchange plan, through the application's own
// pack and unpack functions.
//
// Adapter(comm, zz): comm is the communicator zz was created with (Zoltan does not tell it);
// collective (one MPI_Comm_dup). Every call below is collective over it.
// propose(options)     calls Zoltan_LB_Partition on zz (RETURN_LISTS ALL, IMPORT, EXPORT or
//                      PARTS: a missing side is computed with Zoltan_Invert_Lists) and takes the
//                      census of census.hpp: each exported object's bytes are its size from the
//                      registered ZOLTAN_OBJ_SIZE(_MULTI)_FN as Zoltan_Migrate sends it (wire.hpp);
//                      each object's load is its first weight from ZOLTAN_OBJ_LIST_FN when
//                      options.weight_dim > 0 (the handle's OBJ_WEIGHT_DIM), else 1. Objects whose
//                      new part is on the same rank stay (Zoltan's MIGRATE_ONLY_PROC_CHANGES).
// propose_lists(...)   the same for import and export lists the caller made.
// migrate(p, plan)     moves the objects as Zoltan_Migrate does, in its order: PRE_MIGRATE_PP and
//                      PRE_MIGRATE functions, sizes, one ZOLTAN_PACK_OBJ_MULTI_FN call (or one
//                      ZOLTAN_PACK_OBJ_FN call per object), the transfer by mpi::Exchange along
//                      `plan` (a plan of p.instance), MID_MIGRATE_PP and MID_MIGRATE, one unpack
//                      multi call (or one unpack call per object), POST_MIGRATE_PP and
//                      POST_MIGRATE. The pre/mid/post functions get the proposal's full lists.
// migrate(p)           the same along exchange::plan(p.instance) (`auto`).
// migrate_with_zoltan(p) Zoltan_Migrate on the proposal's lists (for comparison).
//
// Errors: redist::mpi::Error with the same message on every rank, before any object moves, for:
// Zoltan_LB_Partition failing; lists with a rank out of range or an id of the wrong length; an
// export whose global id is not one of the rank's objects (ZOLTAN_OBJ_LIST_FN) or that is
// exported twice; import and export lists that do not describe the same migration (census.hpp);
// a rank given other options; a size function that fails or gives a negative size, or an
// object beyond 2^31-1 bytes; a rank sending or receiving more than 2^31-1 bytes (the callbacks'
// indices are ints, as in Zoltan_Migrate); a missing callback; and, in migrate, sizes that
// changed since the proposal or a plan that is not the proposal's. A callback that fails
// (ierr < 0, or a C++ exception) after the data moved gives the same Error on every rank at the
// end of that step; what the application's callbacks did by then stays done. MPI failures as in
// redist/mpi/communicator.hpp.
// Costs: propose is Zoltan_LB_Partition plus one ZOLTAN_OBJ_LIST_FN call, one size call on the
// exports, O(n log n) for n local objects, three agreements (one MPI_Allreduce each, a fourth
// when a list is inverted), one MPI_Allgather and one MPI_Allgatherv of O(m) bytes for m pairs
// (every rank then holds the whole instance). migrate is the Exchange's construction and
// execution (mpi/exchange.hpp) plus six agreements; its buffers are one send and one receive
// buffer of the rank's bytes on the wire.
#pragma once

#include <mpi.h>
#include <zoltan.h>

#include <cstdint>

#include "redist/exchange/model.hpp"
#include "redist/mpi/communicator.hpp"
#include "redist/zoltan/census.hpp"
#include "redist/zoltan/lists.hpp"

namespace redist::zoltan {

struct ProposalOptions {
  Platform platform;   // bandwidths 1 byte/s and latency 0 by default
  int weight_dim = 0;  // the handle's OBJ_WEIGHT_DIM (0..kMaxWeightDim)
};

inline constexpr int kMaxWeightDim = 64;

// A migration Zoltan proposes: this rank's lists, and the census (the instance and the loads,
// the same on every rank).
struct Proposal : Census {
  bool changes = false;  // Zoltan_LB_Partition's `changes` (propose_lists: whether any moves)
  IdShape ids;
  Lists imports;  // this rank's, as given
  Lists exports;
};

// This rank's share of a migration.
struct MigrationReport {
  std::int64_t objects_sent = 0;
  std::int64_t objects_received = 0;
  std::int64_t bytes_sent = 0;  // on the wire
  std::int64_t bytes_received = 0;
  double model_makespan = 0.0;  // the plan's (migrate only)
};

class Adapter {
 public:
  Adapter(MPI_Comm comm, Zoltan_Struct* zz);

  Proposal propose(const ProposalOptions& options = {});
  Proposal propose_lists(IdShape ids, Lists imports, Lists exports,
                         const ProposalOptions& options = {});
  MigrationReport migrate(const Proposal& proposal, const exchange::Plan& plan);
  MigrationReport migrate(const Proposal& proposal);
  MigrationReport migrate_with_zoltan(const Proposal& proposal);

  int rank() const { return comm_.rank(); }
  int size() const { return comm_.size(); }

 private:
  Proposal census(Proposal proposal, const ProposalOptions& options, mpi::CallLog& log);
  std::vector<RankReport> gather(const RankReport& mine, mpi::CallLog& log);

  mpi::Communicator comm_;
  Zoltan_Struct* zz_;
};

}  // namespace redist::zoltan
