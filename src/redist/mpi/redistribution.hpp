// Executes an optimal ring redistribution of an ordered 1-D block distribution on MPI ranks.
//
// Rank i of the communicator is processor i of the ring. Built once per communicator, item
// counts and cost model (collective: every rank constructs it), then reused to move any number
// of arrays (execute). Plan: counts and costs are gathered (MPI_Allgather), checked identically
// on every rank, planned on rank 0 (mpi/local_plan.hpp plan_flows) and the flows broadcast, so
// every rank executes the same flows even if planners were not bit-reproducible across hosts.
//
// Guarantee: after execute, rank i holds the items [final_start, final_start + new_count) of the
// global sequence (mod N) in order (docs/mpi.md); no item is lost, duplicated or reordered.
// Errors are collective: every rank throws the same redist::mpi::Error, for bad input before any
// item moves. MPI errors too (communicator.hpp): the object communicates on its own duplicate of
// the caller's communicator with MPI_ERRORS_RETURN, so a failing call returns its code whatever
// the caller's error handler; every call's code is checked, and each collective step (the
// constructor, each execute) ends with an agreement from which every rank throws the Error of
// the lowest failing rank ("redist::mpi: execute: MPI_Isend failed on rank 2: ..."). Within an
// execute, a rank that stops early tells its two neighbours (a failure notice) so that none waits
// for it forever; after the agreement, the ranks settle every message in flight, so the object
// stays usable. After a failed execute the output buffer's contents are unspecified (in place:
// the old block may be partly overwritten; out of place, `in` is untouched).
// Execution (docs/mpi.md): the items of each link are split by destination rank into groups, each
// an ordered sub-stream of segments (segment_items items per message). A receiver takes groups
// in stream order and lets a later group overtake only when the earlier ones are held up
// downstream, so items cross as in the model's schedule; kept items go straight to their final
// offsets when free. With Options::one_port a rank sends one message at a time, and one that
// receives from both sides posts one receive at a time, both in the model's order. Deadlock
// freedom: nonblocking sends and receives; a rank only waits for its downstream neighbours (a
// posted send is always one its receiver has open), and some link carries no item. Memory: besides
// the caller's buffers, per incoming group a number of one-segment staging slots (default: the
// model schedule's peak of items held at this rank, plus 2, capped by max_staging_bytes; or
// Options::window) and per outgoing group sends_in_flight message buffers: the items in flight,
// never proportional to the global data (staging_bound()). Complexity: construction O(planner + R
// log R + n) per rank for R schedule runs; per execute O(items sent + received + kept) copies and
// O(segments) messages.
#pragma once

#include <mpi.h>

#include <cstddef>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <vector>

#include "redist/mpi/communicator.hpp"
#include "redist/mpi/local_plan.hpp"
#include "redist/ring/model.hpp"

namespace redist::mpi {

// Limits (docs/mpi.md, "Limits and extreme inputs"): refused collectively at construction.
inline constexpr std::int64_t kMaxSendsInFlight = 64;       // Options::sends_in_flight
inline constexpr std::size_t kMaxScheduleRuns = 1'000'000;  // runs of the model's schedule

struct Options {
  Mode mode = Mode::ring;
  bool bidirectional = true;          // false: items only move to succ(i)
  std::int64_t segment_items = 1024;  // at most this many items per message (>= 1)
  // Each group is cut into at least this many segments (fewer items per message than
  // segment_items when the group is small), so that forwarders pipeline it: a chain of h links
  // then costs about (h - 1) / min_segments of the group's time beyond the model's.
  std::int64_t min_segments = 64;
  // Staging slots (segments) per incoming group. 0 (default): automatic, from the model's
  // schedule: enough for the most items the schedule has this rank hold at once (plus 2), so the
  // execution follows the model; capped by max_staging_bytes. >= 2: that many (1 is refused),
  // raised only to a group's deadlock floor (docs/mpi.md, Memory).
  std::int64_t window = 0;
  // Automatic windows shrink (to no fewer than 2 slots per group) to keep a rank's staging within
  // this many bytes per execute; 0: no cap; negative is refused.
  std::int64_t max_staging_bytes = std::int64_t{64} << 20;
  // Messages in transmission per outgoing sub-stream (1..kMaxSendsInFlight; others are
  // refused). 1 sends segments one after the
  // other, as the model does (concurrent messages on one link would share its bandwidth and
  // delay the first segment); larger values hide per-message completion latency.
  std::int64_t sends_in_flight = 1;
  std::string algorithm = "auto";  // ring planner (ring mode; used on rank 0)
  // One-port network: a rank that sends both ways sends one direction at a time, switching in the
  // order of the model's schedule (which the one-port model's makespan assumes); otherwise both
  // directions send at once, which is faster on networks where a host can.
  bool one_port = false;
};

// This rank's outgoing link costs (time per item): to succ and to pred.
struct LinkCosts {
  double next = 1.0;
  double prev = 1.0;
};

// Optional calibration: timed ping-pongs over every link in turn (collective, on a duplicate of
// `comm`). Each link's cost is the time per item of `items` items of `item_bytes` bytes,
// acknowledged by one byte, averaged over `repetitions`. Throws Error on every rank if a rank
// passes items < 1, repetitions < 1, item_bytes < 1 or a message of items x item_bytes over
// 2^31-1 bytes, or when an MPI call fails (agreed after each link). Complexity: O(n *
// repetitions) messages, one link busy at a time.
LinkCosts calibrate_link_costs(MPI_Comm comm, std::size_t item_bytes, std::int64_t items = 256,
                               int repetitions = 5);

class Redistribution {
 public:
  // Collective. Throws Error (same text everywhere) on a negative count, sums that differ,
  // non-finite or non-positive costs, options out of range or that differ between ranks, a
  // planning failure, a model makespan that overflows or a schedule over kMaxScheduleRuns runs,
  // and when an MPI call fails on some rank.
  Redistribution(MPI_Comm comm, std::int64_t old_count, std::int64_t new_count, LinkCosts costs,
                 Options options = {});
  ~Redistribution();
  Redistribution(const Redistribution&) = delete;
  Redistribution& operator=(const Redistribution&) = delete;

  // Collective. `data` has room for max(old_count, new_count) items of item_bytes bytes; the
  // first old_count are this rank's block on entry, the first new_count its new block on exit.
  // Throws Error on every rank (before moving anything) if some rank passes item_bytes == 0,
  // item sizes differ, or a rank with items passes a null buffer; and (after the step) when an
  // MPI call failed on some rank.
  void execute(void* data, std::size_t item_bytes);

  // Collective, out of place: `in` holds old_count items, `out` has room for new_count; they must
  // not overlap (the same pointer for both means in place). Kept items are copied at once and
  // received items go straight to their final offsets, so no received item waits for this rank's
  // outgoing items to leave, and `in` is never written.
  void execute(const void* in, void* out, std::size_t item_bytes);

  // Typed, out of place: in.size() must equal old_count (checked collectively); out is resized to
  // new_count.
  template <class T>
  void execute(const std::vector<T>& in, std::vector<T>& out) {
    static_assert(std::is_trivially_copyable_v<T>, "items are moved as bytes");
    const bool ok = static_cast<std::int64_t>(in.size()) == local_.load && &in != &out;
    if (ok) out.resize(static_cast<std::size_t>(local_.target));
    execute_impl(in.data(), ok ? out.data() : nullptr, sizeof(T), ok ? 0 : 1);
  }

  // Typed convenience: v.size() must equal old_count (checked collectively); resized to new_count.
  template <class T>
  void execute(std::vector<T>& v) {
    static_assert(std::is_trivially_copyable_v<T>, "items are moved as bytes");
    const bool ok = static_cast<std::int64_t>(v.size()) == local_.load;
    const std::size_t old_size = v.size();
    if (ok) v.resize(static_cast<std::size_t>(std::max(local_.load, local_.target)));
    try {
      execute_impl(v.data(), v.data(), sizeof(T), ok ? 0 : 1);
    } catch (...) {
      v.resize(old_size);
      throw;
    }
    v.resize(static_cast<std::size_t>(local_.target));
  }

  int rank() const { return rank_; }  // in the communicator given (which has size() ranks)
  int size() const { return size_; }
  const ring::Instance& instance() const { return instance_; }
  const FlowPlan& plan() const { return plan_; }
  const LocalPlan& local() const { return local_; }
  std::int64_t rotation() const { return plan_.rotation; }
  double model_makespan() const { return plan_.makespan; }
  // Bytes of staging buffers allocated by the last execute on this rank, and the bound they obey.
  std::size_t last_staging_bytes() const { return last_staging_bytes_; }
  std::size_t staging_bound(std::size_t item_bytes, bool in_place = true) const;
  // Messages this rank sends and receives per execute, and the MPI requests it can have posted
  // at once (staging slots plus send buffers): what a caller bounds to limit time and memory.
  std::int64_t messages() const;
  std::int64_t request_slots(std::size_t item_bytes, bool in_place = true) const;

 private:
  void execute_impl(const void* in, void* out, std::size_t item_bytes, int local_error);
  struct Execution;  // one execute's state and the phases of its event loop

  // The constructor's steps (ring of at least 2 ranks after the first).
  struct Gathered;  // every rank's counts, options and costs
  Gathered gather(std::int64_t old_count, std::int64_t new_count, LinkCosts costs) const;
  void refuse_bad_input(const Gathered& all) const;  // the same Error on every rank
  void build_instance(const Gathered& all);          // the ring instance, the span of group tags
  void receive_plan();                               // planned on rank 0, broadcast
  void find_groups();                                // this rank's streams and destination groups
  void read_schedule();       // the model's departures at this rank and its upstream neighbours
  void size_staging_peaks();  // the model's peak of held items per incoming group

  Communicator comm_;  // the caller's, duplicated (MPI_ERRORS_RETURN)
  int rank_ = 0;
  int size_ = 1;
  Options options_;
  ring::Instance instance_;
  FlowPlan plan_;
  LocalPlan local_;
  std::size_t last_staging_bytes_ = 0;
  DepartureTimes departures_[2];          // one_port: the model's departures to succ and to pred
  DepartureTimes upstream_[2];            // the upstream neighbours' departures towards this rank
  double upstream_cost_[2] = {1.0, 1.0};  // and their link costs (arrival = departure + cost)
  // Destination groups (mpi/local_plan.hpp) of the streams through this rank, [0] items moving
  // to succ, [1] to pred: received from the upstream neighbour, and sent.
  std::vector<Group> in_groups_[2], out_groups_[2];
  std::vector<std::int64_t> in_peaks_[2];  // the model's peak of held items, per incoming group
  struct Slots {
    std::vector<std::int64_t> in[2];     // staging slots per incoming group
    std::vector<std::int64_t> floor[2];  // the fewest that cannot deadlock
    std::int64_t sends = 1;              // message buffers per outgoing group
  };
  Slots slots(std::size_t item_bytes, bool in_place) const;
  std::int64_t deadlock_floor(int f, const Group& g) const;
  std::int64_t wanted_slots(int f, std::size_t i, bool in_place, std::int64_t floor) const;
  void shrink_to_budget(Slots& slots, std::int64_t bytes, std::int64_t shrinkable,
                        bool in_place) const;
  int tag_span_ = 1;  // distinct hop counts that get distinct tags
  int group_tag(int side, std::int64_t hops) const;
  std::int64_t segment_items(const Group& g) const;  // items per message of a group
};

}  // namespace redist::mpi
