#include "redist/star/moore.hpp"

#include <queue>
#include <utility>

namespace redist::star {

std::vector<std::size_t> moore_hodgson(const std::vector<MooreJob>& jobs, double start,
                                       std::size_t stop_at, bool strict) {
  std::vector<char> in_sequence(jobs.size(), 0);
  std::priority_queue<std::pair<double, std::size_t>> longest;  // (processing, index)
  double t = start;
  std::size_t on_time = 0;
  std::size_t scanned = 0;
  for (; scanned < jobs.size(); ++scanned) {
    const MooreJob& job = jobs[scanned];
    in_sequence[scanned] = 1;
    longest.emplace(job.processing, scanned);
    t += job.processing;
    ++on_time;
    const bool late = strict ? t >= job.deadline : t > job.deadline;
    if (late) {
      const std::size_t removed = longest.top().second;
      longest.pop();
      in_sequence[removed] = 0;
      t -= jobs[removed].processing;
      --on_time;
    }
    if (stop_at > 0 && on_time >= stop_at) {
      ++scanned;
      break;
    }
  }
  std::vector<std::size_t> chosen;
  chosen.reserve(on_time);
  for (std::size_t k = 0; k < scanned; ++k) {
    if (in_sequence[k]) chosen.push_back(k);
  }
  return chosen;
}

}  // namespace redist::star
