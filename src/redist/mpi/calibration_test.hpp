// For the tests only (not installed): the host name calibrate_platform reads on this process, so
// that one machine can play two clusters (calibrate_platform.hpp, clusters_by_host).
#pragma once

#include <string>

namespace redist::mpi::testing {

// From now on, calibrate_platform groups this process under `name` instead of what
// MPI_Get_processor_name gives; "" restores MPI's name.
void set_processor_name(std::string name);

}  // namespace redist::mpi::testing
