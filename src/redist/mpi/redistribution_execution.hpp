// The state of one Redistribution::execute (mpi/redistribution.hpp) and the phases of its event
// loop, shared by the files that implement it: redistribution_execute.cpp (the arguments' check,
// the set-up, the step and the settling after a failure) and redistribution_ports.cpp (receives,
// sends, placement of the kept items, release of received segments, and the one-port order).
// Private to the MPI library: no caller outside it includes this header.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <vector>

#include "redist/mpi/notices.hpp"
#include "redist/mpi/redistribution.hpp"

namespace redist::mpi {

namespace execution {

constexpr std::int64_t kNone = std::numeric_limits<std::int64_t>::max();  // no such item
constexpr std::size_t kNoticeSlots = 2;  // request entries 0 and 1: the neighbours' notices

// Thrown inside the event loop when this rank stops: a call failed (logged) or a neighbour did.
struct Stopped {};

// A range [first, last) of a stream's items (LocalPlan numbering), cut into segments of k items
// from `first`.
struct Range {
  std::int64_t first = 0, last = 0, k = 1;
  std::int64_t size() const { return last - first; }
  std::int64_t segments() const { return (size() + k - 1) / k; }
  std::int64_t seg_first(std::int64_t j) const { return first + j * k; }
  std::int64_t seg_last(std::int64_t j) const { return std::min(first + (j + 1) * k, last); }
};

// An incoming group (a sub-stream of the link from the upstream neighbour, mpi/local_plan.hpp
// Group): items this rank keeps (hops 1), received into the final block or staged, or items it
// forwards, staged in `cap` slots until copied into the outgoing group `out`.
struct InGroup {
  Range items;
  bool kept = false;
  int tag = 0, out = -1;
  std::int64_t segs = 0, cap = 0, slot_items = 0;
  std::int64_t posted = 0, released = 0;  // segments [released, posted) occupy entries j % cap
  std::size_t req = 0;                    // its `cap` request entries start here
  std::vector<std::byte> buf;             // staging (kept items: allocated when first used)
  std::vector<char> staged;               // kept items: per entry, staged or received in place
};

// An outgoing group: positions of this rank's outgoing stream ending on one rank; own items
// first, then forwarded items of the incoming group `in`.
struct OutGroup {
  Range pos;
  int tag = 0, in = -1;
  std::int64_t segs = 0, slot_items = 0, next = 0, copied = 0;  // copied: [pos.first, copied)
  std::size_t req = 0;                                          // sends_in_flight entries
  std::vector<std::byte> buf;
};

// One direction of item movement through this rank (LocalPlan::Stream) and its groups.
struct SideState {
  Side side = Side::right;
  Stream s;
  int peer_in = -1, peer_out = -1;
  std::vector<InGroup> in;
  std::vector<OutGroup> out;
};

// Segment j of an outgoing group: positions [a, b) of the stream, own items [a, own_end), then
// forwarded items [in_lo, in_hi) of the incoming group `from` (its segments [q_lo, q_hi]).
struct Segment {
  std::int64_t a = 0, b = 0, own_end = 0, in_lo = 0, in_hi = 0, q_lo = 0, q_hi = -1;
  InGroup* from = nullptr;
};

}  // namespace execution

// One execute on a ring of at least 2 ranks: the groups of both sides with their staging slots,
// message buffers and request entries, and the phases of the event loop.
struct Redistribution::Execution {
  using InGroup = execution::InGroup;
  using OutGroup = execution::OutGroup;
  using SideState = execution::SideState;
  using Segment = execution::Segment;
  using Stopped = execution::Stopped;

  Execution(Redistribution& r, const void* in, void* out, std::size_t item_bytes);
  void run();

 private:
  void add_out_groups(int f);
  void add_in_groups(int f);
  bool move_items(const StepNotices& notices);
  bool advance();
  // The phases of one pass (docs/mpi.md): each returns whether it progressed.
  bool post_receives(int f);
  bool post_sends(int f);
  bool move_kept();
  bool release_received();
  bool finished() const;
  int active_requests() const;
  void wait_some();

  // The MPI calls of the loop: a failure is logged and stops this rank (Stopped).
  template <class Call>
  void call(const char* name, Call&& c) {
    if (!log.check(name, c)) throw Stopped{};
  }
  // After the step: what this rank sent, and the settling of its messages when a rank failed.
  StepNotices::Counts sent_counts() const;
  void settle(const StepNotices& notices);
  void settle_incoming(const SideState& st, InGroup& g, std::int64_t sent);

  void post_receive(SideState& st, InGroup& g);
  std::byte* receive_buffer(Side side, InGroup& g, std::int64_t j);
  std::int64_t receive_allowance(int f) const;
  Segment segment(SideState& st, const OutGroup& o, std::int64_t j) const;
  bool forwarded_here(const Segment& seg) const;
  void send_segment(SideState& st, OutGroup& o, const Segment& seg);
  void pack(const SideState& st, const Segment& seg, std::byte* msg);
  bool release(SideState& st, InGroup& g);

  // Request entries and buffers of segment j.
  MPI_Request& request(const InGroup& g, std::int64_t j) {
    return reqs[g.req + static_cast<std::size_t>(j % g.cap)];
  }
  MPI_Request& request(const OutGroup& o, std::int64_t j) {
    return reqs[o.req + static_cast<std::size_t>(j % S)];
  }
  bool received(const InGroup& g, std::int64_t j) const {  // or never posted
    return reqs[g.req + static_cast<std::size_t>(j % g.cap)] == MPI_REQUEST_NULL;
  }
  bool buffer_free(const OutGroup& o, std::int64_t j) const {
    return reqs[o.req + static_cast<std::size_t>(j % S)] == MPI_REQUEST_NULL;
  }
  std::byte* slot(InGroup& g, std::int64_t j) const {
    return g.buf.data() + (j % g.cap) * g.slot_items * B;
  }
  bool all_received(const InGroup& g) const;

  std::int64_t placed_first(Side side, std::int64_t a, std::int64_t b) const;
  template <class ToOffset, class FromOffset>
  void copy_items(Side side, std::byte* to, ToOffset to_off, const std::byte* from,
                  FromOffset from_off, std::int64_t x, std::int64_t y) const;
  std::int64_t own_copied(const SideState& st) const;
  bool own_done(const SideState& st) const;
  bool direct_ok(Side side, std::int64_t a, std::int64_t b) const;
  // The one-port order of sends and of receives.
  std::int64_t next_unsent(const SideState& st) const;
  bool sending(const SideState& st) const;
  bool port_turn(int f) const;
  std::int64_t next_unposted(const SideState& st) const;
  bool pending(const SideState& st) const;
  bool receive_turn(int f) const;

  Redistribution& r;
  const LocalPlan& local;
  const Options& options;
  const bool in_place;
  const std::int64_t B;  // bytes per item
  const std::byte* const src;
  std::byte* const dst;
  const Slots caps;
  const std::int64_t S;  // message buffers per outgoing group
  SideState sides[2];
  CallLog log;
  std::vector<MPI_Request> reqs;  // the notices' two, then the groups'
  std::vector<int> indices;       // MPI_Waitsome's output
  // Out of place: the kept items go to their final offsets at once; in place they move once every
  // own outgoing item has been copied out (their final offsets may overlap those items).
  bool moved;
};

}  // namespace redist::mpi
