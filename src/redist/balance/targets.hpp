// Balanced targets of an iterative application (docs/balance.md; RRV04 §8 initialises its columns
// this way): the integer counts that make one iteration shortest for given processor speeds.
//
// balanced_targets(N, s) returns integers t_i >= 0 with sum t_i = N that minimise
// max_i t_i / s_i. Proportional rounding is not optimal (it may leave a slow processor one item
// too many); the exact minimiser is the apportionment by the divisor method of D'Hondt/Jefferson:
// hand the items out one at a time, each to the processor whose time after receiving it,
// (t_i + 1) / s_i, is smallest. Any prefix of that order is optimal for its size, so the first N
// items give an optimal distribution of N.
// Tie rule: equal times (t_i + 1) / s_i = (t_j + 1) / s_j go to the lower index first. The result
// is therefore unique and deterministic: the first N elements of the sequence of pairs
// (k / s_i, i), k >= 1, sorted by time then index.
// Comparisons of times are exact (k / s_i against l / s_j is decided on the exact products
// k * s_j and l * s_i, never rounded), so the result is exact for every double speed.
// Complexity: O(p log p + D log p), where D, the distance of the proportional guess
// floor(N s_i / sum s) from the answer, is below 2p whenever N * p < 2^50 and small otherwise.
#pragma once

#include <cstdint>
#include <vector>

namespace redist::balance {

// Throws InputError ("speeds") if speeds is empty or holds a speed that is not finite and > 0,
// and ("items") if items < 0.
std::vector<std::int64_t> balanced_targets(std::int64_t items, const std::vector<double>& speeds);

// max_i counts[i] / speeds[i]: the time of one iteration (docs/balance.md, T_t). 0 when all counts
// are 0. Precondition: same sizes, speeds > 0.
double iteration_time(const std::vector<std::int64_t>& counts, const std::vector<double>& speeds);
// The same for loads in work units: max_i loads[i] / speeds[i]; equal to the above for the loads
// static_cast<double>(counts[i]). Precondition: same sizes, speeds > 0.
double iteration_time(const std::vector<double>& loads, const std::vector<double>& speeds);

// The counts as loads in work units (policy.hpp's Step): static_cast<double> of each.
std::vector<double> as_loads(const std::vector<std::int64_t>& counts);

// N / sum_i speeds[i]: no distribution of N items makes an iteration shorter.
double balanced_time_bound(std::int64_t items, const std::vector<double>& speeds);

// Exact comparison of k / a with l / b for counts k, l >= 0 and finite a, b > 0: -1, 0 or 1.
int compare_ratios(std::int64_t k, double a, std::int64_t l, double b);

}  // namespace redist::balance
