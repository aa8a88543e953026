#include "redist/mpi/baselines.hpp"

#include <algorithm>
#include <climits>
#include <cstdlib>
#include <cstring>
#include <functional>

#include <fmt/format.h>

#include "redist/mpi/notices.hpp"

namespace redist::mpi {

namespace {

constexpr int kTagLauRight = 7311;  // items moving to succ
constexpr int kTagLauLeft = 7312;   // items moving to pred

// Thrown inside the single-send exchange when this rank stops: a call failed or a neighbour did.
struct Stopped {};

// Send and receive counts and displacements (bytes) of the Alltoallv: rank `me` sends to j the
// overlap of its old range with j's new range.
struct AlltoallvCounts {
  std::vector<int> scount, sdispl, rcount, rdispl;
};

AlltoallvCounts alltoallv_counts(const ring::Instance& in, std::size_t me, std::int64_t B) {
  const std::size_t n = in.loads.size();
  std::vector<std::int64_t> old_start(n + 1, 0), new_start(n + 1, 0);
  for (std::size_t i = 0; i < n; ++i) {
    old_start[i + 1] = old_start[i] + in.loads[i];
    new_start[i + 1] = new_start[i] + in.targets[i];
  }
  AlltoallvCounts c{std::vector<int>(n, 0), std::vector<int>(n, 0), std::vector<int>(n, 0),
                    std::vector<int>(n, 0)};
  for (std::size_t j = 0; j < n; ++j) {
    std::int64_t a = std::max(old_start[me], new_start[j]);
    std::int64_t b = std::min(old_start[me + 1], new_start[j + 1]);
    if (b > a) {
      c.scount[j] = static_cast<int>((b - a) * B);
      c.sdispl[j] = static_cast<int>((a - old_start[me]) * B);
    }
    a = std::max(old_start[j], new_start[me]);
    b = std::min(old_start[j + 1], new_start[me + 1]);
    if (b > a) {
      c.rcount[j] = static_cast<int>((b - a) * B);
      c.rdispl[j] = static_cast<int>((a - new_start[me]) * B);
    }
  }
  return c;
}

// LAU's single-send schedule on this rank: one message per stream, with the failure notices
// and agreement of notices.hpp. Requests: the notices' two, the receives, the sends.
class SingleSend {
 public:
  SingleSend(MPI_Comm comm, const Redistribution& r, void* data, std::int64_t item_bytes);
  std::size_t run();  // the bytes of its message buffers

 private:
  bool exchange(const StepNotices& notices);
  void post_receive(int f);
  void send(int f);
  void wait_for(const MPI_Request& q, const StepNotices& notices);
  void settle(const StepNotices& notices);
  void place();

  MPI_Comm comm_;
  const LocalPlan& lp_;
  std::byte* base_;
  std::int64_t B_;
  int peer_in_[2], peer_out_[2];
  CallLog log_;
  std::vector<std::byte> in_buf_[2], out_buf_[2];
  bool posted_[2] = {false, false};
  std::vector<std::int64_t> sent_[2] = {{0}, {0}};
  MPI_Request reqs_[6] = {MPI_REQUEST_NULL, MPI_REQUEST_NULL, MPI_REQUEST_NULL,
                          MPI_REQUEST_NULL, MPI_REQUEST_NULL, MPI_REQUEST_NULL};
  MPI_Request* const recv_ = reqs_ + 2;
  MPI_Request* const send_ = reqs_ + 4;
  static constexpr Side kSides[2] = {Side::right, Side::left};
  static constexpr int kTags[2] = {kTagLauRight, kTagLauLeft};
};

SingleSend::SingleSend(MPI_Comm comm, const Redistribution& r, void* data, std::int64_t item_bytes)
    : comm_(comm),
      lp_(r.local()),
      base_(static_cast<std::byte*>(data)),
      B_(item_bytes),
      peer_in_{(r.rank() + r.size() - 1) % r.size(), (r.rank() + 1) % r.size()},
      peer_out_{(r.rank() + 1) % r.size(), (r.rank() + r.size() - 1) % r.size()},
      log_("linear", r.rank()) {
  for (int f = 0; f < 2; ++f) {
    const Stream& s = lp_.stream(kSides[f]);
    in_buf_[f].resize(static_cast<std::size_t>(s.in * B_));
    out_buf_[f].resize(static_cast<std::size_t>(s.out * B_));
  }
}

std::size_t SingleSend::run() {
  StepNotices notices(comm_, log_, {peer_in_[0], peer_in_[1]}, {peer_out_[0], peer_out_[1]}, {1, 1},
                      reqs_);
  if (exchange(notices)) {
    notices.finish();
  } else {
    notices.stop({sent_[0], sent_[1]});
  }
  const Agreement agreed = agree(comm_, log_);
  if (agreed.failed) {
    notices.exchange({sent_[0], sent_[1]});
    settle(notices);
    throw Error("redist::mpi: " + agreed.message);
  }
  place();
  std::size_t bytes = 0;
  for (int f = 0; f < 2; ++f) bytes += in_buf_[f].size() + out_buf_[f].size();
  return bytes;
}

// Senders of their own items only ("green") send at once; a forwarder ("red") waits for its whole
// incoming message first. With net flows a forwarder has one incoming stream.
bool SingleSend::exchange(const StepNotices& notices) {
  if (log_.failed()) return false;
  try {
    for (int f = 0; f < 2; ++f) post_receive(f);
    for (int f = 0; f < 2; ++f) {
      const Stream& s = lp_.stream(kSides[f]);
      if (s.out > 0 && s.fwd == 0) send(f);
    }
    for (int f = 0; f < 2; ++f) {
      const Stream& s = lp_.stream(kSides[f]);
      if (s.out > 0 && s.fwd > 0) {
        wait_for(recv_[f], notices);
        send(f);
      }
    }
    for (int f = 0; f < 2; ++f) wait_for(recv_[f], notices);
    for (int f = 0; f < 2; ++f) wait_for(send_[f], notices);
  } catch (const Stopped&) {
    return false;
  }
  return true;
}

void SingleSend::post_receive(int f) {
  const Stream& s = lp_.stream(kSides[f]);
  if (s.in == 0) return;
  if (!log_.check("MPI_Irecv", [&] {
        return MPI_Irecv(in_buf_[f].data(), static_cast<int>(s.in * B_), MPI_BYTE, peer_in_[f],
                         kTags[f], comm_, &recv_[f]);
      })) {
    throw Stopped{};
  }
  posted_[f] = true;
}

// One message per stream, items in increasing global order (position_in_segment over [0, out)).
void SingleSend::send(int f) {
  const Side side = kSides[f];
  const Stream& s = lp_.stream(side);
  for (std::int64_t k = 0; k < s.out; ++k) {
    const std::byte* src =
        k < s.own_out ? base_ + lp_.own_offset(side, k) * B_
                      : in_buf_[f].data() + position_in_segment(side, 0, s.in, k - s.own_out) * B_;
    std::memcpy(out_buf_[f].data() + position_in_segment(side, 0, s.out, k) * B_, src,
                static_cast<std::size_t>(B_));
  }
  if (!log_.check("MPI_Isend", [&] {
        return MPI_Isend(out_buf_[f].data(), static_cast<int>(s.out * B_), MPI_BYTE, peer_out_[f],
                         kTags[f], comm_, &send_[f]);
      })) {
    throw Stopped{};
  }
  sent_[f][0] = 1;
}

// Waits until `q` completes, with every other request (a neighbour's stopped notice stops it).
void SingleSend::wait_for(const MPI_Request& q, const StepNotices& notices) {
  while (q != MPI_REQUEST_NULL) {
    int outcount = 0, indices[6];
    if (!log_.check("MPI_Waitsome", [&] {
          return MPI_Waitsome(6, reqs_, &outcount, indices, MPI_STATUSES_IGNORE);
        })) {
      throw Stopped{};
    }
    if (notices.neighbour_stopped()) throw Stopped{};
  }
}

// After a failed step: the receives are settled against what the neighbours say they sent, then
// the sends complete.
void SingleSend::settle(const StepNotices& notices) {
  for (int f = 0; f < 2; ++f) {
    const bool sent = notices.upstream_sent(f)[0] != 0;
    if (recv_[f] != MPI_REQUEST_NULL) {
      if (!sent) log_.check("MPI_Cancel", [&] { return MPI_Cancel(&recv_[f]); });
      log_.check("MPI_Wait", [&] { return MPI_Wait(&recv_[f], MPI_STATUS_IGNORE); });
    } else if (sent && !posted_[f]) {
      log_.check("MPI_Recv", [&] {
        return MPI_Recv(in_buf_[f].data(), static_cast<int>(in_buf_[f].size()), MPI_BYTE,
                        peer_in_[f], kTags[f], comm_, MPI_STATUS_IGNORE);
      });
    }
  }
  log_.check("MPI_Waitall", [&] { return MPI_Waitall(2, send_, MPI_STATUSES_IGNORE); });
}

// Every own outgoing item is in a send buffer: move the kept items, then place received ones.
void SingleSend::place() {
  if (lp_.kept > 0 && lp_.kept_from != lp_.kept_to) {
    std::memmove(base_ + lp_.kept_to * B_, base_ + lp_.kept_from * B_,
                 static_cast<std::size_t>(lp_.kept * B_));
  }
  for (int f = 0; f < 2; ++f) {
    const Side side = kSides[f];
    const Stream& s = lp_.stream(side);
    for (std::int64_t k = s.fwd; k < s.in; ++k) {
      std::memcpy(base_ + lp_.placed_offset(side, k) * B_,
                  in_buf_[f].data() + position_in_segment(side, 0, s.in, k) * B_,
                  static_cast<std::size_t>(B_));
    }
  }
}

}  // namespace

std::size_t alltoallv_execute(MPI_Comm comm, const Redistribution& r, void* data,
                              std::size_t item_bytes) {
  if (r.size() < 2) return 0;
  const ring::Instance& in = r.instance();
  const std::int64_t B = static_cast<std::int64_t>(item_bytes);
  std::int64_t total = 0;
  for (std::int64_t l : in.loads) total += l;
  // Counts and displacements are ints (bytes): decided from gathered data, same on every rank.
  if (B <= 0 || total > INT_MAX / B) {
    throw Error(fmt::format("redist::mpi: alltoallv: {} items of {} bytes exceed int byte counts",
                            total, B));
  }
  const std::size_t me = static_cast<std::size_t>(r.rank());
  const AlltoallvCounts c = alltoallv_counts(in, me, B);
  std::vector<std::byte> recv(static_cast<std::size_t>(in.targets[me] * B));
  std::byte dummy{};
  CallLog log("alltoallv", r.rank());
  log.check("MPI_Alltoallv", [&] {
    return MPI_Alltoallv(data != nullptr ? data : &dummy, c.scount.data(), c.sdispl.data(),
                         MPI_BYTE, recv.empty() ? &dummy : recv.data(), c.rcount.data(),
                         c.rdispl.data(), MPI_BYTE, comm);
  });
  agree_or_throw(comm, log);
  if (!recv.empty()) std::memcpy(data, recv.data(), recv.size());
  return recv.size();
}

std::size_t lau_linear_execute(MPI_Comm comm, const Redistribution& r, void* data,
                               std::size_t item_bytes) {
  if (r.size() < 2) return 0;
  const std::int64_t B = static_cast<std::int64_t>(item_bytes);
  std::int64_t max_flow = 0;
  for (std::int64_t f : r.plan().flows) max_flow = std::max(max_flow, std::abs(f));
  if (B <= 0 || max_flow > INT_MAX / B) {
    throw Error(
        fmt::format("redist::mpi: linear: a message of {} items of {} bytes exceeds 2^31-1 bytes",
                    max_flow, B));
  }
  return SingleSend(comm, r, data, B).run();
}

double lau_single_send_makespan(const ring::Instance& instance,
                                const std::vector<std::int64_t>& flows) {
  const std::int64_t n = static_cast<std::int64_t>(flows.size());
  std::vector<double> finish(static_cast<std::size_t>(n), -1.0);
  // finish(i): end of the message over link i (between i and i+1), or 0 without a message.
  std::function<double(std::int64_t, std::int64_t)> end = [&](std::int64_t i,
                                                              std::int64_t depth) -> double {
    const std::size_t u = static_cast<std::size_t>(i);
    if (flows[u] == 0) return 0.0;
    if (finish[u] >= 0) return finish[u];
    if (depth > n) return 0.0;  // cannot happen with some flow 0 (no forwarding cycle)
    const bool right = flows[u] > 0;
    const std::int64_t sender = right ? i : (i + 1) % n;
    const Side side = right ? Side::right : Side::left;
    const double cost =
        right ? instance.cost_next[u] : instance.cost_prev[static_cast<std::size_t>(sender)];
    const LocalPlan lp = make_local_plan(instance, flows, sender);
    double start = 0.0;
    if (lp.stream(side).fwd > 0) start = end(right ? (i + n - 1) % n : (i + 1) % n, depth + 1);
    finish[u] = start + static_cast<double>(std::abs(flows[u])) * cost;
    return finish[u];
  };
  double makespan = 0.0;
  for (std::int64_t i = 0; i < n; ++i) makespan = std::max(makespan, end(i, 0));
  return makespan;
}

}  // namespace redist::mpi
