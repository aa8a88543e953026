#include "redist/mpi/dropin_pattern.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>

#include <fmt/format.h>

#include "redist/common/error.hpp"
#include "redist/common/fnv_hash.hpp"
#include "redist/exchange/bounds.hpp"
#include "redist/exchange/planner.hpp"
#include "redist/exchange/preemptive.hpp"
#include "redist/exchange/validate.hpp"

namespace redist::mpi::dropin {

namespace {

// FNV-1a over a list of words, its length first.
void add_words(FnvHash& h, std::span<const std::int64_t> words) {
  h.add(static_cast<std::uint64_t>(words.size()));
  for (std::int64_t w : words) h.add(w);
}

}  // namespace

void Row::seal() {
  FnvHash h;
  add_words(h, send);
  add_words(h, recv);
  hash = h.value();
}

void PatternCache::mismatches(const Row& row, std::span<std::int64_t> words) const {
  for (std::size_t k = 0; k < kCacheEntries; ++k) {
    words[k] = slots_[k] && slots_[k]->row == row ? 0 : 1;
  }
}

int PatternCache::hit(std::span<const std::int64_t> words) {
  for (std::size_t k = 0; k < kCacheEntries; ++k) {
    if (words[k] == 0) return static_cast<int>(k);
  }
  return -1;
}

bool PatternCache::runs_plan(const Row& row) const {
  return std::any_of(slots_.begin(), slots_.end(), [&](const std::optional<Entry>& e) {
    return e && e->decided && e->choice == Choice::redist && e->row == row;
  });
}

int PatternCache::insert(Row row, std::int64_t now) {
  std::size_t slot = 0;
  for (std::size_t k = 0; k < kCacheEntries; ++k) {
    if (!slots_[k]) {
      slot = k;
      break;
    }
    if (slots_[k]->last_used < slots_[slot]->last_used) slot = k;
  }
  slots_[slot].emplace();
  slots_[slot]->row = std::move(row);
  slots_[slot]->last_used = now;
  return static_cast<int>(slot);
}

namespace {

double median(std::vector<double> values) {
  if (values.empty()) return -1.0;
  const auto middle = values.begin() + static_cast<std::ptrdiff_t>(values.size() / 2);
  std::nth_element(values.begin(), middle, values.end());
  return *middle;
}

}  // namespace

void Trial::add_native(double seconds) {
  native_.push_back(seconds);
  if (native_.size() > kNativeRuns) native_.erase(native_.begin());
  since_native_ = 0;
}

double Trial::native() const { return median(native_); }

bool Trial::add_redist(double seconds) {
  if (native_.empty()) return false;
  redist_.push_back(seconds);
  ++since_native_;
  if (redist_.size() < (probed_ ? kWindow : kProbeRuns)) return false;
  const bool slower = median(redist_) > native();
  probed_ = true;
  redist_.clear();
  return slower;
}

std::string mismatch(const Matrix& m) {
  const std::size_t p = m.ranks;
  for (std::size_t i = 0; i < p; ++i) {
    for (std::size_t j = 0; j < p; ++j) {
      const std::int64_t sent = m.send[i * p + j], expected = m.recv[j * p + i];
      if (sent != expected) {
        return fmt::format("rank {} sends {} bytes to rank {}, which expects {}", i, sent, j,
                           expected);
      }
    }
  }
  return {};
}

std::string matrix_hash(const Matrix& m) {
  FnvHash h;
  h.add(static_cast<std::uint64_t>(m.ranks));
  add_words(h, m.send);
  return fmt::format("{:016x}", h.value());
}

exchange::Instance matrix_instance(const Matrix& m, const exchange::Platform& platform) {
  std::vector<exchange::Message> messages;
  const std::size_t p = m.ranks;
  for (std::size_t i = 0; i < p; ++i) {
    for (std::size_t j = 0; j < p; ++j) {
      const std::int64_t bytes = m.send[i * p + j];
      if (i != j && bytes > 0) {
        messages.push_back({static_cast<std::int64_t>(i), static_cast<std::int64_t>(j), bytes});
      }
    }
  }
  return exchange::instance_on(platform, std::move(messages));
}

std::string planner_for(const exchange::Instance& instance) {
  const std::size_t m = instance.messages.size();
  if (instance.backbone) return "whole";
  if (instance.latency == 0.0) {
    return m <= kPreemptiveMessages && exchange::preemptive_plans(instance) ? "preemptive"
                                                                            : "whole";
  }
  return m <= kAutoMessages ? "auto" : "whole";
}

namespace {

// Seconds of the two agreements a planned call adds to its plan: two reductions of a few words,
// each about ceil(log2 p) latencies.
double agreement_seconds(const exchange::Instance& instance) {
  const double rounds =
      std::ceil(std::log2(static_cast<double>(std::max<std::size_t>(instance.nodes, 2))));
  return 2.0 * rounds * instance.latency;
}

double seconds_since(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

}  // namespace

Decision decide(const Matrix& matrix, const exchange::Platform& platform, Mode mode,
                std::optional<double> native_seconds, double min_gain) {
  Decision d;
  d.predicted_native = native_seconds.value_or(-1.0);
  const exchange::Instance instance = matrix_instance(matrix, platform);
  if (instance.messages.empty()) {  // only the own blocks: the plan of nothing
    d.choice = Choice::redist;
    d.reason = "no message between two ranks: only the own blocks are copied";
    d.ranks.resize(matrix.ranks);
    return d;
  }
  const auto start = std::chrono::steady_clock::now();
  exchange::validate_instance(instance);
  d.lower_bound = exchange::bounds(instance).lower_bound;
  if (mode == Mode::auto_choice && native_seconds &&
      d.lower_bound >= *native_seconds * (1.0 - min_gain)) {
    d.reason = "no plan can gain enough: the lower bound is within the minimum gain";
    d.plan_seconds = seconds_since(start);
    return d;
  }
  d.algorithm = planner_for(instance);
  const exchange::Plan plan = exchange::plan(instance, d.algorithm);
  const CheckResult verdict = exchange::check(instance, plan);
  d.plan_seconds = seconds_since(start);
  if (!verdict.valid) {
    d.reason = "the plan failed the validator: " + verdict.reason;
    return d;
  }
  d.predicted_redist = plan.makespan + agreement_seconds(instance);
  if (mode == Mode::auto_choice && native_seconds &&
      d.predicted_redist > *native_seconds * (1.0 - min_gain)) {
    d.reason = "the plan is not predicted to gain the minimum gain";
    return d;
  }
  d.choice = Choice::redist;
  d.reason = mode == Mode::always ? "REDIST_ALLTOALLV=always" : "the plan is predicted faster";
  // Pieces of at most 2^30 bytes: every MPI message's count fits an int.
  d.ranks = all_transfers(instance, plan, matrix.ranks, std::int64_t{1} << 30);
  return d;
}

}  // namespace redist::mpi::dropin
