// What an executor that follows each port's order of a plan reaches on the model, when it does
// not hold crossing pieces back (docs/exchange.md, "auto under a backbone").
//
// The MPI executor (redist/mpi/exchange.hpp) sends a rank's pieces one after the other in the
// plan's order (start time, then index) and receives them likewise, with no clock: a piece starts
// as soon as it heads its sender's and its receiver's lists and both ports are free. Without a
// backbone that is the plan itself, or earlier. Under a backbone, a plan may keep a crossing piece
// waiting on free ports until a transfer frees (whole and busiest-first do); the executor starts
// it at once, and while c > transfers (k) pieces cross, the backbone shares itself: each
// progresses at k / c of its rate (as all-at-once models MPI_Alltoallv). This function plays that:
// its makespan is what the executor's run of the plan takes on the model.
// An evaluation, not a plan: it claims no bound. Without a backbone it is at most the plan's
// makespan (by induction over the order, every piece starts no later than planned).
// Complexity: O(P log P) for P pieces: the crossing pieces progress on one shared service clock
// (all at the same rate), so each start and end is one heap operation.
#pragma once

#include "redist/exchange/model.hpp"

namespace redist::exchange {

// The makespan of the plan's pieces run in each port's order, as soon as their ports are free,
// the backbone shared by the crossing ones. 0 for a plan without pieces. The plan must be valid
// for the instance (its pieces' ends are nodes of it).
double ordered_execution_makespan(const Instance& instance, const Plan& plan);

}  // namespace redist::exchange
