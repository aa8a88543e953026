// `exact`: a proven optimum for tiny one-port instances with a start-up cost, by exhaustive search
// over the structure of a schedule and one linear program per structure (docs/exchange.md).
//
// Without latency, `preemptive` is optimal (it meets the ports bound) and `exact` returns its plan.
// With latency beta > 0, a schedule is fixed, up to the sizes and start times of its pieces, by
// its structure: how many pieces each message is cut into, and in which order each port carries
// its pieces. (The pieces of one message keep the same order on its sender's and its receiver's
// port, since a piece occupies both at once.) For a given structure, the shortest schedule is a
// linear program: piece sizes f (a fraction of the message, >= 0, summing to 1 per message), start
// times s, and the makespan T; consecutive pieces u, v on a port satisfy
// s_v >= s_u + beta + f_u d_u, and T >= s_u + beta + f_u d_u for every piece, with d_u the
// message's whole transfer time. The search enumerates every structure that could beat the best
// plan found so far (the better of `preemptive` and `whole` to begin with): a port whose messages
// are cut into c pieces in all is busy at least c beta + the sum of their transfer times, so only
// (incumbent - that load) / beta extra pieces per port are worth trying. Structures whose port
// orders form a cycle are infeasible and skipped.
//
// Guarantee: the plan returned is optimal over every plan the family allows (within the linear
// programming tolerance, 1e-7 relative), Proof::search; its lower_bound is its makespan.
// Applies to instances without a backbone, with at most kMaxExactMessages messages and at most
// kMaxExactExtraPieces extra pieces worth trying for any message (its busier port's slack
// below the incumbent, over the latency); beyond, OptionError at "algorithm"
// before any search. The search stops as soon as its best plan meets the ports bound (proven
// optimal, with a note of the structures searched), and after kMaxExactStructures structures (each
// at most one linear program, a few seconds): then, as when a time limit passes, it returns the
// best plan found with the ports bound as lower_bound, optimal only if it meets that bound, and a
// note saying which limit stopped it.
// Complexity: exponential in the number of messages (product over ports of the multinomial number
// of orders, over every admissible cut), one small linear program (CLP) per structure.
#pragma once

#include <cstddef>

#include "redist/common/deadline.hpp"
#include "redist/exchange/model.hpp"

namespace redist::exchange {

inline constexpr std::size_t kMaxExactMessages = 8;
inline constexpr std::size_t kMaxExactExtraPieces = 6;
inline constexpr std::size_t kMaxExactStructures = 200'000;

// With a time limit that passes during the search (or its structure limit): the best plan found
// (never worse than the starting incumbent), the ports bound as lower_bound, not optimal unless it
// meets that bound, and a note.
Plan plan_exact(const Instance& instance, const Deadline& time_limit = Deadline());

}  // namespace redist::exchange
