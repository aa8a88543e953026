// redist/mpi.hpp: redistributing real data across MPI ranks, rebalancing an iterative MPI
// application when it pays (RRV04's redistributions executed; RRV04 §8's application; docs/
// mpi.md), and MPI_Alltoallv with redist's schedules (the drop-in, docs/dropin.md): the whole MPI
// component in one header. Link with redist::mpi (CMake) or pkg-config redist-mpi.
//
// API (namespace redist::mpi), every call collective over the communicator unless marked local:
//   Redistribution(comm, old_count, new_count, costs, options)
//                        plans, on rank 0, the optimal ring redistribution of an ordered 1-D block
//                        distribution (ring planner `auto`) and broadcasts it
//     .execute(v)        moves a std::vector<T> (or raw bytes, in or out of place): rank i ends
//                        with its new block, items in global order (mod N), none lost
//   calibrate_link_costs(comm, item_bytes)
//                        measures each ring link's cost per item with ping-pongs
//   Rebalancer(comm, count, costs, policy, iterations)
//     .record(work, s)   local: this iteration's work and time (or start_ / end_iteration)
//     .maybe_rebalance(v) the policy decides on rank 0 (same answer on every rank); when it says
//                        so, v moves to the balanced targets; returns what happened
//     .decide() / .plan(d) / execute: the same in separate steps
//   Exchange(comm, instance, plan)
//                        any exchange plan (redist/exchange.hpp), checked identical on every rank
//     .execute(sendbuf, sendcounts, sdispls, recvbuf, recvcounts, rdispls)
//                        moves the instance's messages (byte layouts as MPI_Alltoallv's), one
//                        send and one receive at a time per rank in the plan's order
//   alltoallv_exchange / caterpillar_exchange
//                        the baselines on the same buffers (one MPI_Alltoallv; n steps of
//                        MPI_Sendrecv)
//   calibrate_platform(comm, options)
//                        measures the ranks' bandwidths and latency (and a backbone between two
//                        clusters of hosts) into the exchange planners' platform
// The drop-in (C functions, global namespace; redist/mpi/dropin.h, usable from C alone):
//   redist_alltoallv, redist_alltoall, redist_alltoallv_c, redist_alltoall_c
//                        MPI_Alltoallv and MPI_Alltoall (and their large-count forms) with the
//                        same signatures and results, run as a cached redist plan when one is
//                        predicted and measured faster, as the native call otherwise
//   redist_alltoallv_init / redist_start / redist_wait / redist_request_free
//                        the persistent form (MPI_Alltoallv_init)
//   redist_dropin_report(path)
//                        local: writes what the drop-in saw and chose (rank 0 of MPI_COMM_WORLD)
//   libredist-pmpi.so    the same for unmodified programs, through the profiling interface
//                        (LD_PRELOAD)
// Guarantees, limits and costs: redist/mpi/redistribution.hpp, redist/mpi/rebalancer.hpp,
// redist/mpi/exchange.hpp, redist/mpi/calibrate_platform.hpp and redist/mpi/dropin.h.
// Errors: redist::mpi::Error (a std::runtime_error), thrown with the same message on every rank:
// for bad input before any item moves, for a failed MPI call (whatever the error handler of the
// caller's communicator) at the end of the step (redist/mpi/communicator.hpp). The drop-in throws
// nothing: it returns MPI error codes through the communicator's error handler, as MPI's calls do.
//
// Example (each rank holds `count` doubles of a global sequence, blocks in rank order):
//   std::vector<double> block = ...;  // this rank's items
//   redist::mpi::Rebalancer rebalancer(MPI_COMM_WORLD, block.size(), {1e-8, 1e-8},
//                                      "cost-benefit", iterations);
//   for (int k = 1; k <= iterations; ++k) {
//     rebalancer.start_iteration();
//     compute(block);
//     rebalancer.end_iteration(static_cast<double>(block.size()));
//     const redist::mpi::RebalanceReport r = rebalancer.maybe_rebalance(block);
//   }
#pragma once

#include "redist/mpi/calibrate_platform.hpp"
#include "redist/mpi/dropin.h"
#include "redist/mpi/exchange.hpp"
#include "redist/mpi/rebalancer.hpp"
#include "redist/mpi/redistribution.hpp"
