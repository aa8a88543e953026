// The execution of a planned redistribution (Redistribution::execute, mpi/redistribution.hpp):
// the event loop over destination groups, staging and placement described in docs/mpi.md.
//
// Structure: execute_impl checks the arguments collectively (check_arguments), then an Execution
// sets up the groups' staging and requests (its constructor) and runs the step (run): the event
// loop (move_items), whose passes (advance) post receives and sends on both sides, move the kept
// items in place once possible and release received segments, until nothing progresses; then it
// waits for some request to complete (MPI_Waitsome), until every group is done. A failed MPI call
// stops the loop (the rank then sends its failure notices), and so does a neighbour's notice
// (notices.hpp); a rank that finishes withdraws its notice receives. The step ends with the
// agreement (communicator.hpp); after a failure somewhere, every rank exchanges notices, settles
// its messages in flight (settle) and throws the agreed Error.
#include "redist/mpi/redistribution.hpp"

#include <algorithm>
#include <climits>
#include <cstring>
#include <limits>
#include <span>

#include <fmt/format.h>

#include "redist/mpi/notices.hpp"

namespace redist::mpi {

void Redistribution::execute(void* data, std::size_t item_bytes) {
  execute_impl(data, data, item_bytes, 0);
}

void Redistribution::execute(const void* in, void* out, std::size_t item_bytes) {
  execute_impl(in, out, item_bytes, 0);
}

namespace {

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

// What execute's collective check gathers from every rank (MPI_MAX over ranks).
struct CheckWords {
  std::int64_t bytes = 0;        // item size: the largest
  std::int64_t minus_bytes = 0;  // minus the item size: minus the smallest
  std::int64_t null_buffer = 0;  // a rank that holds or receives items passed a null buffer
  std::int64_t bad_size = 0;     // the typed API: a vector's size differs from the old count
  std::int64_t overlap = 0;      // out of place: input and output overlap
};
static_assert(sizeof(CheckWords) == 5 * sizeof(std::int64_t), "gathered as 5 MPI_INT64_T");

CheckWords local_check(const LocalPlan& local, const void* in, const void* out,
                       std::size_t item_bytes, int local_error) {
  const bool in_place = in == out;
  const std::int64_t need = in_place ? std::max(local.load, local.target) : local.target;
  CheckWords w;
  w.bytes = static_cast<std::int64_t>(item_bytes);
  w.minus_bytes = -w.bytes;
  w.null_buffer = (need > 0 && out == nullptr) || (!in_place && local.load > 0 && in == nullptr);
  w.bad_size = local_error;
  if (!in_place && in != nullptr && out != nullptr && item_bytes > 0) {
    const auto* a = static_cast<const std::byte*>(in);
    const auto* b = static_cast<const std::byte*>(out);
    const std::size_t a_len = static_cast<std::size_t>(local.load) * item_bytes;
    const std::size_t b_len = static_cast<std::size_t>(local.target) * item_bytes;
    w.overlap = a_len > 0 && b_len > 0 && a < b + b_len && b < a + a_len;
  }
  return w;
}

std::string check_error(const CheckWords& all, std::int64_t segment_items) {
  const std::int64_t min_bytes = -all.minus_bytes, max_bytes = all.bytes;
  if (min_bytes <= 0) return "item size must be >= 1 byte (a rank passed 0)";
  if (min_bytes != max_bytes) {
    return fmt::format("item sizes differ between ranks ({} to {} bytes)", min_bytes, max_bytes);
  }
  if (all.null_buffer != 0) return "a rank that holds or receives items passed a null buffer";
  if (all.bad_size != 0) return "a rank's vector size differs from its old count";
  if (all.overlap != 0) {
    return "a rank's input and output buffers overlap (pass the same pointer to execute in place)";
  }
  if (segment_items > INT_MAX / max_bytes) {
    return fmt::format("a segment of {} items of {} bytes exceeds one MPI message (2^31-1 bytes)",
                       segment_items, max_bytes);
  }
  return {};
}

// Collective: throws the same Error on every rank if any rank's arguments are wrong (the
// arguments ride on an agreement, one MPI_Allreduce).
void check_arguments(MPI_Comm comm, int rank, const LocalPlan& local, std::int64_t segment_items,
                     const void* in, const void* out, std::size_t item_bytes, int local_error) {
  const CheckWords mine = local_check(local, in, out, item_bytes, local_error);
  std::int64_t words[5];
  std::memcpy(words, &mine, sizeof words);
  agree_or_throw(comm, CallLog("execute", rank), words);
  CheckWords all;
  std::memcpy(&all, words, sizeof all);
  const std::string error = check_error(all, segment_items);
  if (!error.empty()) throw Error("redist::mpi: " + error);
}

}  // namespace

// One execute on a ring of at least 2 ranks: the groups of both sides with their staging slots,
// message buffers and request entries, and the phases of the event loop.
struct Redistribution::Execution {
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
  template <class Call>
  void start(const char* name, Call&& c) {
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
  std::byte* slot(InGroup& g, std::int64_t j) {
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

void Redistribution::execute_impl(const void* in, void* out, std::size_t item_bytes,
                                  int local_error) {
  check_arguments(comm_.get(), rank_, local_, options_.segment_items, in, out, item_bytes,
                  local_error);
  last_staging_bytes_ = 0;
  if (size_ < 2) {
    if (in != out && local_.load > 0) {
      std::memcpy(out, in, static_cast<std::size_t>(local_.load) * item_bytes);
    }
    return;
  }
  Execution(*this, in, out, item_bytes).run();
}

// --- Set-up: groups, staging slots, message buffers and request entries ---

Redistribution::Execution::Execution(Redistribution& r, const void* in, void* out,
                                     std::size_t item_bytes)
    : r(r),
      local(r.local_),
      options(r.options_),
      in_place(in == out),
      B(static_cast<std::int64_t>(item_bytes)),
      src(static_cast<const std::byte*>(in)),
      dst(static_cast<std::byte*>(out)),
      caps(r.slots(item_bytes, in_place)),
      S(caps.sends),
      log("execute", r.rank_),
      reqs(kNoticeSlots, MPI_REQUEST_NULL),
      moved(!in_place) {
  const int succ = (r.rank_ + 1) % r.size_, pred = (r.rank_ + r.size_ - 1) % r.size_;
  for (int f = 0; f < 2; ++f) {
    SideState& st = sides[f];
    st.side = f == 0 ? Side::right : Side::left;
    st.s = local.stream(st.side);
    st.peer_in = f == 0 ? pred : succ;
    st.peer_out = f == 0 ? succ : pred;
    add_out_groups(f);
    add_in_groups(f);
  }
  indices.resize(reqs.size());
}

void Redistribution::Execution::add_out_groups(int f) {
  for (const Group& g : r.out_groups_[f]) {
    OutGroup o;
    o.pos = {g.first, g.last, r.segment_items(g)};
    o.tag = r.group_tag(f, g.hops);
    o.segs = o.pos.segments();
    o.copied = o.pos.first;
    o.slot_items = std::min(o.pos.k, o.pos.size());
    o.buf.resize(static_cast<std::size_t>(std::min(S, o.segs) * o.slot_items * B));
    r.last_staging_bytes_ += o.buf.size();
    o.req = reqs.size();
    reqs.insert(reqs.end(), static_cast<std::size_t>(S), MPI_REQUEST_NULL);
    sides[f].out.push_back(std::move(o));
  }
}

// Forwarded groups get their staging now; kept ones when first staged (receive_buffer).
void Redistribution::Execution::add_in_groups(int f) {
  SideState& st = sides[f];
  for (std::size_t gi = 0; gi < r.in_groups_[f].size(); ++gi) {
    const Group& g = r.in_groups_[f][gi];
    InGroup i;
    i.items = {g.first, g.last, r.segment_items(g)};
    i.kept = g.hops == 1;
    i.tag = r.group_tag(f, g.hops);
    i.segs = i.items.segments();
    i.slot_items = std::min(i.items.k, i.items.size());
    i.cap = std::max<std::int64_t>(1, caps.in[f][gi]);
    if (!i.kept) {
      // The outgoing group that carries these items on: one hop fewer.
      for (std::size_t o = 0; o < r.out_groups_[f].size(); ++o) {
        if (r.out_groups_[f][o].hops == g.hops - 1) i.out = static_cast<int>(o);
      }
      st.out[static_cast<std::size_t>(i.out)].in = static_cast<int>(st.in.size());
      i.buf.resize(static_cast<std::size_t>(i.cap * i.slot_items * B));
      r.last_staging_bytes_ += i.buf.size();
    } else {
      i.staged.assign(static_cast<std::size_t>(i.cap), 0);
    }
    i.req = reqs.size();
    reqs.insert(reqs.end(), static_cast<std::size_t>(i.cap), MPI_REQUEST_NULL);
    st.in.push_back(std::move(i));
  }
}

// --- The step: the event loop, the notices, the agreement ---

void Redistribution::Execution::run() {
  const int succ = (r.rank_ + 1) % r.size_, pred = (r.rank_ + r.size_ - 1) % r.size_;
  StepNotices notices(r.comm_.get(), log, {pred, succ}, {succ, pred},
                      {sides[0].in.size(), sides[1].in.size()}, reqs.data());
  if (!in_place && local.kept > 0) {
    std::memcpy(dst + local.kept_to * B, src + local.kept_from * B,
                static_cast<std::size_t>(local.kept * B));
  }
  if (move_items(notices)) {
    notices.finish();
  } else {
    notices.stop(sent_counts());
  }
  const Agreement agreed = agree(r.comm_.get(), log);
  if (!agreed.failed) return;
  notices.exchange(sent_counts());
  settle(notices);
  throw Error("redist::mpi: " + agreed.message);
}

// The event loop; false when this rank stopped early (its call failed, or a neighbour stopped).
bool Redistribution::Execution::move_items(const StepNotices& notices) {
  if (log.failed()) return false;
  try {
    for (;;) {
      while (advance()) {
      }
      const int active = active_requests();
      if (active == 0 && finished()) return true;
      // Cannot happen for balanced flows without a circulation; refuse rather than hang.
      if (active == 0) {
        log.fail("the event loop has nothing to wait for before its end (an internal error)");
        return false;
      }
      wait_some();
      if (notices.neighbour_stopped()) return false;
    }
  } catch (const Stopped&) {
    return false;
  }
}

void Redistribution::Execution::wait_some() {
  int outcount = 0;
  call("MPI_Waitsome", [&] {
    return MPI_Waitsome(static_cast<int>(reqs.size()), reqs.data(), &outcount, indices.data(),
                        MPI_STATUSES_IGNORE);
  });
}

// One pass over the phases: receive and send on each side, move the kept items, release.
bool Redistribution::Execution::advance() {
  bool progress = false;
  for (int f = 0; f < 2; ++f) {
    progress |= post_receives(f);
    progress |= post_sends(f);
  }
  progress |= move_kept();
  progress |= release_received();
  return progress;
}

bool Redistribution::Execution::finished() const {
  bool done = moved;
  for (const SideState& st : sides) {
    for (const InGroup& g : st.in) done = done && g.released == g.segs;
    for (const OutGroup& o : st.out) done = done && o.next == o.segs;
  }
  return done;
}

int Redistribution::Execution::active_requests() const {
  int active = 0;
  for (std::size_t i = kNoticeSlots; i < reqs.size(); ++i) active += reqs[i] != MPI_REQUEST_NULL;
  return active;
}

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
  start("MPI_Irecv", [&] {
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
  start("MPI_Isend", [&] {
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

// --- After a failed step: settle every message in flight ---

// The segments this rank sent (started) per outgoing group, per side: its notices' counts.
StepNotices::Counts Redistribution::Execution::sent_counts() const {
  StepNotices::Counts sent;
  for (int f = 0; f < 2; ++f) {
    for (const OutGroup& o : sides[f].out) sent[f].push_back(o.next);
  }
  return sent;
}

// Every request completes and no message stays unmatched: receives are settled against what the
// upstream neighbours say they sent, then this rank's sends complete (their receivers settle
// too). Calls that fail now are logged only: the step's error is already agreed.
void Redistribution::Execution::settle(const StepNotices& notices) {
  for (int f = 0; f < 2; ++f) {
    const std::vector<std::int64_t> sent = notices.upstream_sent(f);
    for (std::size_t gi = 0; gi < sides[f].in.size(); ++gi) {
      settle_incoming(sides[f], sides[f].in[gi], gi < sent.size() ? sent[gi] : 0);
    }
  }
  for (std::size_t i = kNoticeSlots; i < reqs.size(); ++i) {
    if (reqs[i] != MPI_REQUEST_NULL) {
      log.check("MPI_Wait", [&] { return MPI_Wait(&reqs[i], MPI_STATUS_IGNORE); });
    }
  }
}

// Segments [0, sent) of the group were sent, [0, posted) have receives: matched in order, a
// receive beyond `sent` has no message (cancelled), a message beyond `posted` no receive
// (received into scratch).
void Redistribution::Execution::settle_incoming(const SideState& st, InGroup& g,
                                                std::int64_t sent) {
  for (std::int64_t j = g.released; j < g.posted; ++j) {
    MPI_Request& q = request(g, j);
    if (q == MPI_REQUEST_NULL) continue;
    if (j >= sent) log.check("MPI_Cancel", [&] { return MPI_Cancel(&q); });
    log.check("MPI_Wait", [&] { return MPI_Wait(&q, MPI_STATUS_IGNORE); });
  }
  std::vector<std::byte> scratch;
  for (std::int64_t j = g.posted; j < sent; ++j) {
    scratch.resize(static_cast<std::size_t>((g.items.seg_last(j) - g.items.seg_first(j)) * B));
    log.check("MPI_Recv", [&] {
      return MPI_Recv(scratch.data(), static_cast<int>(scratch.size()), MPI_BYTE, st.peer_in, g.tag,
                      r.comm_.get(), MPI_STATUS_IGNORE);
    });
  }
}

}  // namespace redist::mpi
