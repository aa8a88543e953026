#include "redist/ring/bidirectional_homogeneous.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "redist/common/error.hpp"
#include "redist/common/tolerance.hpp"
#include "redist/ring/flow_executor.hpp"

namespace redist::ring {

namespace {

constexpr std::uint8_t kNext = 1;  // bit of send[i]: i sends one item to succ(i) this round
constexpr std::uint8_t kPrev = 2;  // bit of send[i]: i sends one item to pred(i) this round

// ceil(x / 2) for x >= 0 without overflow.
std::int64_t half_up(std::int64_t x) { return x / 2 + x % 2; }

// The round-by-round state of Algorithm 3. All buffers are allocated once; a round costs two
// passes over the ring (decide_sends, apply) plus the extremes of the prefix sums.
class Algorithm3 {
 public:
  explicit Algorithm3(const Instance& in)
      : in_(in),
        n_(in.size()),
        delta_(imbalances(in)),
        prefix_(n_),
        send_(n_, 0),
        run_dir_(n_, 0),
        run_start_(n_, 0) {
    std::int64_t sum = 0;
    for (std::size_t i = 0; i < n_; ++i) {
      sum += delta_[i];
      prefix_[i] = sum;
      max_abs_ = std::max(max_abs_, delta_[i] < 0 ? -delta_[i] : delta_[i]);
    }
    extremes_.reset(prefix_);
  }

  // delta_max of the current imbalances (RRV04 Algorithm 3, Step 1), in O(1) from max_abs_ and
  // the extremes of the prefix sums.
  std::int64_t delta_max() const {
    std::int64_t best = max_abs_;
    if (n_ >= 3) {
      const std::int64_t hi = extremes_.max_slice();
      const std::int64_t lo = extremes_.min_slice();
      if (hi > 0) best = std::max(best, half_up(hi));
      if (lo < 0) best = std::max(best, half_up(-lo));
    }
    return best;
  }

  // Decides the sends of one round (Steps 3-30) for delta_max = dmax, the value Lemma 8
  // predicts. Returns the actual delta_max of the current imbalances, computed on the way; when
  // it differs from dmax the caller must stop (the sends are then incomplete).
  std::int64_t decide_sends(std::int64_t dmax) {
    const std::int64_t actual = delta_max();
    if (actual != dmax) return actual;
    // Thresholds on slice imbalances. All non-trivial slices have |imbalance| <= 2 dmax, so
    // "delta_{k,l} > 1 and ceil(|delta_{k,l}|/2) = dmax" is "delta_{k,l} >= max(2, 2 dmax - 1)".
    //   next_cut: P_l sends to P_{l+1} when delta_{k,l} >= next_cut (Steps 6, 12), and
    //             P_{k-1} sends to P_k when delta_{k,l} <= -next_cut (Steps 8, 16);
    //   prev_cut: P_k sends to P_{k-1} when delta_{k,l} >= prev_cut (Steps 5, 14), and
    //             P_{l+1} sends to P_l when delta_{k,l} <= -prev_cut (Steps 9, 18).
    const std::int64_t next_cut = dmax == 2 ? 3 : std::max<std::int64_t>(2, 2 * dmax - 1);
    const std::int64_t prev_cut = dmax == 2 ? 4 : next_cut;
    if (n_ < 3) {
      std::fill(send_.begin(), send_.end(), std::uint8_t{0});
    } else {
      // With m the index of the smallest prefix value, P_j sends next by Step 6/12 (j = l) iff
      // prefix[j] - min_{m' != j, j-1} prefix[m'] >= next_cut, and by Step 8/16 (j = k-1) iff
      // prefix[j] - min_{m' != j, j+1} prefix[m'] >= next_cut: for j not in {m-1, m, m+1} both
      // read prefix[j] >= prefix[m] + next_cut. Symmetrically P_{j+1} sends prev (Steps 5/14 with
      // k - 1 = j, Steps 9/18 with l = j) iff prefix[j] <= (largest prefix) - prev_cut, for j
      // away from the index of the largest prefix value. The exceptions are recomputed exactly.
      const std::int64_t next_at = extremes_.min_value() + next_cut;
      const std::int64_t prev_at = extremes_.max_value() - prev_cut;
      const std::int64_t* p = prefix_.data();
      std::uint8_t* out = send_.data();
      out[0] = static_cast<std::uint8_t>((p[0] >= next_at ? kNext : 0) |
                                         (p[n_ - 1] <= prev_at ? kPrev : 0));
      for (std::size_t i = 1; i < n_; ++i) {
        out[i] = static_cast<std::uint8_t>((p[i] >= next_at ? kNext : 0) |
                                           (p[i - 1] <= prev_at ? kPrev : 0));
      }
      const std::size_t lo = extremes_.min_index();
      const std::size_t hi = extremes_.max_index();
      for (const std::size_t j : {in_.pred(lo), lo, in_.succ(lo)}) {
        const bool next = extremes_.max_ending_at(j) >= next_cut ||
                          extremes_.min_starting_at(in_.succ(j)) <= -next_cut;
        send_[j] = static_cast<std::uint8_t>((send_[j] & kPrev) | (next ? kNext : 0));
      }
      for (const std::size_t j : {hi, in_.succ(hi), in_.succ(in_.succ(hi))}) {
        const bool prev = extremes_.max_starting_at(j) >= prev_cut ||
                          extremes_.min_ending_at(in_.pred(j)) <= -prev_cut;
        send_[j] = static_cast<std::uint8_t>((send_[j] & kNext) | (prev ? kPrev : 0));
      }
    }
    // Steps 19-24: a processor with delta_max not yet sending sends to its successor; one with
    // -delta_max not yet receiving receives from its predecessor. One pass serves both: Step 24
    // only adds the send pred(i) -> i, which Step 21 would add itself for a maximal pred(i), and
    // which makes no processor but i receive.
    if (max_abs_ == dmax) {
      for (std::size_t i = 0; i < n_; ++i) {
        if (delta_[i] == dmax && send_[i] == 0) send_[i] = kNext;
        if (delta_[i] == -dmax && !receives(i)) send_[in_.pred(i)] |= kNext;
      }
    }
    // Steps 25-30: with delta_max = 1, a balanced processor forwards what it receives, along
    // whole chains of balanced processors. Two laps reach the fixed point: a chain has at most
    // n - 1 processors (some processor is unbalanced) and forwarding never changes direction.
    if (dmax == 1) {
      for (std::size_t t = 0; t < 2 * n_; ++t) {
        const std::size_t i = t % n_;
        if (delta_[i] == 0 && (send_[in_.pred(i)] & kNext)) send_[i] |= kNext;
      }
      for (std::size_t t = 2 * n_; t-- > 0;) {
        const std::size_t i = t % n_;
        if (delta_[i] == 0 && (send_[in_.succ(i)] & kPrev)) send_[i] |= kPrev;
      }
    }
    return actual;
  }

  // Applies the sends of round `round` in one gather pass: checks the one-port model (Lemma 7;
  // throws std::logic_error if broken), updates the imbalances and the runs, and refreshes the
  // prefix sums and their extremes. Returns false if some sender held no item at the start of
  // the round (the synchronous schedule then breaks the holding rule); the current load of P_i
  // is targets[i] + delta_i.
  bool apply(std::int64_t round, std::int64_t dmax) {
    const std::uint8_t* send = send_.data();
    const std::int64_t* target = in_.targets.data();
    std::int64_t* delta = delta_.data();
    std::int64_t* prefix = prefix_.data();
    std::uint8_t* run_dir = run_dir_.data();
    bool holds = true;
    bool conflict = false;
    std::int64_t sum = 0;
    std::int64_t max_abs = 0;
    for (std::size_t i = 0; i < n_; ++i) {
      const std::uint8_t s = send[i];
      const int from_pred = send[i == 0 ? n_ - 1 : i - 1] & kNext;
      const int from_succ = (send[i + 1 == n_ ? 0 : i + 1] & kPrev) >> 1;
      conflict |= (s == (kNext | kPrev)) | ((from_pred & from_succ) != 0);
      holds &= s == 0 || target[i] + delta[i] >= 1;
      if (s != run_dir[i]) {
        close_run(i, round);
        run_dir[i] = s;
        run_start_[i] = round;
      }
      const std::int64_t d = delta[i] + from_pred + from_succ - (s != 0 ? 1 : 0);
      delta[i] = d;
      sum += d;
      prefix[i] = sum;
      max_abs = std::max(max_abs, d < 0 ? -d : d);
    }
    if (conflict) {
      for (std::size_t i = 0; i < n_; ++i) {
        const bool sends_twice = send_[i] == (kNext | kPrev);
        if (sends_twice || receives_twice(i)) {
          throw std::logic_error(fmt::format(
              "RRV04 Algorithm 3 broke the one-port model (contradicting Lemma 7): in round {} "
              "(delta_max {}) processor {} {} twice",
              round, dmax, i, sends_twice ? "sends" : "receives"));
        }
      }
    }
    max_abs_ = max_abs;
    extremes_.reset(prefix_);
    return holds;
  }

  // Closes every open run after the last round.
  void finish(std::int64_t rounds) {
    for (std::size_t i = 0; i < n_; ++i) close_run(i, rounds + 1);
    std::sort(runs_.begin(), runs_.end(), [](const Run& a, const Run& b) {
      return a.start != b.start ? a.start < b.start : a.from < b.from;
    });
  }

  std::vector<Run>& runs() { return runs_; }

 private:
  bool receives(std::size_t i) const {
    return (send_[in_.pred(i)] & kNext) || (send_[in_.succ(i)] & kPrev);
  }
  bool receives_twice(std::size_t i) const {
    return (send_[in_.pred(i)] & kNext) && (send_[in_.succ(i)] & kPrev);
  }

  // Ends the open run of processor i (if any) just before round `round`.
  void close_run(std::size_t i, std::int64_t round) {
    if (run_dir_[i] == 0) return;
    const double c = in_.cost_next[0];
    runs_.push_back(Run{static_cast<std::int64_t>(i),
                        run_dir_[i] == kNext ? Direction::next : Direction::prev,
                        static_cast<double>(run_start_[i] - 1) * c, round - run_start_[i], 0.0});
    run_dir_[i] = 0;
  }

  const Instance& in_;
  std::size_t n_;
  std::vector<std::int64_t> delta_;   // current imbalances
  std::vector<std::int64_t> prefix_;  // prefix sums of delta_
  std::int64_t max_abs_ = 0;          // max |delta_i|
  detail::SliceExtremes extremes_;
  std::vector<std::uint8_t> send_;       // kNext / kPrev bits of the current round
  std::vector<std::uint8_t> run_dir_;    // direction of each processor's open run (0: none)
  std::vector<std::int64_t> run_start_;  // first round of the open run
  std::vector<Run> runs_;
};

// Re-times flows whose every processor sends at most `rounds` items and receives at most `rounds`
// items as `rounds` synchronous rounds: the items of a link carrying flow clockwise
// (flows[i] > 0, i -> succ(i)) go in the first |flows[i]| rounds (ASAP), those of a link carrying
// flow counter-clockwise in the last |flows[i]| rounds (ALAP); with `mirrored`, the other way
// round. One-port: a processor sending on both links sends on one ASAP and on the other ALAP, so
// the two runs are disjoint (total <= rounds); receiving likewise. Holding: a processor that
// sends on one link and receives on the other (pass-through) with both links ASAP holds an item
// for its k-th send iff loads >= 1 (it has received min(a, k-1) of its a items; k <= loads +
// min(a, k-1) for all k <= b reduces to loads >= 1 and targets >= 0); with both links ALAP iff
// targets >= 1 (the time-reversed argument). Sources hold everything they send, sinks send
// nothing. So the re-timing is valid whenever loads and targets are >= 1. Returns no runs if a
// pass-through breaks its condition.
std::optional<std::vector<Run>> retime_flows(const Instance& in,
                                             const std::vector<std::int64_t>& flows,
                                             std::int64_t rounds, bool mirrored) {
  const std::size_t n = in.size();
  for (std::size_t j = 0; j < n; ++j) {
    const std::int64_t in_link = flows[in.pred(j)];  // link pred(j) -> j
    const std::int64_t out_link = flows[j];          // link j -> succ(j)
    const bool clockwise = in_link > 0 && out_link > 0;
    const bool counter = in_link < 0 && out_link < 0;
    if (clockwise && (mirrored ? in.targets[j] < 1 : in.loads[j] < 1)) return std::nullopt;
    if (counter && (mirrored ? in.loads[j] < 1 : in.targets[j] < 1)) return std::nullopt;
  }
  const double c = in.cost_next[0];
  std::vector<Run> runs;
  for (std::size_t i = 0; i < n; ++i) {
    const std::int64_t f = flows[i];
    if (f == 0) continue;
    const bool asap = (f > 0) != mirrored;
    const std::int64_t count = f > 0 ? f : -f;
    const double start = asap ? 0.0 : static_cast<double>(rounds - count) * c;
    if (f > 0) {
      runs.push_back(Run{static_cast<std::int64_t>(i), Direction::next, start, count, 0.0});
    } else {
      runs.push_back(
          Run{static_cast<std::int64_t>(in.succ(i)), Direction::prev, start, count, 0.0});
    }
  }
  std::sort(runs.begin(), runs.end(), [](const Run& a, const Run& b) {
    return a.start != b.start ? a.start < b.start : a.from < b.from;
  });
  return runs;
}

// Algorithm 3 is stated for bidirectional rings whose links all cost the same.
void require_homogeneous_bidirectional(const Instance& instance) {
  if (!instance.bidirectional) {
    throw OptionError(
        "bidirectional-homogeneous (RRV04 Algorithm 3) needs a bidirectional ring; use "
        "unidirectional",
        "algorithm");
  }
  if (!instance.homogeneous()) {
    throw OptionError(
        "bidirectional-homogeneous (RRV04 Algorithm 3) needs every link cost (cost_next and "
        "cost_prev) to be equal",
        "algorithm");
  }
}

// Refuses instances whose rounds would take more than kBidirectionalHomogeneousMaxSteps steps.
void require_within_step_limit(const Instance& instance, std::int64_t dmax) {
  const std::size_t n = instance.size();
  const std::int64_t max_steps = kBidirectionalHomogeneousMaxSteps;
  const auto per_round = static_cast<std::int64_t>(n) + kAlgorithm3RoundOverhead;
  if (dmax > max_steps / per_round) {
    throw InputError(
        fmt::format("bidirectional-homogeneous (RRV04 Algorithm 3) runs round by round: {} rounds "
                    "x ({} processors + {}) exceed its limit of {} steps; use algorithm auto or "
                    "heuristic for counts this large",
                    dmax, n, kAlgorithm3RoundOverhead, max_steps),
        "loads");
  }
}

// Runs the `rounds` synchronous rounds of Algorithm 3 and closes the runs. Returns the first
// round in which a processor is asked to send an item it does not hold, or 0 when every round
// respects the holding rule. A round in which delta_max does not drop by exactly one contradicts
// Lemma 8: std::logic_error.
std::int64_t run_rounds(Algorithm3& alg, std::int64_t rounds) {
  std::int64_t first_broken_round = 0;
  for (std::int64_t round = 1; round <= rounds; ++round) {
    const std::int64_t expected = rounds - round + 1;
    const std::int64_t actual = alg.decide_sends(expected);
    if (actual != expected) {
      throw std::logic_error(fmt::format(
          "RRV04 Algorithm 3 failed to decrease delta_max by one (contradicting Lemma 8): after "
          "round {} it is {} instead of {}",
          round - 1, actual, expected));
    }
    if (!alg.apply(round, expected) && first_broken_round == 0) first_broken_round = round;
  }
  if (const std::int64_t left = alg.delta_max(); left != 0) {
    throw std::logic_error(fmt::format(
        "RRV04 Algorithm 3 failed to decrease delta_max by one (contradicting Lemma 8): after "
        "round {} it is {} instead of 0",
        rounds, left));
  }
  alg.finish(rounds);
  return first_broken_round;
}

// When the rounds break the holding rule (in round first_broken_round): the flows of the rounds
// re-timed in the same number of rounds, or mirrored, or else handed to the generic flow
// executor. Expects out.flows and out.lower_bound to be set.
void schedule_flows_of_rounds(const Instance& instance, std::int64_t rounds,
                              std::int64_t first_broken_round, Schedule& out) {
  const double c = instance.cost_next[0];
  if (auto runs = retime_flows(instance, out.flows, rounds, false)) {
    out.transfers = std::move(*runs);
    out.makespan = static_cast<double>(rounds) * c;
    out.prove_optimal(Proof::lower_bound);
    out.notes.push_back(fmt::format(
        "the synchronous rounds of RRV04 Algorithm 3 ask a processor holding no item to send in "
        "round {}; the flows of the rounds were re-timed (clockwise links as soon as possible, "
        "counter-clockwise links as late as possible) in the same {} rounds",
        first_broken_round, rounds));
  } else if (auto mirrored = retime_flows(instance, out.flows, rounds, true)) {
    out.transfers = std::move(*mirrored);
    out.makespan = static_cast<double>(rounds) * c;
    out.prove_optimal(Proof::lower_bound);
    out.notes.push_back(fmt::format(
        "the synchronous rounds of RRV04 Algorithm 3 ask a processor holding no item to send in "
        "round {}; the flows of the rounds were re-timed (clockwise links as late as possible, "
        "counter-clockwise links as soon as possible) in the same {} rounds",
        first_broken_round, rounds));
  } else {
    out.transfers = execute_flows_asap(instance, out.flows);
    out.makespan = schedule_makespan(instance, out.transfers);
    if (same_time(out.makespan, out.lower_bound.value_or(0.0)))
      out.prove_optimal(Proof::lower_bound);
    out.notes.push_back(fmt::format(
        "the synchronous rounds of RRV04 Algorithm 3 ask a processor holding no item to send in "
        "round {}, and a processor with a load or target of 0 forwards items, so the flows of the "
        "rounds were scheduled by the generic flow executor instead",
        first_broken_round));
  }
}

}  // namespace

std::int64_t algorithm3_rounds(const Instance& instance) {
  return Algorithm3(instance).delta_max();
}

bool bidirectional_homogeneous_applies(const Instance& instance) {
  if (!instance.bidirectional || !instance.homogeneous()) return false;
  const auto per_round = static_cast<std::int64_t>(instance.size()) + kAlgorithm3RoundOverhead;
  return algorithm3_rounds(instance) <= kBidirectionalHomogeneousMaxSteps / per_round;
}

Schedule plan_bidirectional_homogeneous(const Instance& instance) {
  validate_instance(instance);
  require_homogeneous_bidirectional(instance);
  const double c = instance.cost_next[0];

  Algorithm3 alg(instance);
  const std::int64_t dmax = alg.delta_max();
  Schedule out;
  out.algorithm = "bidirectional-homogeneous";
  out.lower_bound = static_cast<double>(dmax) * c;  // RRV04 Lemma 6
  require_within_step_limit(instance, dmax);

  const std::int64_t rounds = dmax;  // Lemma 8: delta_max drops by exactly one per round
  const std::int64_t first_broken_round = run_rounds(alg, rounds);
  out.flows = flows_of_runs(instance, alg.runs());
  if (first_broken_round == 0) {
    out.transfers = std::move(alg.runs());
    out.makespan = static_cast<double>(rounds) * c;
    out.prove_optimal(Proof::lower_bound);  // meets the Lemma 6 bound
  } else {
    schedule_flows_of_rounds(instance, rounds, first_broken_round, out);
  }
  return out;
}

}  // namespace redist::ring
