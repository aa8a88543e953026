// The execution of a planned redistribution (Redistribution::execute, mpi/redistribution.hpp):
// the event loop over destination groups, staging and placement described in docs/mpi.md.
#include "redist/mpi/redistribution.hpp"

#include <algorithm>
#include <climits>
#include <cstring>
#include <limits>

#include <fmt/format.h>

namespace redist::mpi {

void Redistribution::execute(void* data, std::size_t item_bytes) {
  execute_impl(data, data, item_bytes, 0);
}

void Redistribution::execute(const void* in, void* out, std::size_t item_bytes) {
  execute_impl(in, out, item_bytes, 0);
}

namespace {

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

}  // namespace

void Redistribution::execute_impl(const void* in, void* out, std::size_t item_bytes,
                                  int local_error) {
  const bool in_place = in == out;
  const std::int64_t need = in_place ? std::max(local_.load, local_.target) : local_.target;
  std::int64_t bad_buffers = 0;
  if (need > 0 && out == nullptr) bad_buffers = 1;
  if (!in_place && local_.load > 0 && in == nullptr) bad_buffers = 1;
  if (!in_place && in != nullptr && out != nullptr && item_bytes > 0) {
    const auto* a = static_cast<const std::byte*>(in);
    const auto* b = static_cast<const std::byte*>(out);
    const std::size_t a_len = static_cast<std::size_t>(local_.load) * item_bytes;
    const std::size_t b_len = static_cast<std::size_t>(local_.target) * item_bytes;
    if (a_len > 0 && b_len > 0 && a < b + b_len && b < a + a_len) bad_buffers = 2;
  }
  std::int64_t local[5] = {static_cast<std::int64_t>(item_bytes),
                           -static_cast<std::int64_t>(item_bytes), bad_buffers == 1 ? 1 : 0,
                           local_error, bad_buffers == 2 ? 1 : 0};
  std::int64_t global[5];
  MPI_Allreduce(local, global, 5, MPI_INT64_T, MPI_MAX, comm_);
  const std::int64_t min_bytes = -global[1], max_bytes = global[0];
  std::string error;
  const std::int64_t k_items = options_.segment_items;
  if (min_bytes <= 0) {
    error = "item size must be >= 1 byte (a rank passed 0)";
  } else if (min_bytes != max_bytes) {
    error = fmt::format("item sizes differ between ranks ({} to {} bytes)", min_bytes, max_bytes);
  } else if (global[2] != 0) {
    error = "a rank that holds or receives items passed a null buffer";
  } else if (global[3] != 0) {
    error = "a rank's vector size differs from its old count";
  } else if (global[4] != 0) {
    error = "a rank's input and output buffers overlap (pass the same pointer to execute in place)";
  } else if (k_items > INT_MAX / max_bytes) {
    error = fmt::format("a segment of {} items of {} bytes exceeds one MPI message (2^31-1 bytes)",
                        k_items, max_bytes);
  }
  if (!error.empty()) throw Error("redist::mpi: " + error);
  last_staging_bytes_ = 0;
  const std::int64_t B = static_cast<std::int64_t>(item_bytes);
  const auto* src = static_cast<const std::byte*>(in);
  std::byte* dst = static_cast<std::byte*>(out);
  if (size_ < 2) {
    if (!in_place && local_.load > 0)
      std::memcpy(dst, src, static_cast<std::size_t>(local_.load * B));
    return;
  }
  const Slots caps = slots(item_bytes, in_place);
  const std::int64_t S = caps.sends;
  const int succ = (rank_ + 1) % size_, pred = (rank_ + size_ - 1) % size_;

  SideState sides[2];
  std::size_t n_reqs = 0;
  for (int f = 0; f < 2; ++f) {
    SideState& st = sides[f];
    st.side = f == 0 ? Side::right : Side::left;
    st.s = local_.stream(st.side);
    st.peer_in = f == 0 ? pred : succ;
    st.peer_out = f == 0 ? succ : pred;
    for (const Group& g : out_groups_[f]) {
      OutGroup o;
      o.pos = {g.first, g.last, segment_items(g)};
      o.tag = group_tag(f, g.hops);
      o.segs = o.pos.segments();
      o.copied = o.pos.first;
      o.slot_items = std::min(o.pos.k, o.pos.size());
      o.buf.resize(static_cast<std::size_t>(std::min(S, o.segs) * o.slot_items * B));
      last_staging_bytes_ += o.buf.size();
      o.req = n_reqs;
      n_reqs += static_cast<std::size_t>(S);
      st.out.push_back(std::move(o));
    }
    for (std::size_t gi = 0; gi < in_groups_[f].size(); ++gi) {
      const Group& g = in_groups_[f][gi];
      InGroup i;
      i.items = {g.first, g.last, segment_items(g)};
      i.kept = g.hops == 1;
      i.tag = group_tag(f, g.hops);
      i.segs = i.items.segments();
      i.slot_items = std::min(i.items.k, i.items.size());
      i.cap = std::max<std::int64_t>(1, caps.in[f][gi]);
      if (!i.kept) {
        for (std::size_t o = 0; o < out_groups_[f].size(); ++o) {
          if (out_groups_[f][o].hops == g.hops - 1) i.out = static_cast<int>(o);
        }
        st.out[static_cast<std::size_t>(i.out)].in = static_cast<int>(st.in.size());
        i.buf.resize(static_cast<std::size_t>(i.cap * i.slot_items * B));
        last_staging_bytes_ += i.buf.size();
      } else {
        i.staged.assign(static_cast<std::size_t>(i.cap), 0);
      }
      i.req = n_reqs;
      n_reqs += static_cast<std::size_t>(i.cap);
      st.in.push_back(std::move(i));
    }
  }
  std::vector<MPI_Request> reqs(n_reqs, MPI_REQUEST_NULL);
  auto in_req = [&](InGroup& g, std::int64_t j) -> MPI_Request& {
    return reqs[g.req + static_cast<std::size_t>(j % g.cap)];
  };
  auto out_req = [&](OutGroup& o, std::int64_t j) -> MPI_Request& {
    return reqs[o.req + static_cast<std::size_t>(j % S)];
  };
  auto slot = [&](InGroup& g, std::int64_t j) {
    return g.buf.data() + (j % g.cap) * g.slot_items * B;
  };
  // Offset in the final block of the first item of a message carrying kept items [a, b).
  auto placed_first = [&](Side side, std::int64_t a, std::int64_t b) {
    return local_.placed_offset(side, side == Side::right ? b - 1 : a);
  };
  // Copies items [x, y) of stream `side` between two item arrays whose offsets are affine in k
  // with the stream's orientation (decreasing offsets for `right`, increasing for `left`).
  auto copy_items = [&](Side side, std::byte* to, auto to_off, const std::byte* from, auto from_off,
                        std::int64_t x, std::int64_t y) {
    if (y <= x) return;
    const std::int64_t k = side == Side::right ? y - 1 : x;
    std::memcpy(to + to_off(k) * B, from + from_off(k) * B, static_cast<std::size_t>((y - x) * B));
  };
  // Own items of a side copied into messages: positions [0, own_copied(st)).
  auto own_copied = [&](const SideState& st) {
    std::int64_t prefix = st.s.out;
    for (const OutGroup& o : st.out) {
      if (o.copied < o.pos.last) {
        prefix = o.copied;
        break;
      }
    }
    return std::min(st.s.own_out, prefix);
  };
  auto own_done = [&](const SideState& st) {
    for (const OutGroup& o : st.out) {
      if (o.pos.first < st.s.own_out && o.copied < std::min(o.pos.last, st.s.own_out)) return false;
    }
    return true;
  };
  // One-port: one message at a time per rank, items of a side in stream order (the model sends
  // them so), the side whose next item leaves first in the model's schedule first. The message a
  // rank posts is then its receiver's earliest unfinished group, which that receiver has open, so
  // it is matched once the receiver's downstream makes room: no port is held by a send that waits
  // for the other side.
  auto next_unsent = [&](const SideState& st) {
    std::int64_t k = std::numeric_limits<std::int64_t>::max();
    for (const OutGroup& o : st.out) {
      if (o.copied < o.pos.last) k = std::min(k, o.copied);
    }
    return k;
  };
  auto sending = [&](SideState& st) {
    for (OutGroup& o : st.out) {
      for (std::int64_t q = 0; q < S; ++q) {
        if (out_req(o, q) != MPI_REQUEST_NULL) return true;
      }
    }
    return false;
  };
  auto port_turn = [&](int f) {
    const int g = 1 - f;
    if (sending(sides[0]) || sending(sides[1])) return false;
    const std::int64_t kg = next_unsent(sides[g]);
    if (kg == std::numeric_limits<std::int64_t>::max()) return true;
    return departures_[f].at(next_unsent(sides[f])) <= departures_[g].at(kg);
  };
  // One-port receive order (a rank receiving from both sides keeps all it receives): the side
  // whose next unposted item arrives first in the model, once the other side has no receive
  // pending.
  auto next_unposted = [&](SideState& st) {
    for (InGroup& g : st.in) {
      if (g.posted < g.segs) return g.items.seg_first(g.posted);
    }
    return std::numeric_limits<std::int64_t>::max();
  };
  auto pending = [&](SideState& st) {
    for (InGroup& g : st.in) {
      for (std::int64_t j = g.released; j < g.posted; ++j) {
        if (reqs[g.req + static_cast<std::size_t>(j % g.cap)] != MPI_REQUEST_NULL) return true;
      }
    }
    return false;
  };
  auto receive_turn = [&](int f) {
    const int g = 1 - f;
    if (pending(sides[0]) || pending(sides[1])) return false;
    const std::int64_t kg = next_unposted(sides[g]);
    if (kg == std::numeric_limits<std::int64_t>::max()) return true;
    const std::int64_t kf = next_unposted(sides[f]);
    return upstream_[f].at(kf) + upstream_cost_[f] <= upstream_[g].at(kg) + upstream_cost_[g];
  };
  // Can kept items [a, b) of `side` be received straight into their final offsets now? Always
  // after the move; before it, if those offsets hold neither the kept items (still at their
  // initial offsets) nor own outgoing items not yet copied out.
  auto direct_ok = [&](Side side, std::int64_t a, std::int64_t b, bool moved_now) {
    if (moved_now) return true;
    const std::int64_t lo = placed_first(side, a, b), hi = lo + (b - a);
    auto disjoint = [&](std::int64_t x, std::int64_t y) { return y <= x || hi <= x || y <= lo; };
    return disjoint(local_.kept_from, local_.kept_from + local_.kept) &&
           disjoint(local_.load - local_.right.own_out, local_.load - own_copied(sides[0])) &&
           disjoint(own_copied(sides[1]), local_.left.own_out);
  };

  // Out of place: the kept items go to their final offsets at once; in place they move once every
  // own outgoing item has been copied out (their final offsets may overlap those items).
  bool moved = !in_place;
  if (!in_place && local_.kept > 0) {
    std::memcpy(dst + local_.kept_to * B, src + local_.kept_from * B,
                static_cast<std::size_t>(local_.kept * B));
  }
  std::vector<int> indices(reqs.size());
  for (;;) {
    bool progress = true;
    while (progress) {
      progress = false;
      for (int f = 0; f < 2; ++f) {
        SideState& st = sides[f];
        const Side side = st.side;
        // 1. Receive. Groups are taken in stream order (farthest destination first, as the items
        //    cross the link in the model); a group is opened only when every earlier group has
        //    arrived completely or is stalled (its slots hold received segments that its
        //    downstream link has not taken yet): then the otherwise idle link carries it, one
        //    segment at a time. Segments of a group are matched in posting order (one tag each).
        std::int64_t allowance = std::numeric_limits<std::int64_t>::max();
        // One-port, receiving from both sides: one receive at a time, the side whose next item
        // arrives first in the model's schedule first.
        if (options_.one_port && !sides[0].in.empty() && !sides[1].in.empty() && !receive_turn(f)) {
          allowance = 0;
        }
        for (InGroup& g : st.in) {
          const std::int64_t limit = std::min(g.cap, allowance);
          while (g.posted < g.segs && g.posted - g.released < limit) {
            const std::int64_t j = g.posted;
            const std::int64_t a = g.items.seg_first(j), b = g.items.seg_last(j);
            std::byte* buffer = nullptr;
            if (!g.kept) {
              buffer = slot(g, j);
            } else if (direct_ok(side, a, b, moved)) {
              buffer = dst + placed_first(side, a, b) * B;
              g.staged[static_cast<std::size_t>(j % g.cap)] = 0;
            } else {
              if (g.buf.empty()) {
                g.buf.resize(static_cast<std::size_t>(g.cap * g.slot_items * B));
                last_staging_bytes_ += g.buf.size();
              }
              buffer = slot(g, j);
              g.staged[static_cast<std::size_t>(j % g.cap)] = 1;
            }
            MPI_Irecv(buffer, static_cast<int>((b - a) * B), MPI_BYTE, st.peer_in, g.tag, comm_,
                      &in_req(g, j));
            ++g.posted;
            progress = true;
          }
          bool arrived = true;
          for (std::int64_t j = g.released; j < g.posted && arrived; ++j) {
            arrived = in_req(g, j) == MPI_REQUEST_NULL;
          }
          if (arrived && g.posted == g.segs) continue;      // complete
          if (arrived && g.posted - g.released >= limit) {  // stalled
            allowance = 1;
            continue;
          }
          break;
        }
        // 2. Send: assemble the next segment of each outgoing group once its items are here.
        //    One-port: a single message, of the group holding the side's next item (port_turn).
        if (options_.one_port && !port_turn(f)) continue;
        const std::int64_t first_unsent = next_unsent(st);
        for (OutGroup& o : st.out) {
          if (options_.one_port && o.copied != first_unsent) continue;
          while (o.next < o.segs && out_req(o, o.next) == MPI_REQUEST_NULL &&
                 !(options_.one_port && sending(st))) {
            const std::int64_t j = o.next;
            const std::int64_t a = o.pos.seg_first(j), b = o.pos.seg_last(j);
            const std::int64_t own_end = std::min(b, st.s.own_out);
            const std::int64_t in_lo = std::max(a, st.s.own_out) - st.s.own_out;
            const std::int64_t in_hi = b - st.s.own_out;  // forwarded items [in_lo, in_hi)
            InGroup* from = o.in >= 0 ? &st.in[static_cast<std::size_t>(o.in)] : nullptr;
            std::int64_t q_lo = 0, q_hi = -1;  // its segments holding them
            if (in_hi > in_lo) {
              q_lo = (in_lo - from->items.first) / from->items.k;
              q_hi = (in_hi - 1 - from->items.first) / from->items.k;
            }
            bool ready = true;
            for (std::int64_t q = q_lo; q <= q_hi && ready; ++q) {
              ready = q < from->posted && in_req(*from, q) == MPI_REQUEST_NULL;
            }
            if (!ready) break;
            std::byte* msg = o.buf.data() + (j % S) * o.slot_items * B;
            auto msg_off = [&](std::int64_t k) { return position_in_segment(side, a, b, k); };
            copy_items(
                side, msg, msg_off, src, [&](std::int64_t k) { return local_.own_offset(side, k); },
                a, own_end);
            for (std::int64_t q = q_lo; q <= q_hi; ++q) {
              const std::int64_t qa = from->items.seg_first(q);
              const std::int64_t qb = from->items.seg_last(q);
              copy_items(
                  side, msg, [&](std::int64_t k) { return msg_off(k + st.s.own_out); },
                  slot(*from, q),
                  [&](std::int64_t k) { return position_in_segment(side, qa, qb, k); },
                  std::max(qa, in_lo), std::min(qb, in_hi));
            }
            o.copied = b;
            MPI_Isend(msg, static_cast<int>((b - a) * B), MPI_BYTE, st.peer_out, o.tag, comm_,
                      &out_req(o, j));
            ++o.next;
            progress = true;
          }
        }
      }
      // 3. In place: move the kept items once every own outgoing item has been copied out.
      if (!moved && own_done(sides[0]) && own_done(sides[1])) {
        if (local_.kept > 0 && local_.kept_from != local_.kept_to) {
          std::memmove(dst + local_.kept_to * B, dst + local_.kept_from * B,
                       static_cast<std::size_t>(local_.kept * B));
        }
        moved = true;
        progress = true;
      }
      // 4. Release received segments, oldest first: forwarded ones once copied into messages,
      //    kept ones once in their final offsets (staged ones are copied there after the move).
      for (SideState& st : sides) {
        for (InGroup& g : st.in) {
          while (g.released < g.posted && in_req(g, g.released) == MPI_REQUEST_NULL) {
            const std::int64_t j = g.released;
            const std::int64_t a = g.items.seg_first(j), b = g.items.seg_last(j);
            if (!g.kept) {
              if (st.out[static_cast<std::size_t>(g.out)].copied < st.s.own_out + b) break;
            } else if (g.staged[static_cast<std::size_t>(j % g.cap)]) {
              if (!moved) break;
              std::memcpy(dst + placed_first(st.side, a, b) * B, slot(g, j),
                          static_cast<std::size_t>((b - a) * B));
            }
            ++g.released;
            progress = true;
          }
        }
      }
    }
    bool done = moved;
    for (const SideState& st : sides) {
      for (const InGroup& g : st.in) done = done && g.released == g.segs;
      for (const OutGroup& o : st.out) done = done && o.next == o.segs;
    }
    int active = 0;
    for (MPI_Request r : reqs) active += r != MPI_REQUEST_NULL ? 1 : 0;
    if (done && active == 0) break;
    if (active == 0) {
      // Cannot happen for balanced flows without a circulation; refuse rather than hang.
      MPI_Abort(comm_, 3);
    }
    int outcount = 0;
    MPI_Waitsome(static_cast<int>(reqs.size()), reqs.data(), &outcount, indices.data(),
                 MPI_STATUSES_IGNORE);
  }
}

}  // namespace redist::mpi
