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
#include "redist/mpi/redistribution_execution.hpp"

namespace redist::mpi {

void Redistribution::execute(void* data, std::size_t item_bytes) {
  execute_impl(data, data, item_bytes, 0);
}

void Redistribution::execute(const void* in, void* out, std::size_t item_bytes) {
  execute_impl(in, out, item_bytes, 0);
}

namespace {

using namespace execution;

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

using namespace execution;

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
