// Failure notices between ring neighbours, for a step of point-to-point messages (an execute, the
// LAU baseline) that must not leave a rank waiting forever for a neighbour that stopped on a
// failed MPI call (docs/mpi.md, "MPI errors").
//
// A rank receives the items of side f from its upstream neighbour of that side and sends them to
// its downstream one. From the step's start it has one receive posted per side for a notice from
// that upstream neighbour, among the requests it waits on, so that a notice wakes it up. A rank
// that stops (its own call failed, or a neighbour's notice came) sends no more data and sends
// each downstream neighbour a notice: how many messages it sent that neighbour per group. The
// notice stops the receiver in turn, so a failure reaches every rank that waits on it. A rank
// that finishes its loop cancels its two receives: no notice matters to it any more. Then every
// rank joins the step's agreement (communicator.hpp). When no rank failed, no notice was sent and
// nothing else happens: the cost of a step without failures is two receives posted and cancelled.
// When one did, every rank that has not sent its notices sends them, takes both of its own (a
// cancelled receive is replaced by a blocking one) and settles its data messages from the counts:
// a receive whose message was sent is waited for, one whose message never left is cancelled, a
// message it had no receive for is received into scratch. No message of a failed step then
// remains to be matched by a later step.
#pragma once

#include <mpi.h>

#include <array>
#include <cstddef>
#include <cstdint>
#include <vector>

#include "redist/mpi/communicator.hpp"

namespace redist::mpi {

class StepNotices {
 public:
  using Counts = std::array<std::vector<std::int64_t>, 2>;  // per side, per group

  // `upstream[f]` / `downstream[f]`: the neighbours side f's items come from and go to;
  // `in_groups[f]`: the groups of side f this rank receives (the upstream's counts). Posts the
  // two notice receives into `slots`, two request entries of the caller's that it waits on with
  // its data requests (they must stay where they are until the step ends).
  StepNotices(MPI_Comm comm, CallLog& log, std::array<int, 2> upstream,
              std::array<int, 2> downstream, std::array<std::size_t, 2> in_groups,
              MPI_Request* slots);

  // A neighbour stopped early: this rank stops too.
  bool neighbour_stopped() const;
  // This rank stopped: sends both downstream neighbours the messages it sent them per group
  // (`sent`). From then on it sends no data. The notices complete in exchange().
  void stop(const Counts& sent);
  // This rank finished its loop: cancels the receives (a notice that already came is kept).
  void finish();
  // After an agreement that some rank failed: sends this rank's notices unless it stopped (then
  // it sent them already), takes both neighbours' and waits for its own to leave. Afterwards
  // upstream_sent(f) is what side f's upstream neighbour sent this rank, per group.
  void exchange(const Counts& sent);
  std::vector<std::int64_t> upstream_sent(int f) const;

 private:
  void send(bool stopped, const Counts& sent);
  void start_sends();  // those not started yet
  MPI_Comm comm_;
  CallLog& log_;
  std::array<int, 2> upstream_, downstream_;
  MPI_Request* slots_;
  bool posted_[2] = {false, false};  // the receive was posted
  bool taken_[2] = {false, false};   // the notice is in received_
  bool sent_ = false;
  bool started_[2] = {false, false};  // this rank's notices are under way
  Counts received_, outgoing_;        // word 0: 1 when the sender stopped early; then one per group
  MPI_Request sends_[2] = {MPI_REQUEST_NULL, MPI_REQUEST_NULL};
};

}  // namespace redist::mpi
