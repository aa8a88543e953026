// STAR §3.4.1, Algorithm 2: Moore's algorithm for 1 || sum U_j (Moore 1968; Brucker's book).
//
// Jobs are taken by non-decreasing deadline; each is appended to the current sequence, and when it
// ends after its deadline the job of largest processing time in the sequence is removed.
// `start` is when the machine becomes available (MBBSA: the first task's arrival at the master).
//
// Guarantee: the returned jobs (in deadline order) all meet their deadlines and are as many as
// possible. With `stop_at` > 0 the scan stops as soon as that many jobs are on time (the count of
// on-time jobs never decreases during the scan, so it is reached iff the maximum reaches it).
// Complexity: O(n log n) time, O(n) memory.
#pragma once

#include <cstddef>
#include <vector>

namespace redist::star {

struct MooreJob {
  double processing = 0;
  double deadline = 0;
};

// Indices of the on-time jobs, in the order they are executed. Jobs must be given sorted by
// non-decreasing deadline. `strict`: a job must end strictly before its deadline.
std::vector<std::size_t> moore_hodgson(const std::vector<MooreJob>& jobs_by_deadline, double start,
                                       std::size_t stop_at = 0, bool strict = false);

}  // namespace redist::star
