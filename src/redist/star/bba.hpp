// STAR §3.3, Algorithm 1: the Best-Balance Algorithm (BBA).
//
// Reading of the damaged Algorithm 1 (its line structure was lost in the copy), from the sketch of
// §3.3.2: in each iteration the sender is a worker with the largest finish time end_k (ties: lower
// index); it sends one task to the master from master_in on (the master receives one task at a
// time), the master forwards it from B = max(master_in + c[sender], master_out); the receiver is
// the worker minimising ~end_k = max(end_k, B + c[k]) + w[k] (ties: smallest end_k, then lower
// index). If end_sender <= ~end_receiver the makespan cannot improve and BBA stops; otherwise the
// task moves, end_sender -= w[sender], end_receiver = ~end_receiver.
// On heterogeneous platforms (where BBA is a heuristic, §3.5) a worker never both sends and
// receives: a worker that has received is no longer a sender candidate and one that has sent is
// no longer a receiver candidate (on homogeneous platforms BBA never does so anyway, Lemma 7).
// This keeps every task sent an own, never started task.
//
// Guarantee (Proposition 1): optimal when all c and all w are equal; tests compare with `exact`.
// Complexity: O((m + n) log m) time, O(m + n) memory, n the number of tasks moved: the sender is a
// max-heap; receivers are split into "busy" (end_k >= B + c_k, value end_k + w_k) and "idle"
// (value B + c_k + w_k) heaps, and since B only grows a busy worker turns idle when B passes
// end_k - c_k (a third heap), until it receives again.
#pragma once

#include "redist/star/model.hpp"

namespace redist::star {

Schedule plan_bba(const Instance& instance);

}  // namespace redist::star
