// The phases of one pass of Redistribution::execute's event loop (redistribution_execution.hpp):
// receives, sends, the placement of the kept items, the release of received segments, and the
// one-port order of sends and receives (docs/mpi.md).
#include <algorithm>
#include <climits>
#include <cstring>
#include <span>

#include "redist/mpi/redistribution_execution.hpp"

namespace redist::mpi {

using namespace execution;

// --- 1. Receive ---

// Groups are taken in stream order (farthest destination first, as the items cross the link in
// the model); a group is opened only when every earlier group has arrived completely or is stalled
// (its slots hold received segments that its downstream link has not taken yet): then the
// otherwise idle link carries it, one segment at a time. Segments of a group are matched in
// posting order (one tag each).
bool Redistribution::Execution::post_receives(int f) {
  SideState& st = sides[f];
  bool progress = false;
  std::int64_t allowance = receive_allowance(f);
  for (InGroup& g : st.in) {
    const std::int64_t limit = std::min(g.cap, allowance);
    while (g.posted < g.segs && g.posted - g.released < limit) {
      post_receive(st, g);
      progress = true;
    }
    const bool arrived = all_received(g);
    if (arrived && g.posted == g.segs) continue;      // complete
    if (arrived && g.posted - g.released >= limit) {  // stalled
      allowance = 1;
      continue;
    }
    break;
  }
  return progress;
}

// Receives a side may post now: one-port, receiving from both sides, one receive at a time, the
// side whose next item arrives first in the model's schedule first.
std::int64_t Redistribution::Execution::receive_allowance(int f) const {
  const bool both = !sides[0].in.empty() && !sides[1].in.empty();
  return options.one_port && both && !receive_turn(f) ? 0 : kNone;
}

void Redistribution::Execution::post_receive(SideState& st, InGroup& g) {
  const std::int64_t j = g.posted;
  const std::int64_t a = g.items.seg_first(j), b = g.items.seg_last(j);
  std::byte* buffer = receive_buffer(st.side, g, j);
  call("MPI_Irecv", [&] {
    return MPI_Irecv(buffer, static_cast<int>((b - a) * B), MPI_BYTE, st.peer_in, g.tag,
                     r.comm_.get(), &request(g, j));
  });
  ++g.posted;
}

// Forwarded items go to a staging slot; kept items to their final offsets when free (direct_ok),
// else to a staging slot.
std::byte* Redistribution::Execution::receive_buffer(Side side, InGroup& g, std::int64_t j) {
  if (!g.kept) return slot(g, j);
  const std::int64_t a = g.items.seg_first(j), b = g.items.seg_last(j);
  char& staged = g.staged[static_cast<std::size_t>(j % g.cap)];
  staged = direct_ok(side, a, b) ? 0 : 1;
  if (!staged) return dst + placed_first(side, a, b) * B;
  if (g.buf.empty()) {
    g.buf.resize(static_cast<std::size_t>(g.cap * g.slot_items * B));
    r.last_staging_bytes_ += g.buf.size();
  }
  return slot(g, j);
}

bool Redistribution::Execution::all_received(const InGroup& g) const {
  for (std::int64_t j = g.released; j < g.posted; ++j) {
    if (!received(g, j)) return false;
  }
  return true;
}

// --- 2. Send ---

// Assembles the next segment of each outgoing group once its items are here, and sends it.
// One-port: a single message, of the group holding the side's next item (port_turn).
bool Redistribution::Execution::post_sends(int f) {
  SideState& st = sides[f];
  if (options.one_port && !port_turn(f)) return false;
  bool progress = false;
  const std::int64_t first_unsent = next_unsent(st);
  for (OutGroup& o : st.out) {
    if (options.one_port && o.copied != first_unsent) continue;
    while (o.next < o.segs && buffer_free(o, o.next) && !(options.one_port && sending(st))) {
      const Segment seg = segment(st, o, o.next);
      if (!forwarded_here(seg)) break;
      send_segment(st, o, seg);
      progress = true;
    }
  }
  return progress;
}

Segment Redistribution::Execution::segment(SideState& st, const OutGroup& o, std::int64_t j) const {
  Segment seg;
  seg.a = o.pos.seg_first(j);
  seg.b = o.pos.seg_last(j);
  seg.own_end = std::min(seg.b, st.s.own_out);
  seg.in_lo = std::max(seg.a, st.s.own_out) - st.s.own_out;
  seg.in_hi = seg.b - st.s.own_out;
  seg.from = o.in >= 0 ? &st.in[static_cast<std::size_t>(o.in)] : nullptr;
  if (seg.in_hi > seg.in_lo) {
    const Range& items = seg.from->items;
    seg.q_lo = (seg.in_lo - items.first) / items.k;
    seg.q_hi = (seg.in_hi - 1 - items.first) / items.k;
  }
  return seg;
}

// Have the segments holding its forwarded items arrived?
bool Redistribution::Execution::forwarded_here(const Segment& seg) const {
  for (std::int64_t q = seg.q_lo; q <= seg.q_hi; ++q) {
    if (q >= seg.from->posted || !received(*seg.from, q)) return false;
  }
  return true;
}

void Redistribution::Execution::send_segment(SideState& st, OutGroup& o, const Segment& seg) {
  const std::int64_t j = o.next;
  std::byte* msg = o.buf.data() + (j % S) * o.slot_items * B;
  pack(st, seg, msg);
  o.copied = seg.b;
  call("MPI_Isend", [&] {
    return MPI_Isend(msg, static_cast<int>((seg.b - seg.a) * B), MPI_BYTE, st.peer_out, o.tag,
                     r.comm_.get(), &request(o, j));
  });
  ++o.next;
}

// Copies the segment's own items from the caller's buffer and its forwarded items from their
// staging slots into the message, in increasing global order.
void Redistribution::Execution::pack(const SideState& st, const Segment& seg, std::byte* msg) {
  const Side side = st.side;
  auto msg_off = [&](std::int64_t k) { return position_in_segment(side, seg.a, seg.b, k); };
  auto own_off = [&](std::int64_t k) { return local.own_offset(side, k); };
  copy_items(side, msg, msg_off, src, own_off, seg.a, seg.own_end);
  auto fwd_msg_off = [&](std::int64_t k) { return msg_off(k + st.s.own_out); };
  for (std::int64_t q = seg.q_lo; q <= seg.q_hi; ++q) {
    const std::int64_t qa = seg.from->items.seg_first(q), qb = seg.from->items.seg_last(q);
    auto slot_off = [&](std::int64_t k) { return position_in_segment(side, qa, qb, k); };
    copy_items(side, msg, fwd_msg_off, slot(*seg.from, q), slot_off, std::max(qa, seg.in_lo),
               std::min(qb, seg.in_hi));
  }
}

// --- 3. In place: move the kept items once every own outgoing item has been copied out ---

bool Redistribution::Execution::move_kept() {
  if (moved || !own_done(sides[0]) || !own_done(sides[1])) return false;
  if (local.kept > 0 && local.kept_from != local.kept_to) {
    std::memmove(dst + local.kept_to * B, dst + local.kept_from * B,
                 static_cast<std::size_t>(local.kept * B));
  }
  moved = true;
  return true;
}

// --- 4. Release received segments, oldest first ---

bool Redistribution::Execution::release_received() {
  bool progress = false;
  for (SideState& st : sides) {
    for (InGroup& g : st.in) {
      while (g.released < g.posted && received(g, g.released) && release(st, g)) progress = true;
    }
  }
  return progress;
}

// Releases the oldest received segment if done with: forwarded ones once copied into messages,
// kept ones once in their final offsets (staged ones are copied there after the move).
bool Redistribution::Execution::release(SideState& st, InGroup& g) {
  const std::int64_t j = g.released;
  const std::int64_t a = g.items.seg_first(j), b = g.items.seg_last(j);
  if (!g.kept) {
    if (st.out[static_cast<std::size_t>(g.out)].copied < st.s.own_out + b) return false;
  } else if (g.staged[static_cast<std::size_t>(j % g.cap)]) {
    if (!moved) return false;
    std::memcpy(dst + placed_first(st.side, a, b) * B, slot(g, j),
                static_cast<std::size_t>((b - a) * B));
  }
  ++g.released;
  return true;
}

// --- Placement ---

// Offset in the final block of the first item of a message carrying kept items [a, b).
std::int64_t Redistribution::Execution::placed_first(Side side, std::int64_t a,
                                                     std::int64_t b) const {
  return local.placed_offset(side, side == Side::right ? b - 1 : a);
}

// Copies items [x, y) of stream `side` between two item arrays whose offsets are affine in k
// with the stream's orientation (decreasing offsets for `right`, increasing for `left`).
template <class ToOffset, class FromOffset>
void Redistribution::Execution::copy_items(Side side, std::byte* to, ToOffset to_off,
                                           const std::byte* from, FromOffset from_off,
                                           std::int64_t x, std::int64_t y) const {
  if (y <= x) return;
  const std::int64_t k = side == Side::right ? y - 1 : x;
  std::memcpy(to + to_off(k) * B, from + from_off(k) * B, static_cast<std::size_t>((y - x) * B));
}

// Own items of a side copied into messages: positions [0, own_copied(st)).
std::int64_t Redistribution::Execution::own_copied(const SideState& st) const {
  std::int64_t prefix = st.s.out;
  for (const OutGroup& o : st.out) {
    if (o.copied < o.pos.last) {
      prefix = o.copied;
      break;
    }
  }
  return std::min(st.s.own_out, prefix);
}

bool Redistribution::Execution::own_done(const SideState& st) const {
  for (const OutGroup& o : st.out) {
    if (o.pos.first < st.s.own_out && o.copied < std::min(o.pos.last, st.s.own_out)) return false;
  }
  return true;
}

// Can kept items [a, b) of `side` be received straight into their final offsets now? Always
// after the move; before it, if those offsets hold neither the kept items (still at their initial
// offsets) nor own outgoing items not yet copied out.
bool Redistribution::Execution::direct_ok(Side side, std::int64_t a, std::int64_t b) const {
  if (moved) return true;
  const std::int64_t lo = placed_first(side, a, b), hi = lo + (b - a);
  auto disjoint = [&](std::int64_t x, std::int64_t y) { return y <= x || hi <= x || y <= lo; };
  return disjoint(local.kept_from, local.kept_from + local.kept) &&
         disjoint(local.load - local.right.own_out, local.load - own_copied(sides[0])) &&
         disjoint(own_copied(sides[1]), local.left.own_out);
}

// --- One-port order ---

// One message at a time per rank, items of a side in stream order (the model sends them so), the
// side whose next item leaves first in the model's schedule first. The message a rank posts is
// then its receiver's earliest unfinished group, which that receiver has open, so it is matched
// once the receiver's downstream makes room: no port is held by a send that waits for the other
// side.
std::int64_t Redistribution::Execution::next_unsent(const SideState& st) const {
  std::int64_t k = kNone;
  for (const OutGroup& o : st.out) {
    if (o.copied < o.pos.last) k = std::min(k, o.copied);
  }
  return k;
}

bool Redistribution::Execution::sending(const SideState& st) const {
  for (const OutGroup& o : st.out) {
    for (std::int64_t q = 0; q < S; ++q) {
      if (!buffer_free(o, q)) return true;
    }
  }
  return false;
}

bool Redistribution::Execution::port_turn(int f) const {
  const int g = 1 - f;
  if (sending(sides[0]) || sending(sides[1])) return false;
  const std::int64_t kg = next_unsent(sides[g]);
  if (kg == kNone) return true;
  return r.departures_[f].at(next_unsent(sides[f])) <= r.departures_[g].at(kg);
}

// Receive order (a rank receiving from both sides keeps all it receives): the side whose next
// unposted item arrives first in the model, once the other side has no receive pending.
std::int64_t Redistribution::Execution::next_unposted(const SideState& st) const {
  for (const InGroup& g : st.in) {
    if (g.posted < g.segs) return g.items.seg_first(g.posted);
  }
  return kNone;
}

bool Redistribution::Execution::pending(const SideState& st) const {
  for (const InGroup& g : st.in) {
    if (!all_received(g)) return true;
  }
  return false;
}

bool Redistribution::Execution::receive_turn(int f) const {
  const int g = 1 - f;
  if (pending(sides[0]) || pending(sides[1])) return false;
  const std::int64_t kg = next_unposted(sides[g]);
  if (kg == kNone) return true;
  const std::int64_t kf = next_unposted(sides[f]);
  return r.upstream_[f].at(kf) + r.upstream_cost_[f] <= r.upstream_[g].at(kg) + r.upstream_cost_[g];
}

}  // namespace redist::mpi
