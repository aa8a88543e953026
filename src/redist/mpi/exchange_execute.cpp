// Exchange::execute (mpi/exchange.hpp): the walk over this rank's pieces with one send and one
// receive outstanding, the failure notices that wake a rank waiting for one that stopped, and the
// settling of the messages in flight after a failed step.
//
// A rank posts, from the step's start, one receive of a failure notice from any rank; it waits
// for its data requests and that receive together (MPI_Waitany). A rank that stops (its own call
// failed, or a notice came) sends no more pieces and sends every other rank a notice, so that a
// rank waiting for it wakes up and stops in turn. A rank that finishes its walk cancels its
// notice receive. Without a failure no notice is sent: the cost is one receive posted and
// cancelled. After the agreement (communicator.hpp) found a failure, every rank learns from every
// other (one MPI_Alltoall) how many pieces it sent it and whether it sent a notice; it waits for
// the receive that has its piece, cancels the one that has none, receives pieces it had no
// receive for into scratch, takes every notice sent to it and completes its own sends. No message
// of a failed step is left to be matched by a later one.
//
// The arrival callback runs in the walk right after MPI_Waitany returned the data receive, before
// the loop posts the next one. A callback that throws is logged as a failed call of this rank,
// which then stops as above.
#include <algorithm>
#include <cstring>
#include <exception>

#include <fmt/format.h>

#include "redist/mpi/exchange.hpp"

namespace redist::mpi {

namespace {

constexpr int kTagPiece = 7402;
constexpr int kTagNotice = 7403;

// Thrown inside the walk when this rank stops: a call failed (logged) or a notice came.
struct Stopped {};

using ArrivalCallback = Exchange::ArrivalCallback;
using Arrival = Exchange::Arrival;

// One execute's requests, its loop and its settling after a failure.
struct Run {
  Run(const Communicator& c, const RankTransfers& t, const void* sendbuf,
      std::span<const std::int64_t> sdispls, void* recvbuf, std::span<const std::int64_t> rdispls,
      const ArrivalCallback& on_arrival)
      : c(c),
        t(t),
        comm(c.get()),
        in(static_cast<const std::byte*>(sendbuf)),
        out(static_cast<std::byte*>(recvbuf)),
        sdispls(sdispls),
        rdispls(rdispls),
        on_arrival(on_arrival),
        log("execute", c.rank()),
        sent(static_cast<std::size_t>(c.size()), 0),
        posted(static_cast<std::size_t>(c.size()), 0) {}

  void run();

 private:
  enum : int { kNotice = 0, kSend = 1, kRecv = 2 };
  bool walk();
  void post_send();
  void post_receive();
  void report_arrival();
  void stop();
  void settle();
  void settle_pieces(const std::vector<std::int64_t>& words);
  void settle_notices(const std::vector<std::int64_t>& words);
  template <class Call>
  void start(const char* name, Call&& c) {
    if (!log.check(name, c)) throw Stopped{};
  }

  const Communicator& c;
  const RankTransfers& t;
  MPI_Comm comm;
  const std::byte* in;
  std::byte* out;
  std::span<const std::int64_t> sdispls, rdispls;
  const ArrivalCallback& on_arrival;
  CallLog log;
  MPI_Request reqs[3] = {MPI_REQUEST_NULL, MPI_REQUEST_NULL, MPI_REQUEST_NULL};
  std::int64_t notice_in = 0, notice_out = 1;
  bool notice_taken = false;  // the notice receive matched a notice
  std::size_t next_send = 0, next_recv = 0;
  std::vector<std::int64_t> sent, posted;  // per rank: pieces sent to it, receives posted from it
  std::vector<MPI_Request> notices;        // this rank's notices, once it stopped
};

void Run::run() {
  const bool finished = walk();
  if (finished) {
    if (reqs[kNotice] != MPI_REQUEST_NULL) {
      log.check("MPI_Cancel", [&] { return MPI_Cancel(&reqs[kNotice]); });
      MPI_Status status;
      log.check("MPI_Wait", [&] { return MPI_Wait(&reqs[kNotice], &status); });
      int cancelled = 1;
      log.check("MPI_Test_cancelled", [&] { return MPI_Test_cancelled(&status, &cancelled); });
      notice_taken = notice_taken || !cancelled;
    }
  } else {
    stop();
  }
  const Agreement agreed = agree(comm, log);
  if (agreed.failed) {
    settle();
    throw Error("redist::mpi: " + agreed.message);
  }
}

// The walk over this rank's pieces; false when it stopped.
bool Run::walk() {
  if (log.failed()) return false;
  try {
    start("MPI_Irecv", [&] {
      return MPI_Irecv(&notice_in, 1, MPI_INT64_T, MPI_ANY_SOURCE, kTagNotice, comm,
                       &reqs[kNotice]);
    });
    while (true) {
      if (reqs[kSend] == MPI_REQUEST_NULL && next_send < t.sends.size()) post_send();
      if (reqs[kRecv] == MPI_REQUEST_NULL && next_recv < t.recvs.size()) post_receive();
      if (reqs[kSend] == MPI_REQUEST_NULL && reqs[kRecv] == MPI_REQUEST_NULL) return true;
      int index = MPI_UNDEFINED;
      const bool ok =
          log.check("MPI_Waitany", [&] { return MPI_Waitany(3, reqs, &index, MPI_STATUS_IGNORE); });
      notice_taken = index == kNotice;  // a notice taken must not be waited for again
      if (!ok || notice_taken) throw Stopped{};
      if (index == kRecv) report_arrival();
    }
  } catch (const Stopped&) {
    return false;
  }
}

void Run::post_send() {
  const Transfer& s = t.sends[next_send];
  const std::byte* data = in + sdispls[static_cast<std::size_t>(s.peer)] + s.offset;
  start("MPI_Isend", [&] {
    return MPI_Isend(data, static_cast<int>(s.bytes), MPI_BYTE, s.peer, kTagPiece, comm,
                     &reqs[kSend]);
  });
  ++sent[static_cast<std::size_t>(s.peer)];
  ++next_send;
}

void Run::post_receive() {
  const Transfer& r = t.recvs[next_recv];
  std::byte* data = out + rdispls[static_cast<std::size_t>(r.peer)] + r.offset;
  start("MPI_Irecv", [&] {
    return MPI_Irecv(data, static_cast<int>(r.bytes), MPI_BYTE, r.peer, kTagPiece, comm,
                     &reqs[kRecv]);
  });
  ++posted[static_cast<std::size_t>(r.peer)];
  ++next_recv;
}

// The receive posted last completed: the callback sees its piece. A callback that throws is
// this rank's failure.
void Run::report_arrival() {
  if (!on_arrival) return;
  const Transfer& r = t.recvs[next_recv - 1];
  const Arrival arrival{r.peer, r.offset, r.bytes,
                        out + rdispls[static_cast<std::size_t>(r.peer)] + r.offset};
  try {
    on_arrival(arrival);
    return;
  } catch (const std::exception& e) {
    log.fail_call("the arrival callback", e.what());
  } catch (...) {
    log.fail_call("the arrival callback", "an exception not derived from std::exception");
  }
  throw Stopped{};
}

// This rank stopped: a notice to every other rank (completed in settle).
void Run::stop() {
  const int me = c.rank();
  for (int j = 0; j < c.size(); ++j) {
    if (j == me) continue;
    MPI_Request r = MPI_REQUEST_NULL;
    if (log.check("MPI_Isend", [&] {
          return MPI_Isend(&notice_out, 1, MPI_INT64_T, j, kTagNotice, comm, &r);
        })) {
      notices.push_back(r);
    }
  }
  notice_out = 2;  // marks that the notices were sent (words of settle)
}

// After the agreement found a failure: every rank learns what every other sent it.
void Run::settle() {
  const auto n = static_cast<std::size_t>(c.size());
  std::vector<std::int64_t> mine(2 * n), theirs(2 * n);
  for (std::size_t j = 0; j < n; ++j) {
    mine[2 * j] = sent[j];
    mine[2 * j + 1] = notice_out == 2 && j != static_cast<std::size_t>(c.rank());
  }
  if (!log.check("MPI_Alltoall", [&] {
        return MPI_Alltoall(mine.data(), 2, MPI_INT64_T, theirs.data(), 2, MPI_INT64_T, comm);
      })) {
    return;  // nothing can be settled without the counts
  }
  settle_pieces(theirs);
  settle_notices(theirs);
  log.check("MPI_Wait", [&] { return MPI_Wait(&reqs[kSend], MPI_STATUS_IGNORE); });
  log.check("MPI_Waitall", [&] {
    return MPI_Waitall(static_cast<int>(notices.size()), notices.data(), MPI_STATUSES_IGNORE);
  });
}

// The receive in flight completes if its piece was sent, else it is cancelled; pieces sent
// without a receive posted here are taken into scratch.
void Run::settle_pieces(const std::vector<std::int64_t>& words) {
  if (reqs[kRecv] != MPI_REQUEST_NULL) {
    const auto peer = static_cast<std::size_t>(t.recvs[next_recv - 1].peer);
    if (words[2 * peer] < posted[peer]) {
      log.check("MPI_Cancel", [&] { return MPI_Cancel(&reqs[kRecv]); });
      --posted[peer];
    }
    log.check("MPI_Wait", [&] { return MPI_Wait(&reqs[kRecv], MPI_STATUS_IGNORE); });
  }
  std::vector<std::byte> scratch;
  for (std::size_t j = 0; j < posted.size(); ++j) {
    for (std::int64_t k = posted[j]; k < words[2 * j]; ++k) {
      MPI_Status status;
      int count = 0;
      log.check("MPI_Probe",
                [&] { return MPI_Probe(static_cast<int>(j), kTagPiece, comm, &status); });
      log.check("MPI_Get_count", [&] { return MPI_Get_count(&status, MPI_BYTE, &count); });
      scratch.resize(static_cast<std::size_t>(std::max(count, 1)));
      log.check("MPI_Recv", [&] {
        return MPI_Recv(scratch.data(), count, MPI_BYTE, static_cast<int>(j), kTagPiece, comm,
                        MPI_STATUS_IGNORE);
      });
    }
  }
}

// Every notice sent to this rank is taken: by the receive posted at the start when it matched
// one, the rest by blocking receives.
void Run::settle_notices(const std::vector<std::int64_t>& words) {
  std::int64_t expected = 0;
  for (std::size_t j = 0; j < words.size() / 2; ++j) expected += words[2 * j + 1];
  if (reqs[kNotice] != MPI_REQUEST_NULL) {
    if (!notice_taken && expected == 0) {
      log.check("MPI_Cancel", [&] { return MPI_Cancel(&reqs[kNotice]); });
    }
    MPI_Status status;
    log.check("MPI_Wait", [&] { return MPI_Wait(&reqs[kNotice], &status); });
    int cancelled = 1;
    log.check("MPI_Test_cancelled", [&] { return MPI_Test_cancelled(&status, &cancelled); });
    notice_taken = notice_taken || !cancelled;
  }
  for (std::int64_t k = notice_taken ? 1 : 0; k < expected; ++k) {
    std::int64_t word = 0;
    log.check("MPI_Recv", [&] {
      return MPI_Recv(&word, 1, MPI_INT64_T, MPI_ANY_SOURCE, kTagNotice, comm, MPI_STATUS_IGNORE);
    });
  }
}

}  // namespace

void run_transfers(const Communicator& comm, const RankTransfers& transfers, const void* sendbuf,
                   std::span<const std::int64_t> sdispls, void* recvbuf,
                   std::span<const std::int64_t> rdispls, const ArrivalCallback& on_arrival) {
  Run(comm, transfers, sendbuf, sdispls, recvbuf, rdispls, on_arrival).run();
}

void Exchange::execute(const void* sendbuf, std::span<const std::int64_t> sendcounts,
                       std::span<const std::int64_t> sdispls, void* recvbuf,
                       std::span<const std::int64_t> recvcounts,
                       std::span<const std::int64_t> rdispls, const ArrivalCallback& on_arrival) {
  check_arguments(sendbuf, sendcounts, sdispls, recvbuf, recvcounts, rdispls);
  const auto me = static_cast<std::size_t>(comm_.rank());
  if (sendcounts[me] > 0) {
    std::memmove(static_cast<std::byte*>(recvbuf) + rdispls[me],
                 static_cast<const std::byte*>(sendbuf) + sdispls[me],
                 static_cast<std::size_t>(sendcounts[me]));
  }
  run_transfers(comm_, transfers_, sendbuf, sdispls, recvbuf, rdispls, on_arrival);
}

}  // namespace redist::mpi
