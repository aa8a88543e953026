// Dynamic load balancing of an iterative MPI application with a 1-D block distribution: after
// each iteration, measure every rank's speed, let a rebalancing policy decide (docs/balance.md, the
// same redist::balance::Policy objects as the model simulator) and, when it says so, move the
// blocks to the balanced targets with an optimal ring redistribution (Redistribution). Source: the
// model is RRV04 §8 (an iterative application on a heterogeneous ring); the API splits deciding
// from migrating as Zoltan does (decide / plan / execute); the rest is ours.
//
// Layout. Rank i holds a contiguous block of the global sequence of N items, the blocks in rank
// order; a ring redistribution may rotate the sequence (mpi/local_plan.hpp), so the Rebalancer
// tracks where each block starts: global_start() is the global index (mod N) of this rank's
// first item.
//
// Per iteration. The application reports the work it did (items processed) and the time it took
// with record(work, seconds), or brackets its computation with start_iteration() and
// end_iteration(work) (MPI_Wtime); reports accumulate until the next decision. Then, after
// iteration k (counted from 1), maybe_rebalance(data) (or decide() + plan() + execute):
//   1. one MPI_Allgather of every rank's work, time and data size;
//   2. on rank 0: the speeds s_i, the balanced targets of s (redist::balance::balanced_targets),
//      T and T_bal, and the policy's decision, whose plan_makespan is planned locally by the ring
//      planner `auto` (redist::balance::redistribution_makespan, no communication); the decision
//      is broadcast, so every rank gets the same answer even though clocks and floating point may
//      differ between hosts;
//   3. if it says rebalance: a Redistribution (collective, planned on rank 0) from the current
//      counts to the targets, executed on `data`.
// Speeds and decisions. Rank 0 runs a redist::balance::RebalanceController
// (redist/balance/controller.hpp), the same code the simulated application of RRV04 §8 runs: by
// default the policy sees speed estimates (redist/balance/speed_estimate.hpp: levels, changes
// confirmed against the measured noise) and the model's times at those speeds, so that timing
// noise does not show as a gain; balance::RebalanceSettings{estimate_speeds = false} gives it the
// raw speeds and the measured time instead. Either way the reports carry the measured time. The
// redistributions maybe_rebalance executes are timed and reported to the controller, which scales
// the planned makespans the policy sees once measured ones stray more than 5% from them (cost
// calibration; with the split API the caller executes and nothing is reported). The policy is
// consulted after iterations 1..K-1, as in the simulator; after iteration K the answer is no.
//
// Collective contract. The constructor, decide(), plan() and maybe_rebalance() are collective
// over the communicator: every rank calls them in the same order. Bad input (a negative count or
// work, a time that is negative or not finite, no time (or 0) from a rank that holds items or
// reports work, a data size that differs from count(), item sizes that differ, an unknown
// policy or `oracle`, policy names, K or balance::RebalanceSettings that differ between ranks, more
// than K decisions, link costs or Options the executor refuses, items of a size that makes one
// segment of Options::segment_items items larger than an MPI message, a `plan` of a decision
// that is not the last one, was already planned or differs between ranks, an exception from the
// policy) makes every rank throw the same redist::mpi::Error before any item moves and before
// the layout changes; record() and end_iteration() never throw, the next collective call reports
// their bad values. No deadlock: every rank takes the same branches, decided from gathered or
// broadcast data. A failed MPI call (the Rebalancer runs on its own duplicate of the
// communicator, with MPI_ERRORS_RETURN) makes every rank throw the same Error at the end of the
// step, the layout unchanged (redist/mpi/communicator.hpp).
//
// Guarantee: after maybe_rebalance (or plan + execute) rank i holds the items
// [global_start(), global_start() + count()) (mod N) in order, nothing lost or duplicated, and
// after a rebalance count() is its balanced target for the speeds of the decision. When the
// measured times are n_i / s_i(t), the decisions are those of `redist balance simulate` on the
// same speeds, with or without the estimator (without noise it returns the measured speeds; the
// header of speed_estimate.hpp says when exactly; docs/mpi.md). Complexity per decision: one
// MPI_Allgather of 48 bytes per rank, two broadcasts of O(p) bytes, O(p log p) for the targets
// and O(p) for the estimator on rank 0, plus the policy's plan (the ring planner, only when the
// policy asks for it); per rebalance one more broadcast of O(p) bytes and the Redistribution's
// costs (mpi/redistribution.hpp).
#pragma once

#include <mpi.h>

#include <algorithm>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

#include "redist/balance/controller.hpp"
#include "redist/balance/model.hpp"
#include "redist/balance/policy.hpp"
#include "redist/mpi/redistribution.hpp"

namespace redist::mpi {

// How the Rebalancer turns measurements into speeds (balance::RebalanceSettings, the same on every
// rank; checked) and what rank 0 decided after one iteration (balance::RebalanceDecision, identical
// on every rank) are the types of the deciding half, redist/balance/controller.hpp, which rank 0
// runs.

// What maybe_rebalance did (identical on every rank except count and global_start).
struct RebalanceReport {
  std::int64_t after_iteration = 0;
  bool rebalanced = false;
  bool moved = false;  // items were redistributed (not when the targets equal the counts)
  std::string reason;
  double predicted_saving = 0.0;
  // Rebalanced: the executed plan's model makespan (0: nothing moved); else the policy's planned
  // makespan (0 when it planned none).
  double plan_makespan = 0.0;
  double redistribution_seconds = 0.0;  // measured execute time, max over ranks
  double iteration_time = 0.0;          // max_i time_i of the iteration just measured
  std::int64_t count = 0;               // this rank's items now
  std::int64_t global_start = 0;        // global index (mod N) of its first item now
  std::vector<std::int64_t> counts;     // every rank's items now
};

// Link costs measured by calibrate_link_costs at construction.
struct Calibration {
  std::size_t item_bytes = 8;
  std::int64_t items = 256;
  int repetitions = 5;
};

class Rebalancer {
 public:
  // Collective. `count`: this rank's items now (its block follows the lower ranks' blocks, rank
  // 0's starting at global index 0). `costs`: this rank's link costs per item (to succ, to pred),
  // as for Redistribution. `policy`: a redist::balance::make_policy name for a run of
  // `iterations` (K) iterations. `options`: the executor's. `settings`: how speeds are measured
  // (above). Throws Error on every rank on bad input (see above).
  Rebalancer(MPI_Comm comm, std::int64_t count, LinkCosts costs, std::string_view policy,
             std::int64_t iterations, Options options = {},
             balance::RebalanceSettings settings = {});
  // Same, with a policy object of the caller's: rank 0's decides (the other ranks' are not used
  // and may be nullptr); what it throws is reported on every rank.
  Rebalancer(MPI_Comm comm, std::int64_t count, LinkCosts costs,
             std::unique_ptr<balance::Policy> policy, std::int64_t iterations, Options options = {},
             balance::RebalanceSettings settings = {});
  // Same, with the costs measured by calibrate_link_costs (collective ping-pongs).
  Rebalancer(MPI_Comm comm, std::int64_t count, Calibration calibration, std::string_view policy,
             std::int64_t iterations, Options options = {},
             balance::RebalanceSettings settings = {});
  ~Rebalancer();
  Rebalancer(const Rebalancer&) = delete;
  Rebalancer& operator=(const Rebalancer&) = delete;

  // Local. Adds `work` items processed in `seconds` to this iteration's report.
  void record(double work, double seconds);
  // Local. Times the computation with MPI_Wtime: end_iteration records the elapsed time.
  void start_iteration();
  void end_iteration(double work);

  // Collective: steps 1 and 2 above. Consumes the recorded work and time.
  balance::RebalanceDecision decide();
  // Collective: the Redistribution from the decision's counts to its targets (whatever the
  // policy said: a caller may force a rebalance), for the caller to execute before its next
  // iteration. count(), counts() and global_start() describe the new layout from now on. Returns
  // nullptr when the targets equal the counts (nothing moves). Throws Error on every rank if
  // `decision` is not the last one decided, was already planned or differs between ranks.
  std::unique_ptr<Redistribution> plan(const balance::RebalanceDecision& decision);

  // Collective: decide, and if the policy says so, plan and execute in place on `data` (its
  // size must be count(); resized to the new count).
  template <class T>
  RebalanceReport maybe_rebalance(std::vector<T>& data) {
    balance::RebalanceDecision d = decide_with(bytes_of(data), sizeof(T));
    return finish(d, [&](Redistribution& r) { r.execute(data); });
  }
  // Collective, in place, for items whose size is known at run time: an item is `per_item`
  // consecutive elements of `data` (size count() x per_item; resized to the new count x
  // per_item). Item sizes must agree between ranks.
  template <class T>
  RebalanceReport maybe_rebalance(std::vector<T>& data, std::size_t per_item) {
    static_assert(std::is_trivially_copyable_v<T>, "items are moved as bytes");
    // An item size beyond size_t is reported as 0 bytes (refused collectively).
    const std::size_t item_bytes = per_item <= SIZE_MAX / sizeof(T) ? per_item * sizeof(T) : 0;
    balance::RebalanceDecision d = decide_with(bytes_of(data), item_bytes);
    return finish(d, [&](Redistribution& r) {
      const std::size_t before = data.size();
      data.resize(static_cast<std::size_t>(std::max(r.local().load, r.local().target)) * per_item);
      try {
        r.execute(data.data(), per_item * sizeof(T));
      } catch (...) {
        data.resize(before);
        throw;
      }
      data.resize(static_cast<std::size_t>(r.local().target) * per_item);
    });
  }
  // Collective, out of place: `in` (size count()) is read, never written; when the report says
  // moved, `out` holds the new block (resized to the new count), else it is untouched and `in`
  // is still this rank's block.
  template <class T>
  RebalanceReport maybe_rebalance(const std::vector<T>& in, std::vector<T>& out) {
    balance::RebalanceDecision d = decide_with(bytes_of(in), sizeof(T));
    return finish(d, [&](Redistribution& r) { r.execute(in, out); });
  }

  std::int64_t count() const { return counts_[static_cast<std::size_t>(rank_)]; }
  const std::vector<std::int64_t>& counts() const { return counts_; }
  std::int64_t global_start() const;
  std::int64_t items() const { return total_; }
  std::int64_t iterations() const { return iterations_; }
  std::int64_t decisions() const { return after_; }  // iterations decided so far
  const std::string& policy() const { return policy_name_; }
  LinkCosts costs() const { return costs_; }
  const balance::RingCosts& ring() const { return ring_; }

 private:
  // The others delegate here: a policy by name, or (custom) a policy object.
  Rebalancer(MPI_Comm comm, std::int64_t count, LinkCosts costs, std::string name,
             std::unique_ptr<balance::Policy> object, bool custom, std::int64_t iterations,
             Options options, balance::RebalanceSettings settings);
  // The layout changes only once the items have moved: an executor's refusal (collective)
  // leaves count() and data as they were.
  template <class Execute>
  RebalanceReport finish(const balance::RebalanceDecision& d, Execute&& execute) {
    RebalanceReport report = report_of(d);
    if (!d.rebalance) return complete(report);
    std::unique_ptr<Redistribution> r = prepare(d);
    report.plan_makespan = 0.0;
    if (r) {
      report.moved = true;
      const double t0 = MPI_Wtime();
      execute(*r);
      report.plan_makespan = r->model_makespan();
      report.redistribution_seconds = max_over_ranks(MPI_Wtime() - t0);
      if (controller_)
        controller_->redistributed(report.plan_makespan, report.redistribution_seconds);
    }
    commit(d, r ? r->rotation() : 0);
    return complete(report);
  }
  template <class T>
  static std::int64_t bytes_of(const std::vector<T>& v) {
    return static_cast<std::int64_t>(v.size() * sizeof(T));
  }
  // data_bytes < 0: no data (decide()).
  balance::RebalanceDecision decide_with(std::int64_t data_bytes, std::size_t item_bytes);
  std::string gather_setup(std::int64_t count);  // counts, costs, agreement; the error or ""
  void broadcast_decision(std::string& error, balance::RebalanceDecision& d) const;  // from rank 0
  std::string make_root_state();  // rank 0: the controller; the error or ""
  // Checks `d` (collectively), tells the policy and builds the Redistribution; nullptr when
  // nothing moves. Layout unchanged.
  std::unique_ptr<Redistribution> prepare(const balance::RebalanceDecision& d);
  void notify_policy(
      const balance::RebalanceDecision& d);  // collective: the policy's error, if any
  void commit(const balance::RebalanceDecision& d, std::int64_t rotation);
  RebalanceReport report_of(const balance::RebalanceDecision& d) const;
  RebalanceReport complete(RebalanceReport report) const;
  double max_over_ranks(double value) const;
  [[noreturn]] void fail(const std::string& message) const;

  Communicator comm_;  // the caller's, duplicated (MPI_ERRORS_RETURN)
  int rank_ = 0;
  int size_ = 1;
  LinkCosts costs_;
  Options options_;
  balance::RebalanceSettings settings_;
  balance::RingCosts ring_;                  // every rank's costs (gathered)
  std::string policy_name_;                  // rank 0's
  bool custom_policy_ = false;               // a policy object, not a name
  std::unique_ptr<balance::Policy> policy_;  // a policy object given, until rank 0's controller
  std::unique_ptr<balance::RebalanceController> controller_;  // rank 0 only
  std::int64_t iterations_ = 0;
  std::int64_t after_ = 0;    // decisions taken
  std::int64_t planned_ = 0;  // the decision last planned
  std::int64_t total_ = 0;    // N
  std::int64_t origin_ = 0;   // global index of rank 0's first item
  std::vector<std::int64_t> counts_;
  // This iteration's report so far.
  double work_ = 0.0;
  double seconds_ = 0.0;
  double started_ = -1.0;
  std::int64_t local_error_ = 0;  // bit flags, reported at the next decision
  double bad_value_ = 0.0;        // the first bad value recorded
};

}  // namespace redist::mpi
