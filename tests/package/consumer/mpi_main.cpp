// A program outside redist linked to redist::mpi from the installed package (tests/package/). It
// is not started by mpirun, so it calls no MPI function: it prints a name from the MPI-free part
// and keeps a reference to a collective function, so that the MPI part is linked as well.
#include <iostream>

#include "redist/mpi/local_plan.hpp"
#include "redist/mpi/redistribution.hpp"

int main() {
  // volatile: the compiler may not drop the reference, so the linker must resolve it.
  auto* volatile calibrate = &redist::mpi::calibrate_link_costs;
  if (calibrate == nullptr) {
    return 1;
  }
  std::cout << redist::mpi::to_string(redist::mpi::Mode::ring) << '\n';
  return 0;
}
