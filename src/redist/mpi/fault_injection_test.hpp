// For the tests only (not installed): makes one of the library's MPI calls fail on this process,
// to check that a failure reaches every rank as the same Error and that no rank hangs
// (communicator.hpp; apps/redist-mpi/mpi_errors_test.cpp).
#pragma once

#include <cstdint>
#include <string>

namespace redist::mpi::testing {

// Arms one failure: the `occurrence`-th call (counted from 1, from now on) of the MPI function
// `name` ("MPI_Isend") that the library makes in this process reports MPI_ERR_OTHER. A
// nonblocking start (MPI_Isend, MPI_Irecv) is then not made; any other call is made first, so
// that collectives still match on every rank. Arming again replaces the armed failure.
void inject_failure(std::string name, std::int64_t occurrence = 1);
// Disarms a failure that has not happened yet.
void clear_failure();
// The failures injected in this process so far.
std::int64_t injected_failures();

}  // namespace redist::mpi::testing
