// Baselines that redist is compared with (docs/mpi.md, "Comparison"): a direct MPI_Alltoallv from
// the old to the new block distribution, and LAU's Linear schedule executed in order.
//
// Both move an ordered 1-D block distribution to the new counts *without rotation*: rank i ends
// with the global items [T_0 + ... + T_{i-1}, ... + T_i), i.e. the final layout of a
// Redistribution in Mode::linear, whose gathered instance, flows and LocalPlan they reuse (so
// input errors are the same collective errors as there).
//
// alltoallv_execute: one MPI_Alltoallv of MPI_BYTE; rank i sends to rank j the overlap of its old
// range with j's new range. It needs a receive buffer of new_count items (not in place).
//
// lau_linear_execute: LAU's Linear flows (flows[n-1] = 0, the prefix imbalances) executed as
// LAU's "single-send" schedule: every link carries ONE message with all of its |flow| items; a
// rank whose outgoing items are all its own sends at once, a rank that must forward items
// first receives its (single) incoming message completely, then sends. Items leave in the order
// discipline of LocalPlan (to succ from the right end, to pred from the left end, own items
// first), so the result is ordered. Buffers: one message per stream (|flow| items), not bounded.
//
// Both are collective over `comm`, which must be the communicator `r` was built on (they use its
// ranks), and throw Error (identically on every rank, decided from gathered data) when a message
// would exceed 2^31-1 bytes. They run on `comm` itself, under its error handler: when that
// handler returns, a failed call is agreed on like the library's (communicator.hpp) and every rank
// throws the same Error; lau_linear_execute sends failure notices as execute does (notices.hpp).
// Complexity: O(n + items moved) copies.
#pragma once

#include <mpi.h>

#include <cstddef>
#include <cstdint>
#include <vector>

#include "redist/mpi/redistribution.hpp"

namespace redist::mpi {

// `r` must be in Mode::linear. Returns the bytes of temporary buffers allocated.
std::size_t alltoallv_execute(MPI_Comm comm, const Redistribution& r, void* data,
                              std::size_t item_bytes);
std::size_t lau_linear_execute(MPI_Comm comm, const Redistribution& r, void* data,
                               std::size_t item_bytes);

// Makespan of lau_linear_execute's schedule in the cost model, all-port (a rank may send to both
// neighbours at once, as on the SMPI platforms): the message over link i starts at 0 if its
// sender holds all its items, else when the sender's incoming message has arrived, and lasts
// |flows[i]| * cost of the link. MPI-free. Complexity O(n^2) (one LocalPlan per sender).
double lau_single_send_makespan(const ring::Instance& instance,
                                const std::vector<std::int64_t>& flows);

}  // namespace redist::mpi
