// STAR §3.4.1, Algorithm 2: Moore's algorithm for 1 || sum U_j (Moore 1968; Brucker's book).
//
// Jobs are taken by non-decreasing deadline; each is appended to the current sequence, and when it
// ends after its deadline the job of largest processing time in the sequence is removed.
// `start` is when the machine becomes available (MBBSA: the first task's arrival at the master).
//
// Guarantee: the returned jobs (in deadline order) all meet their deadlines and are as many as
// possible among the jobs added. The count of on-time jobs never decreases as jobs are added, so
// a caller that only needs k on-time jobs may stop adding as soon as on_time() reaches k (the
// maximum reaches k iff the scan does), which MBBSA does with jobs generated lazily.
// Complexity: O(log k) per job added, k the number of distinct processing times; O(n) memory for
// n jobs added.
#pragma once

#include <cstddef>
#include <functional>
#include <map>
#include <vector>

namespace redist::star {

struct MooreJob {
  double processing = 0;
  double deadline = 0;
};

// Moore's scan, fed one job at a time in non-decreasing deadline order.
class MooreScan {
 public:
  // `strict`: a job must end strictly before its deadline.
  MooreScan(double start, bool strict) : time_(start), strict_(strict) {}
  void add(const MooreJob& job);
  std::size_t on_time() const { return on_time_; }
  // Indices (in the order added) of the on-time jobs.
  std::vector<std::size_t> chosen() const;

 private:
  double time_;
  bool strict_;
  std::size_t on_time_ = 0;
  std::vector<char> in_sequence_;
  std::vector<double> processing_;
  // The jobs in the sequence by processing time, largest first; within a time, by index (the
  // last one is the largest index, the one removed first). Few distinct processing times (one
  // per receiver in MBBSA) make this far cheaper than a heap over the jobs.
  std::map<double, std::vector<std::size_t>, std::greater<double>> longest_;
};

// Indices of the on-time jobs, in the order they are executed. Jobs must be given sorted by
// non-decreasing deadline. With `stop_at` > 0 the scan stops once that many jobs are on time.
std::vector<std::size_t> moore_hodgson(const std::vector<MooreJob>& jobs_by_deadline, double start,
                                       std::size_t stop_at = 0, bool strict = false);

}  // namespace redist::star
