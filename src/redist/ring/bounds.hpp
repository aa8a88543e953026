// Lower bounds on the redistribution time of a ring (RRV04 Lemmas 1, 6, 12, Theorem 2, System 6).
#pragma once

#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "redist/common/checked.hpp"
#include "redist/ring/model.hpp"

namespace redist::ring {

// RRV04 §3.1 Lemma 1 (homogeneous unidirectional): max over slices |delta_{k,l}| * c. O(n).
double lemma1_bound(const Instance& instance);

// RRV04 §4 Theorem 2, corrected (docs/ring-algorithms.md): max over slices with positive imbalance
// of imbalance * cost of the slice's outgoing link (unidirectional rings). O(n).
double theorem2_bound(const Instance& instance);

// RRV04 §5.1 Lemma 6 (homogeneous bidirectional):
// max(max_i |delta_i|, max over non-trivial slices ceil(|delta_{k,l}| / 2)) * c. O(n).
double lemma6_bound(const Instance& instance);

// The rings on which Lemma 12 is computed, by `redist ring bound` and by every plan: its O(n^2)
// pass over the slices takes about 0.013 s at this size and 0.3 s at 10^4 processors. Beyond,
// the term is skipped with a note (lemma12_skipped_note): System 6 is never below it, so the lower
// bound is the same either way.
inline constexpr std::size_t kLemma12MaxProcessors = 2'000;

// RRV04 §6.2.1 Lemma 12 (heterogeneous bidirectional). O(n^2) over the slices, each slice's
// inner minimum in O(1) (and skipped when slice * min(costs), an upper bound on it, cannot beat
// the largest term so far); std::nullopt when n exceeds `max_n` (not computed, never truncated).
std::optional<double> lemma12_bound(const Instance& instance,
                                    std::size_t max_n = kLemma12MaxProcessors);

// The integer optimum of RRV04 System 6: the least tau such that some integer flows meet every
// processor's one-port send and receive time <= tau. Every schedule induces such flows, so it is
// a lower bound for every schedule, on any ring (a unidirectional ring allows only flows >= 0).
//
// All flows are fixed by x = flows[n-1] (Lemma 10): flows[i] = x + prefix[i]; every constraint is
// convex piecewise-linear in x with breakpoints only at x = -prefix[i], so tau(x) is convex. A
// binary search over the sorted breakpoints finds the segment holding the minimum; on it every
// constraint is a line, and the minimum of their upper envelope (lines sorted by slope) gives the
// real minimiser, whose floor or ceiling is the integer optimum. Each tau(x) takes O(n): a pass in
// double finds the few processors that can hold the maximum, which are evaluated in long double.
// Complexity: O(n log n), independent of the item counts.
struct System6Solution {
  double tau = 0.0;
  std::vector<std::int64_t> flows;
};
System6Solution system6_integer_optimum(const Instance& instance);

// tau(x) of System 6 for given flows: max over processors of send and receive times.
double system6_time(const Instance& instance, const std::vector<std::int64_t>& flows);

namespace detail {

// tau(x) of System 6 for flows[i] = x + prefix[i], in long double (exact for counts < 2^64), for
// one instance and any number of x: the value system6_time gives for those flows. Each evaluation
// is O(n): a pass in double finds the few processors that can hold the maximum, which are then
// evaluated in long double. `instance` and `prefix` must outlive the evaluator.
class System6Tau {
 public:
  System6Tau(const Instance& instance, const std::vector<std::int64_t>& prefix);
  long double operator()(Int128 x);

 private:
  // Fills port_ with every processor's port time in double; returns the largest.
  template <bool kBidirectional>
  double approximate_port_times(double x);

  const Instance& in_;
  const std::vector<std::int64_t>& prefix_;
  bool exact_doubles_ = false;  // every prefix within 2^53
  std::vector<double> prefix_double_;
  std::vector<double> port_;
};

}  // namespace detail

// Why Lemma 12 was skipped on a ring of n processors: the note of `redist ring bound` and of the
// plans.
std::string lemma12_skipped_note(std::size_t n, std::size_t max_n = kLemma12MaxProcessors);

struct BoundReport {
  double lower_bound = 0.0;
  // Every bound applicable to the instance's case, in a fixed order; a term's value is
  // std::nullopt when it was skipped (see lemma12_bound), and `notes` then say which and why.
  std::vector<BoundTerm> terms;
  std::vector<std::string> notes;
};

// Every bound the papers give for the instance's case, plus System 6; lower_bound is the max.
// Lemma 12 is skipped on rings of more than `lemma12_max_n` processors. InputError for an invalid
// instance or one whose times might not be finite.
BoundReport bounds(const Instance& instance, std::size_t lemma12_max_n = kLemma12MaxProcessors);

}  // namespace redist::ring
