// STAR §3.2.1, Theorem 1: optimal redistribution order when computation is neglected.
//
// Given each worker's imbalance delta[i] (> 0: sends delta[i] tasks, < 0: receives -delta[i]),
// senders send back to back from time 0 in non-decreasing order of c (ties: lower index first),
// each all its tasks in a row; the master forwards the k-th task it receives to the receivers
// taken in non-INCREASING order of c (ties: lower index first), as soon as the task has arrived
// and the previous forward has ended. (The last sentence of the paper's proof says
// "non-decreasing": that is wrong and suboptimal, see docs/star.md.)
//
// Guarantee (Theorem 1): the last arrival is minimal over all schedules of the imbalance; tests
// compare with a brute force over every sender and receiver sequence. Makespan = last arrival.
// Complexity: O(m log m + n) for n = sum of the positive imbalances (one transfer per task).
#pragma once

#include <cstdint>
#include <vector>

#include "redist/star/model.hpp"

namespace redist::star {

struct OrderInstance {
  std::vector<double> c;
  std::vector<std::int64_t> delta;  // sums to 0
};

// One transfer is written per moved task: more than this many are refused up front.
inline constexpr std::int64_t kMaxOrderTransfers = 10000000;

// Throws InputError (path relative to the instance object) on sizes, c <= 0, a non-zero sum or
// an overflowing sum, more than kMaxOrderTransfers tasks to move, and times that would overflow
// a double (every time written is at most 2 sum_i |delta_i| c_i).
void validate_order_instance(const OrderInstance& instance);

// Transfers and makespan (= last arrival at a receiver); optimal by Proof::theorem, lower_bound =
// makespan; `finish` holds each worker's last arrival (0 if it receives nothing).
// STAR Theorem 1: the optimal order of the transfers when computation is neglected.
Schedule order(const OrderInstance& instance);

}  // namespace redist::star
