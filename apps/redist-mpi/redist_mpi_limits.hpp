// The instance of redist-mpi (redist_mpi_main.cpp), read by rank 0 and broadcast, and the size
// limits on it and on the plan's footprint (docs/mpi.md, "Limits and extreme inputs"): every rank
// refuses the same run in the same way, before any item moves.
#pragma once

#include <mpi.h>

#include <cstddef>
#include <cstdint>

#include "apps/redist-mpi/redist_mpi_options.hpp"
#include "redist/mpi/redistribution.hpp"
#include "redist/ring/model.hpp"

namespace redist::mpi::driver {

// The driver's own MPI calls (the library checks its own). MPI_COMM_WORLD returns error codes
// (main): a failure here is this rank's alone (std::runtime_error), so main reports it and ends
// the job.
void check(int code, const char* call);

// Rank 0 reads and checks the document and broadcasts the instance (or its error): the other
// ranks never hold the text, and errors are identical everywhere.
redist::ring::Instance read_instance(const Args& a, int rank, int size);

// The item size of rank r (--bytes-on changes one rank's).
std::int64_t bytes_of(const Args& a, int r);

// Size limits on the instance: total items (planning and the model's schedule are item by item)
// and the item buffers of every rank. Identical on every rank.
void check_instance(const Args& a, const redist::ring::Instance& in);

// Limits on the plan's footprint on every rank (staging, messages, posted requests, LAU's
// message buffers, LAU's makespan), reduced so that every rank refuses the same way.
struct Footprint {
  std::int64_t messages = 0, requests = 0;  // largest over the ranks, all executions
};

Footprint check_footprint(const Args& a, const redist::mpi::Redistribution& r, int rank);

// --overlap-on: input and output ranges of one allocation that overlap but differ (in != out,
// which would mean in place). Byte offsets of in and out and the allocation's size; impossible
// when the rank has no old or no new item, or one item of one byte on both sides.
struct OverlapLayout {
  std::size_t in = 0, out = 0, size = 0;
};

OverlapLayout overlap_layout(std::int64_t load, std::int64_t target, std::int64_t b, int rank);

}  // namespace redist::mpi::driver
