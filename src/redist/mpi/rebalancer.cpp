#include "redist/mpi/rebalancer.hpp"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <exception>
#include <limits>
#include <span>
#include <stdexcept>
#include <type_traits>
#include <utility>

#include <fmt/format.h>

#include "redist/balance/targets.hpp"
#include "redist/mpi/packer.hpp"

namespace redist::mpi {

namespace {

// Local problems seen by record / end_iteration, reported at the next decision.
constexpr std::int64_t kBadWork = 1;
constexpr std::int64_t kBadTime = 2;
constexpr std::int64_t kNoStart = 4;

// One rank's contribution to a decision (gathered as bytes: every rank runs the same binary).
struct Sample {
  std::int64_t data_bytes = -1;  // -1: decide() without data
  std::int64_t item_bytes = 0;
  std::int64_t flags = 0;
  double work = 0.0;
  double seconds = 0.0;
  double bad_value = 0.0;
};
static_assert(std::is_trivially_copyable_v<Sample>);

// Rank 0's string (an error, or "") on every rank; collective, agreed.
void broadcast_string(MPI_Comm comm, int rank, std::string& text) {
  CallLog log("Rebalancer", rank);
  Packer p;
  p.put(text);
  broadcast_bytes(comm, log, p.bytes);
  p.get(text);
}

std::int64_t floor_mod(std::int64_t a, std::int64_t n) {
  const std::int64_t r = a % n;
  return r < 0 ? r + n : r;
}

void pack(Packer& p, const balance::RebalanceDecision& d) {
  p.put(d.after_iteration);
  p.put(d.rebalance);
  p.put(d.reason);
  p.put(d.predicted_saving);
  p.put(d.planned);
  p.put(d.plan_makespan);
  p.put(d.cost_factor);
  p.put(d.iteration_time);
  p.put(d.measured_time);
  p.put(d.balanced_time);
  p.put(d.bound_time);
  p.put(d.consulted);
  p.put(d.counts);
  p.put(d.targets);
  p.put(d.speeds);
}

void unpack(Packer& p, balance::RebalanceDecision& d) {
  p.get(d.after_iteration);
  p.get(d.rebalance);
  p.get(d.reason);
  p.get(d.predicted_saving);
  p.get(d.planned);
  p.get(d.plan_makespan);
  p.get(d.cost_factor);
  p.get(d.iteration_time);
  p.get(d.measured_time);
  p.get(d.balanced_time);
  p.get(d.bound_time);
  p.get(d.consulted);
  p.get(d.counts);
  p.get(d.targets);
  p.get(d.speeds);
}

// The first problem in the gathered samples (the same text on every rank), or "".
// `segment_items`: the executor's, whose messages must fit an MPI count of bytes.
std::string check_samples(const std::vector<Sample>& samples,
                          const std::vector<std::int64_t>& counts, std::int64_t segment_items) {
  for (std::size_t r = 0; r < samples.size(); ++r) {
    const Sample& s = samples[r];
    if (s.flags & kBadWork)
      return fmt::format("rank {}: work must be finite and >= 0 (got {})", r, s.bad_value);
    if (s.flags & kBadTime)
      return fmt::format("rank {}: a time must be finite and >= 0 (got {})", r, s.bad_value);
    if (s.flags & kNoStart) return fmt::format("rank {}: end_iteration without start_iteration", r);
    if (!std::isfinite(s.work) || s.work < 0)
      return fmt::format("rank {}: work must be finite and >= 0 (got {})", r, s.work);
    if (!std::isfinite(s.seconds) || s.seconds < 0)
      return fmt::format("rank {}: a time must be finite and >= 0 (got {})", r, s.seconds);
    // A rank without items may report nothing; one with items or work needs its time.
    if ((counts[r] > 0 || s.work > 0) && !(s.seconds > 0)) {
      return fmt::format(
          "rank {}: the iteration time must be > 0 for a rank with {} items and work {} (report "
          "it with record or start_iteration/end_iteration)",
          r, counts[r], s.work);
    }
    if (s.data_bytes < 0) continue;
    if (s.item_bytes < 1) return fmt::format("rank {}: the item size must be >= 1 byte", r);
    if (s.item_bytes != samples[0].item_bytes) {
      return fmt::format("item sizes differ: {} bytes on rank 0, {} on rank {}",
                         samples[0].item_bytes, s.item_bytes, r);
    }
    if (s.data_bytes % s.item_bytes != 0) {
      return fmt::format("rank {}: data of {} bytes is not a whole number of {}-byte items", r,
                         s.data_bytes, s.item_bytes);
    }
    if (s.data_bytes / s.item_bytes != counts[r]) {
      return fmt::format("rank {}: data holds {} items but the rank's count is {}", r,
                         s.data_bytes / s.item_bytes, counts[r]);
    }
    // The executor would refuse it only when items move, after the layout had changed.
    if (segment_items > std::numeric_limits<int>::max() / s.item_bytes) {
      return fmt::format(
          "a segment of {} items of {} bytes exceeds one MPI message (2^31-1 bytes): lower "
          "Options::segment_items",
          segment_items, s.item_bytes);
    }
  }
  return {};
}

// Bits of the settings, to compare them between ranks.
std::vector<double> settings_words(const balance::RebalanceSettings& s) {
  return {s.estimate_speeds ? 1.0 : 0.0, s.estimate.threshold, s.estimate.large_deviation,
          s.estimate.refresh, s.estimate.floor};
}

}  // namespace

Rebalancer::Rebalancer(MPI_Comm comm, std::int64_t count, LinkCosts costs, std::string_view policy,
                       std::int64_t iterations, Options options,
                       balance::RebalanceSettings settings)
    : Rebalancer(comm, count, costs, std::string(policy), nullptr, false, iterations,
                 std::move(options), settings) {}

Rebalancer::Rebalancer(MPI_Comm comm, std::int64_t count, LinkCosts costs,
                       std::unique_ptr<balance::Policy> policy, std::int64_t iterations,
                       Options options, balance::RebalanceSettings settings)
    : Rebalancer(comm, count, costs, std::string(), std::move(policy), true, iterations,
                 std::move(options), settings) {}

Rebalancer::Rebalancer(MPI_Comm comm, std::int64_t count, LinkCosts costs, std::string name,
                       std::unique_ptr<balance::Policy> object, bool custom,
                       std::int64_t iterations, Options options,
                       balance::RebalanceSettings settings)
    : comm_(comm, "Rebalancer"),
      rank_(comm_.rank()),
      size_(comm_.size()),
      costs_(costs),
      options_(std::move(options)),
      settings_(settings),
      policy_name_(std::move(name)),
      custom_policy_(custom),
      policy_(std::move(object)),
      iterations_(iterations) {
  if (custom_policy_ && policy_) policy_name_ = policy_->name();
  if (rank_ != 0) policy_.reset();  // only rank 0 decides
  std::string error = gather_setup(count);
  if (error.empty() && rank_ == 0) error = make_root_state();
  broadcast_string(comm_.get(), rank_, error);
  if (!error.empty()) fail(error);
  // The executor checks costs and options collectively: a plan that moves nothing.
  Redistribution probe(comm_.get(), count, count, costs_, options_);
}

std::string Rebalancer::gather_setup(std::int64_t count) {
  const std::size_t n = static_cast<std::size_t>(size_);
  CallLog log("Rebalancer", rank_);
  // Every rank must run the same policy for the same K and settings: compare with rank 0's.
  const std::vector<double> my_settings = settings_words(settings_);
  Packer root;
  root.put(policy_name_);
  root.put(iterations_);
  root.put(my_settings);
  broadcast_bytes(comm_.get(), log, root.bytes);
  std::string root_policy;
  std::int64_t root_iterations = 0;
  std::vector<double> root_settings;
  root.get(root_policy);
  root.get(root_iterations);
  root.get(root_settings);
  const bool same_settings = std::memcmp(root_settings.data(), my_settings.data(),
                                         my_settings.size() * sizeof(double)) == 0;
  // A policy object of the caller's: rank 0's is the one used, whatever the others passed.
  const bool other_policy = !custom_policy_ && root_policy != policy_name_;
  policy_name_ = root_policy;
  const std::int64_t mine[4] = {count, other_policy ? 1 : 0, root_iterations != iterations_ ? 1 : 0,
                                same_settings ? 0 : 1};
  std::vector<std::int64_t> all(4 * n);
  log.check("MPI_Allgather", [&] {
    return MPI_Allgather(mine, 4, MPI_INT64_T, all.data(), 4, MPI_INT64_T, comm_.get());
  });
  const double my_costs[2] = {costs_.next, options_.bidirectional ? costs_.prev : 1.0};
  std::vector<double> all_costs(2 * n);
  log.check("MPI_Allgather", [&] {
    return MPI_Allgather(my_costs, 2, MPI_DOUBLE, all_costs.data(), 2, MPI_DOUBLE, comm_.get());
  });
  agree_or_throw(comm_.get(), log);
  ring_.bidirectional = options_.bidirectional;
  for (std::size_t r = 0; r < n; ++r) {
    const std::int64_t c = all[4 * r];
    if (c < 0) return fmt::format("negative count {} on rank {}", c, r);
    if (all[4 * r + 1]) return fmt::format("policy names differ between rank 0 and rank {}", r);
    if (all[4 * r + 2]) return fmt::format("iteration counts differ between rank 0 and rank {}", r);
    if (all[4 * r + 3])
      return fmt::format("RebalanceSettings differ between rank 0 and rank {}", r);
    if (__builtin_add_overflow(total_, c, &total_)) return "item counts overflow 64 bits";
    counts_.push_back(c);
    ring_.cost_next.push_back(all_costs[2 * r]);
    if (options_.bidirectional) ring_.cost_prev.push_back(all_costs[2 * r + 1]);
  }
  if (iterations_ < 1 || iterations_ > balance::kMaxIterations)
    return fmt::format("iterations must be in 1..{} (got {})", balance::kMaxIterations,
                       iterations_);
  return {};
}

std::string Rebalancer::make_root_state() {
  if (custom_policy_ && !policy_) return "rank 0 passed no policy object";
  if (!custom_policy_ && policy_name_ == "oracle")
    return "the `oracle` policy needs every future speed: only the model simulator offers it";
  try {
    if (!custom_policy_) policy_ = balance::make_policy(policy_name_, iterations_);
    controller_ = std::make_unique<balance::RebalanceController>(ring_, std::move(policy_),
                                                                 iterations_, settings_);
  } catch (const std::exception& e) {
    return e.what();
  }
  return {};
}

Rebalancer::Rebalancer(MPI_Comm comm, std::int64_t count, Calibration calibration,
                       std::string_view policy, std::int64_t iterations, Options options,
                       balance::RebalanceSettings settings)
    : Rebalancer(comm, count,
                 calibrate_link_costs(comm, calibration.item_bytes, calibration.items,
                                      calibration.repetitions),
                 policy, iterations, std::move(options), settings) {}

Rebalancer::~Rebalancer() = default;

void Rebalancer::fail(const std::string& message) const { throw Error("redist::mpi: " + message); }

void Rebalancer::record(double work, double seconds) {
  if (!std::isfinite(work) || work < 0) {
    if (local_error_ == 0) bad_value_ = work;
    local_error_ |= kBadWork;
  }
  if (!std::isfinite(seconds) || seconds < 0) {
    if (local_error_ == 0) bad_value_ = seconds;
    local_error_ |= kBadTime;
  }
  work_ += work;
  seconds_ += seconds;
}

void Rebalancer::start_iteration() { started_ = MPI_Wtime(); }

void Rebalancer::end_iteration(double work) {
  if (started_ < 0) {
    local_error_ |= kNoStart;
    return;
  }
  record(work, MPI_Wtime() - started_);
  started_ = -1.0;
}

std::int64_t Rebalancer::global_start() const {
  if (total_ == 0) return 0;
  std::int64_t start = origin_;
  for (int r = 0; r < rank_; ++r) start += counts_[static_cast<std::size_t>(r)];
  return floor_mod(start, total_);
}

double Rebalancer::max_over_ranks(double value) const {
  // A duration >= 0: its bits order as the values do, so the agreement's maximum carries it.
  value = std::max(value, 0.0);
  std::int64_t bits = 0;
  std::memcpy(&bits, &value, sizeof bits);
  agree_or_throw(comm_.get(), CallLog("Rebalancer", rank_), std::span(&bits, 1));
  std::memcpy(&value, &bits, sizeof value);
  return value;
}

balance::RebalanceDecision Rebalancer::decide() { return decide_with(-1, 0); }

balance::RebalanceDecision Rebalancer::decide_with(std::int64_t data_bytes,
                                                   std::size_t item_bytes) {
  // The decision counter is the same on every rank: refusing here needs no communication.
  if (after_ >= iterations_)
    fail(fmt::format("more decisions than the {} iterations given at construction", iterations_));
  Sample mine{data_bytes, static_cast<std::int64_t>(item_bytes), local_error_, work_, seconds_,
              bad_value_};
  work_ = seconds_ = 0.0;
  local_error_ = 0;
  started_ = -1.0;
  std::vector<Sample> samples(static_cast<std::size_t>(size_));
  CallLog log("Rebalancer", rank_);
  log.check("MPI_Allgather", [&] {
    return MPI_Allgather(&mine, sizeof(Sample), MPI_BYTE, samples.data(), sizeof(Sample), MPI_BYTE,
                         comm_.get());
  });
  agree_or_throw(comm_.get(), log);
  std::string error = check_samples(samples, counts_, options_.segment_items);
  if (!error.empty()) fail(error);  // the same on every rank: gathered data
  ++after_;
  balance::RebalanceDecision d;
  if (rank_ == 0) {
    std::vector<double> work, seconds;
    for (const Sample& s : samples) {
      work.push_back(s.work);
      seconds.push_back(s.seconds);
    }
    try {
      d = controller_->decide(counts_, work, seconds);
    } catch (const std::exception& e) {
      error = e.what();
      if (error.empty()) error = "the policy failed";
    } catch (...) {
      error = "the policy failed with an exception that is not a std::exception";
    }
  }
  broadcast_decision(error, d);
  if (!error.empty()) fail(error);
  return d;
}

void Rebalancer::broadcast_decision(std::string& error, balance::RebalanceDecision& d) const {
  // One message from rank 0: its error (empty when none), then the decision.
  Packer p;
  if (rank_ == 0) {
    p.put(error);
    if (error.empty()) pack(p, d);
  }
  CallLog log("Rebalancer", rank_);
  broadcast_bytes(comm_.get(), log, p.bytes);
  if (rank_ != 0) {
    p.get(error);
    if (error.empty()) unpack(p, d);
  }
}

std::unique_ptr<Redistribution> Rebalancer::plan(const balance::RebalanceDecision& d) {
  std::unique_ptr<Redistribution> r = prepare(d);
  commit(d, r ? r->rotation() : 0);
  return r;
}

std::unique_ptr<Redistribution> Rebalancer::prepare(const balance::RebalanceDecision& d) {
  std::int64_t bad = d.after_iteration != after_ || planned_ == after_ || d.counts != counts_ ||
                     d.targets.size() != counts_.size();
  // A caller may change a decision (to force a rebalance), but not differently on some rank:
  // every rank must build the same Redistribution, or none.
  Packer mine;
  mine.put(d.targets);
  mine.put(d.consulted);
  std::vector<char> root = mine.bytes;
  CallLog log("Rebalancer", rank_);
  broadcast_bytes(comm_.get(), log, root);
  const std::int64_t differs = root != mine.bytes ? 2 : 0;
  bad = std::max(bad, differs);
  agree_or_throw(comm_.get(), log, std::span(&bad, 1));
  if (bad == 2) fail("plan: the decision differs between ranks (every rank must plan the same)");
  if (bad != 0) fail("plan: the decision is not the last one decided, or was already planned");
  planned_ = after_;
  std::unique_ptr<Redistribution> r;
  if (d.targets != counts_) {
    r = std::make_unique<Redistribution>(
        comm_.get(), count(), d.targets[static_cast<std::size_t>(rank_)], costs_, options_);
  }
  notify_policy(d);
  return r;
}

// Tells the policy (rank 0) about the rebalance of a decision it made. Whatever it throws is
// reported on every rank, before any item moves.
void Rebalancer::notify_policy(const balance::RebalanceDecision& d) {
  if (!d.consulted) return;  // the same on every rank (checked in prepare)
  std::string error;
  if (controller_) {
    try {
      controller_->rebalanced(d);
    } catch (const std::exception& e) {
      error = fmt::format("the policy failed: {}", e.what());
    } catch (...) {
      error = "the policy failed with an exception that is not a std::exception";
    }
  }
  broadcast_string(comm_.get(), rank_, error);
  if (!error.empty()) fail(error);
}

void Rebalancer::commit(const balance::RebalanceDecision& d, std::int64_t rotation) {
  origin_ = total_ == 0 ? 0 : floor_mod(origin_ - rotation, total_);
  counts_ = d.targets;
}

RebalanceReport Rebalancer::report_of(const balance::RebalanceDecision& d) const {
  RebalanceReport report;
  report.after_iteration = d.after_iteration;
  report.rebalanced = d.rebalance;
  report.reason = d.reason;
  report.predicted_saving = d.predicted_saving;
  report.plan_makespan = d.planned ? d.plan_makespan : 0.0;
  report.iteration_time = d.measured_time;
  return report;
}

RebalanceReport Rebalancer::complete(RebalanceReport report) const {
  report.count = count();
  report.global_start = global_start();
  report.counts = counts_;
  return report;
}

}  // namespace redist::mpi
