#include "redist/mpi/notices.hpp"

namespace redist::mpi {

namespace {

// Below the group tags of an execute (redistribution.cpp); one per side.
constexpr int kNoticeTag = 7390;

}  // namespace

StepNotices::StepNotices(MPI_Comm comm, CallLog& log, std::array<int, 2> upstream,
                         std::array<int, 2> downstream, std::array<std::size_t, 2> in_groups,
                         MPI_Request* slots)
    : comm_(comm), log_(log), upstream_(upstream), downstream_(downstream), slots_(slots) {
  for (int f = 0; f < 2; ++f) {
    received_[f].assign(in_groups[f] + 1, 0);
    slots_[f] = MPI_REQUEST_NULL;
    posted_[f] = log_.check("MPI_Irecv", [&] {
      return MPI_Irecv(received_[f].data(), static_cast<int>(received_[f].size()), MPI_INT64_T,
                       upstream_[f], kNoticeTag + f, comm_, &slots_[f]);
    });
  }
}

bool StepNotices::neighbour_stopped() const {
  for (int f = 0; f < 2; ++f) {
    if (posted_[f] && slots_[f] == MPI_REQUEST_NULL) return true;
  }
  return false;
}

void StepNotices::stop(const Counts& sent) { send(true, sent); }

void StepNotices::finish() {
  for (int f = 0; f < 2; ++f) {
    if (!posted_[f]) continue;
    if (slots_[f] == MPI_REQUEST_NULL) {  // it came while the loop ran
      taken_[f] = true;
      continue;
    }
    MPI_Status status;
    int cancelled = 0;
    log_.check("MPI_Cancel", [&] { return MPI_Cancel(&slots_[f]); });
    log_.check("MPI_Wait", [&] { return MPI_Wait(&slots_[f], &status); });
    log_.check("MPI_Test_cancelled", [&] { return MPI_Test_cancelled(&status, &cancelled); });
    taken_[f] = !cancelled;
    posted_[f] = false;
  }
}

void StepNotices::exchange(const Counts& sent) {
  send(false, sent);
  // Every rank takes its two notices now: a notice that could not be started gets a second try
  // (a neighbour that waited for it in its loop stays waiting if the first try failed: the one
  // failure this does not survive).
  start_sends();
  for (int f = 0; f < 2; ++f) {
    if (taken_[f]) continue;
    if (posted_[f]) {
      log_.check("MPI_Wait", [&] { return MPI_Wait(&slots_[f], MPI_STATUS_IGNORE); });
    } else {  // never posted, or cancelled: the notice is still to be taken
      log_.check("MPI_Recv", [&] {
        return MPI_Recv(received_[f].data(), static_cast<int>(received_[f].size()), MPI_INT64_T,
                        upstream_[f], kNoticeTag + f, comm_, MPI_STATUS_IGNORE);
      });
    }
    taken_[f] = true;
  }
  log_.check("MPI_Waitall", [&] { return MPI_Waitall(2, sends_, MPI_STATUSES_IGNORE); });
}

std::vector<std::int64_t> StepNotices::upstream_sent(int f) const {
  return {received_[f].begin() + 1, received_[f].end()};
}

void StepNotices::send(bool stopped, const Counts& sent) {
  if (sent_) return;
  sent_ = true;
  for (int f = 0; f < 2; ++f) {
    outgoing_[f].assign(1, stopped ? 1 : 0);  // kept alive until the sends complete (exchange)
    outgoing_[f].insert(outgoing_[f].end(), sent[f].begin(), sent[f].end());
  }
  start_sends();
}

void StepNotices::start_sends() {
  for (int f = 0; f < 2; ++f) {
    if (started_[f]) continue;
    started_[f] = log_.check("MPI_Isend", [&] {
      return MPI_Isend(outgoing_[f].data(), static_cast<int>(outgoing_[f].size()), MPI_INT64_T,
                       downstream_[f], kNoticeTag + f, comm_, &sends_[f]);
    });
  }
}

}  // namespace redist::mpi
