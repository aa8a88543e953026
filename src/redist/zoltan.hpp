// redist/zoltan.hpp: an application balanced by Zoltan migrates its objects with redist
// (docs/zoltan.md). Link with redist::zoltan (built when Zoltan and MPI are found).
//
// API (namespace redist::zoltan), every call collective over the communicator:
//   Adapter(comm, zz)     the application's Zoltan handle and the communicator it was made with
//     .propose(options)   Zoltan_LB_Partition with the handle's method and callbacks; returns a
//                         Proposal: this rank's import and export lists, and, the same on every
//                         rank, the migration as an exchange::Instance (one message per pair of
//                         ranks, bytes as Zoltan_Migrate sends them) with each rank's objects and
//                         load before and after
//     .propose_lists(ids, imports, exports, options)
//                         the same for lists the caller made
//     .migrate(proposal, plan)
//                         moves the objects along an exchange plan of proposal.instance with
//                         redist::mpi::Exchange, through the handle's size, pack and unpack
//                         functions and its pre/mid/post migration functions, in Zoltan_Migrate's
//                         order; .migrate(proposal) plans with exchange::plan (`auto`)
//     .migrate_with_zoltan(proposal)
//                         Zoltan_Migrate on the same lists (the baseline)
// Guarantees, limits and costs: redist/zoltan/adapter.hpp and redist/zoltan/census.hpp.
// Errors: redist::mpi::Error with the same message on every rank (inconsistent lists, unknown
// global ids, negative sizes, ranks given different options, a failing callback).
//
// Example (zz set up as for Zoltan_LB_Partition and Zoltan_Migrate):
//   redist::zoltan::Adapter adapter(MPI_COMM_WORLD, zz);
//   const redist::zoltan::Proposal p = adapter.propose({.weight_dim = 1});
//   if (p.changes) adapter.migrate(p, redist::exchange::plan(p.instance));
#pragma once

#include "redist/exchange/planner.hpp"
#include "redist/zoltan/adapter.hpp"
