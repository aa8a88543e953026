#include "redist/star/moore.hpp"

namespace redist::star {

void MooreScan::add(const MooreJob& job) {
  const std::size_t index = in_sequence_.size();
  in_sequence_.push_back(1);
  processing_.push_back(job.processing);
  longest_[job.processing].push_back(index);
  time_ += job.processing;
  ++on_time_;
  const bool late = strict_ ? time_ >= job.deadline : time_ > job.deadline;
  if (late) {
    const auto top = longest_.begin();
    const std::size_t removed = top->second.back();
    top->second.pop_back();
    if (top->second.empty()) longest_.erase(top);
    in_sequence_[removed] = 0;
    time_ -= processing_[removed];
    --on_time_;
  }
}

std::vector<std::size_t> MooreScan::chosen() const {
  std::vector<std::size_t> out;
  out.reserve(on_time_);
  for (std::size_t k = 0; k < in_sequence_.size(); ++k) {
    if (in_sequence_[k]) out.push_back(k);
  }
  return out;
}

std::vector<std::size_t> moore_hodgson(const std::vector<MooreJob>& jobs, double start,
                                       std::size_t stop_at, bool strict) {
  MooreScan scan(start, strict);
  for (const MooreJob& job : jobs) {
    scan.add(job);
    if (stop_at > 0 && scan.on_time() >= stop_at) break;
  }
  return scan.chosen();
}

}  // namespace redist::star
