// One drop-in call on this rank (redist/mpi/dropin.h, docs/dropin.md): its arguments checked and
// turned into this rank's row of the pattern, the buffers of a planned call (the caller's bytes
// where they are, or packed with MPI_Pack when the type is not contiguous or the call is in
// place), and the run of a plan's transfers on them.
#pragma once

#include <mpi.h>

#include <cstddef>
#include <cstdint>
#include <vector>

#include "redist/mpi/datatype.hpp"
#include "redist/mpi/dropin_engine.hpp"
#include "redist/mpi/dropin_pattern.hpp"
#include "redist/mpi/dropin_state.hpp"

namespace redist::mpi::dropin {

// A call's arguments, as this rank sees them.
struct Local {
  Row row;
  int error = MPI_SUCCESS;  // an MPI error class of this rank's arguments
  bool unsupported = false;
  bool in_place = false;
  TypeLayout send, recv;
};

// Checks this rank's arguments (types, counts, buffers) and computes its row.
Local examine(const Call& c, const CommState& st);

// Where the bytes to send are: the caller's buffer when its type is contiguous (and the call is
// not in place), else a packed copy.
struct SendSide {
  std::vector<std::byte> packed;
  const std::byte* base = nullptr;
  std::vector<std::int64_t> displs;
};

// The buffers of a planned call, ready before the call's agreement: the bytes to send (packed
// when needed), the rank's own block copied, where received bytes go (the caller's buffer, or a
// packed one to unpack). `code`: a local failure (of MPI_Pack), agreed on with the call.
struct Prepared {
  SendSide send;
  std::vector<std::byte> packed_recv;
  std::byte* recv_base = nullptr;
  std::vector<std::int64_t> rdispls;
  int code = MPI_SUCCESS;
};

void prepare(const Call& c, const Local& l, MPI_Comm comm, std::size_t me, Prepared& pre);

// Runs the entry's plan: every rank calls it together. `pre`: the buffers prepared before the
// call's agreement (which carried their failures), or null: then they are prepared here and a
// failure is agreed on first, so that no rank waits for one that stopped. Returns MPI_SUCCESS or
// an error code that every rank returns (a failed MPI call inside the walk is agreed on by
// run_transfers).
int run_plan(CommState& st, const Entry& e, const Call& c, const Local& l, Prepared* pre);

}  // namespace redist::mpi::dropin
