#include "redist/mpi/redistribution.hpp"

#include "redist/common/error.hpp"
#include "redist/common/tolerance.hpp"

#include <algorithm>
#include <climits>
#include <cmath>
#include <exception>
#include <span>
#include <type_traits>
#include <utility>

#include <fmt/format.h>

#include "redist/mpi/packer.hpp"

namespace redist::mpi {

namespace {

constexpr int kTagBase = 7400;  // group tags: kTagBase + 2 * hops + side (group_tag)

// The options every rank must pass alike, as integers.
struct SharedOptions {
  std::int64_t mode = 0;
  std::int64_t bidirectional = 0;
  std::int64_t segment_items = 0;
  std::int64_t window = 0;
  std::int64_t sends_in_flight = 0;
  std::int64_t one_port = 0;
  std::int64_t min_segments = 0;
  std::int64_t max_staging_bytes = 0;
  bool operator==(const SharedOptions&) const = default;
};

// What the constructor gathers from every rank (one MPI_Allgather of kRankWords integers).
struct RankWords {
  std::int64_t old_count = 0;
  std::int64_t new_count = 0;
  SharedOptions options;
};
constexpr int kRankWords = 10;
static_assert(sizeof(RankWords) == kRankWords * sizeof(std::int64_t) &&
                  std::is_standard_layout_v<RankWords>,
              "gathered as kRankWords MPI_INT64_T");

RankWords rank_words(std::int64_t old_count, std::int64_t new_count, const Options& o) {
  RankWords w;
  w.old_count = old_count;
  w.new_count = new_count;
  w.options.mode = static_cast<std::int64_t>(o.mode);
  w.options.bidirectional = o.bidirectional ? 1 : 0;
  w.options.segment_items = o.segment_items;
  w.options.window = o.window;
  w.options.sends_in_flight = o.sends_in_flight;
  w.options.one_port = o.one_port ? 1 : 0;
  w.options.min_segments = o.min_segments;
  w.options.max_staging_bytes = o.max_staging_bytes;
  return w;
}

std::string check_gathered(const std::vector<RankWords>& all, const std::vector<double>& costs,
                           int n) {
  const SharedOptions& o = all[0].options;
  for (int r = 0; r < n; ++r) {
    const RankWords& w = all[static_cast<std::size_t>(r)];
    if (w.old_count < 0) return fmt::format("negative old count {} on rank {}", w.old_count, r);
    if (w.new_count < 0) return fmt::format("negative new count {} on rank {}", w.new_count, r);
    if (w.options != o) return fmt::format("options differ between rank 0 and rank {}", r);
  }
  if (o.segment_items < 1) {
    return fmt::format("segment_items must be >= 1 (got {})", o.segment_items);
  }
  if (o.window < 0) return fmt::format("window must be >= 0 (0: automatic; got {})", o.window);
  if (o.window == 1) return "window must be 0 (automatic) or >= 2 (got 1)";
  if (o.sends_in_flight < 1 || o.sends_in_flight > kMaxSendsInFlight) {
    return fmt::format("sends_in_flight must be in 1..{} (got {})", kMaxSendsInFlight,
                       o.sends_in_flight);
  }
  if (o.min_segments < 1) return fmt::format("min_segments must be >= 1 (got {})", o.min_segments);
  if (o.max_staging_bytes < 0) {
    return fmt::format("max_staging_bytes must be >= 0 (0: no cap; got {})", o.max_staging_bytes);
  }
  std::int64_t old_sum = 0, new_sum = 0;
  for (const RankWords& w : all) {
    if (__builtin_add_overflow(old_sum, w.old_count, &old_sum) ||
        __builtin_add_overflow(new_sum, w.new_count, &new_sum)) {
      return "item counts overflow 64 bits";
    }
  }
  if (old_sum != new_sum) {
    return fmt::format("new counts sum to {} but old counts sum to {}", new_sum, old_sum);
  }
  const bool bidi = o.bidirectional != 0;
  for (int r = 0; r < n; ++r) {
    const double next = costs[2 * static_cast<std::size_t>(r)];
    const double prev = costs[2 * static_cast<std::size_t>(r) + 1];
    if (!std::isfinite(next) || next <= 0) {
      return fmt::format("cost_next {} of rank {} must be finite and > 0", next, r);
    }
    if (bidi && (!std::isfinite(prev) || prev <= 0)) {
      return fmt::format("cost_prev {} of rank {} must be finite and > 0", prev, r);
    }
  }
  return {};
}

// What every rank receives from rank 0 must stay small and every time finite.
std::string check_plan(const FlowPlan& plan) {
  if (!std::isfinite(plan.makespan)) {
    return "the model's makespan overflows a double (costs times items); scale the costs";
  }
  if (plan.transfers.size() > kMaxScheduleRuns) {
    return fmt::format(
        "the model's schedule has {} runs, more than the {} every rank can hold; "
        "move fewer items",
        plan.transfers.size(), kMaxScheduleRuns);
  }
  return {};
}

// Rank 0's plan, or why there is none, as rank 0 broadcasts it.
Packer planned(const ring::Instance& instance, const Options& options, FlowPlan& plan) {
  std::string error;
  try {
    plan = plan_flows(instance, options.mode, options.algorithm);
    error = check_plan(plan);
  } catch (const InputError& e) {
    // An error about the instance as a whole (exact beyond its limits) is the algorithm's.
    error = e.path().empty() ? e.message() + " (at algorithm)" : e.what();
  } catch (const std::exception& e) {
    error = e.what();
    if (error.empty()) error = "planning failed";
  }
  Packer p;
  p.put(error);
  if (error.empty()) {
    p.put(plan.flows);
    p.put(plan.makespan);
    p.put(plan.algorithm);
    p.put(plan.transfers);
  }
  return p;
}

}  // namespace

// Every rank's counts, options and costs (one MPI_Allgather each), identical on every rank.
struct Redistribution::Gathered {
  std::vector<RankWords> words;
  std::vector<double> costs;  // 2 per rank: to succ, to pred (1 when unidirectional)
  std::int64_t old_count = 0, new_count = 0;  // this rank's
  int max_tag = 32767;                        // MPI_TAG_UB (every rank must use the same tags)
};

Redistribution::Redistribution(MPI_Comm comm, std::int64_t old_count, std::int64_t new_count,
                               LinkCosts costs, Options options)
    : comm_(comm, "Redistribution"),
      rank_(comm_.rank()),
      size_(comm_.size()),
      options_(std::move(options)) {
  const Gathered all = gather(old_count, new_count, costs);
  refuse_bad_input(all);
  local_.load = local_.target = old_count;
  local_.total = old_count;
  plan_.flows.assign(static_cast<std::size_t>(size_), 0);
  plan_.algorithm = "none";
  if (size_ < 2) return;
  build_instance(all);
  receive_plan();
  find_groups();
  read_schedule();
  size_staging_peaks();
}

Redistribution::~Redistribution() = default;

Redistribution::Gathered Redistribution::gather(std::int64_t old_count, std::int64_t new_count,
                                                LinkCosts costs) const {
  CallLog log("Redistribution", rank_);
  Gathered all;
  all.old_count = old_count;
  all.new_count = new_count;
  const std::size_t n = static_cast<std::size_t>(size_);
  const RankWords mine = rank_words(old_count, new_count, options_);
  all.words.resize(n);
  log.check("MPI_Allgather", [&] {
    return MPI_Allgather(&mine, kRankWords, MPI_INT64_T, all.words.data(), kRankWords, MPI_INT64_T,
                         comm_.get());
  });
  const double my_costs[2] = {costs.next, options_.bidirectional ? costs.prev : 1.0};
  all.costs.resize(2 * n);
  log.check("MPI_Allgather", [&] {
    return MPI_Allgather(my_costs, 2, MPI_DOUBLE, all.costs.data(), 2, MPI_DOUBLE, comm_.get());
  });
  int* tag_ub = nullptr;
  int has_tag_ub = 0;
  log.check("MPI_Comm_get_attr",
            [&] { return MPI_Comm_get_attr(comm_.get(), MPI_TAG_UB, &tag_ub, &has_tag_ub); });
  if (has_tag_ub && tag_ub != nullptr) all.max_tag = *tag_ub;
  agree_or_throw(comm_.get(), log);
  return all;
}

// The checks run on gathered data, so every rank refuses alike without communicating.
void Redistribution::refuse_bad_input(const Gathered& all) const {
  std::string error = check_gathered(all.words, all.costs, size_);
  if (error.empty() && size_ < 2 && all.old_count != all.new_count) {
    error = "one rank cannot change its count";
  }
  if (!error.empty()) throw Error("redist::mpi: " + error);
}

void Redistribution::build_instance(const Gathered& all) {
  tag_span_ = std::max(1, (all.max_tag - kTagBase - 1) / 2);
  instance_.bidirectional = options_.bidirectional;
  for (std::size_t r = 0; r < all.words.size(); ++r) {
    instance_.loads.push_back(all.words[r].old_count);
    instance_.targets.push_back(all.words[r].new_count);
    instance_.cost_next.push_back(all.costs[2 * r]);
    if (options_.bidirectional) instance_.cost_prev.push_back(all.costs[2 * r + 1]);
  }
}

// Rank 0 plans alone and broadcasts the flows, the makespan, the algorithm and the model's schedule
// (every rank needs it for staging sizes and the one-port order): one source of truth for the
// flows (no risk of ranks disagreeing through floating-point or solver differences), planning
// paid once. A planning error is broadcast too, so every rank throws it.
void Redistribution::receive_plan() {
  CallLog log("Redistribution", rank_);
  Packer p;
  if (rank_ == 0) p = planned(instance_, options_, plan_);
  broadcast_bytes(comm_.get(), log, p.bytes);
  std::string error;
  p.get(error);
  if (!error.empty()) throw Error("redist::mpi: " + error);
  if (rank_ != 0) {
    p.get(plan_.flows);
    p.get(plan_.makespan);
    p.get(plan_.algorithm);
    p.get(plan_.transfers);
  }
  plan_.rotation = plan_.flows[static_cast<std::size_t>(size_) - 1];
}

void Redistribution::find_groups() {
  local_ = make_local_plan(instance_, plan_.flows, rank_);
  for (int f = 0; f < 2; ++f) {
    const Side side = f == 0 ? Side::right : Side::left;
    const int upstream = f == 0 ? (rank_ + size_ - 1) % size_ : (rank_ + 1) % size_;
    out_groups_[f] = outgoing_groups(instance_, plan_.flows, rank_, side);
    in_groups_[f] = outgoing_groups(instance_, plan_.flows, upstream, side);
  }
}

void Redistribution::read_schedule() {
  departures_[0] = DepartureTimes(instance_, plan_.transfers, rank_, ring::Direction::next);
  departures_[1] = DepartureTimes(instance_, plan_.transfers, rank_, ring::Direction::prev);
  for (int f = 0; f < 2; ++f) {
    const ring::Direction dir = f == 0 ? ring::Direction::next : ring::Direction::prev;
    const int up = f == 0 ? (rank_ + size_ - 1) % size_ : (rank_ + 1) % size_;
    upstream_[f] = DepartureTimes(instance_, plan_.transfers, up, dir);
    if (local_.stream(f == 0 ? Side::right : Side::left).in > 0) {
      upstream_cost_[f] = instance_.cost(static_cast<std::size_t>(up), dir);
    }
  }
}

// Staging the model's schedule needs: for a forwarded group, its peak of held items; for the
// kept group, executed in place, the items that arrive before this rank's last own item leaves
// (only then can the kept items move and received ones be placed).
void Redistribution::size_staging_peaks() {
  double own_gone = 0;
  for (int f = 0; f < 2; ++f) {
    const std::int64_t own = local_.stream(f == 0 ? Side::right : Side::left).own_out;
    if (own > 0) own_gone = std::max(own_gone, departures_[f].at(own - 1));
  }
  for (int f = 0; f < 2; ++f) {
    const Side side = f == 0 ? Side::right : Side::left;
    for (const Group& g : in_groups_[f]) {
      if (g.hops > 1) {
        in_peaks_[f].push_back(peak_forwarded(instance_, plan_.transfers, local_, side, g));
      } else {
        const std::int64_t arrived = upstream_[f].count_until(own_gone - upstream_cost_[f]);
        const std::int64_t early = std::clamp<std::int64_t>(arrived, g.first, g.last) - g.first;
        in_peaks_[f].push_back(std::isfinite(own_gone) ? early : g.last - g.first);
      }
    }
  }
}

std::int64_t Redistribution::segment_items(const Group& g) const {
  // At least min_segments segments per group (so a group pipelines along its chain of
  // forwarders), at most segment_items items per message. Both ends of a link see the same group.
  const std::int64_t size = g.last - g.first;
  const std::int64_t parts = std::max<std::int64_t>(1, options_.min_segments);
  return std::clamp<std::int64_t>((size + parts - 1) / parts, 1, options_.segment_items);
}

int Redistribution::group_tag(int side, std::int64_t hops) const {
  // Groups of one link have distinct hop counts; tags repeat only beyond tag_span_ hops.
  return kTagBase + 2 * static_cast<int>(hops % tag_span_) + side;
}

// A forwarded group needs every segment that one outgoing message of the matching group draws from
// (segments of the two groups differ in size) plus one: fewer would deadlock.
std::int64_t Redistribution::deadlock_floor(int f, const Group& g) const {
  const std::int64_t k = segment_items(g);
  std::int64_t floor = 2;
  for (const Group& o : out_groups_[f]) {
    if (g.hops > 1 && o.hops == g.hops - 1) {
      floor = std::max(floor, (segment_items(o) + k - 1) / k + 1);
    }
  }
  return std::min(floor, (g.last - g.first + k - 1) / k);
}

// The staging slots of incoming group i of side f before any budget: Options::window, or what
// the model's schedule holds at once; never fewer than `floor` nor more than its segments.
std::int64_t Redistribution::wanted_slots(int f, std::size_t i, bool in_place,
                                          std::int64_t floor) const {
  const Group& g = in_groups_[f][i];
  const std::int64_t k = segment_items(g);
  std::int64_t n = 0;
  if (options_.window > 0) {
    n = options_.window;
  } else if (g.hops > 1) {
    // The model's peak of held items, plus one segment straddled and one in transit.
    n = (in_peaks_[f][i] + k - 1) / k + 2;
  } else if (in_place) {
    // Kept items arriving before the kept items can move are staged (the rest go straight
    // to their final offsets).
    n = std::max<std::int64_t>(4, (in_peaks_[f][i] + k - 1) / k + 2);
  } else {
    n = 4;  // kept items out of place: received in place, `n` receives posted at a time
  }
  return std::max(std::min(n, (g.last - g.first + k - 1) / k), floor);
}

Redistribution::Slots Redistribution::slots(std::size_t item_bytes, bool in_place) const {
  const std::int64_t b = static_cast<std::int64_t>(item_bytes);
  Slots out;
  out.sends = options_.sends_in_flight;  // 1..kMaxSendsInFlight (checked at construction)
  std::int64_t bytes = 0, shrinkable = 0;
  for (int f = 0; f < 2; ++f) {
    for (std::size_t i = 0; i < in_groups_[f].size(); ++i) {
      const Group& g = in_groups_[f][i];
      out.floor[f].push_back(deadlock_floor(f, g));
      const std::int64_t n = wanted_slots(f, i, in_place, out.floor[f].back());
      out.in[f].push_back(n);
      if (g.hops > 1 || in_place) {
        const std::int64_t slot_bytes = std::min(segment_items(g), g.last - g.first) * b;
        bytes += n * slot_bytes;
        if (options_.window == 0) shrinkable += n * slot_bytes;
      }
    }
    for (const Group& g : out_groups_[f]) {
      const std::int64_t k = segment_items(g);
      bytes +=
          std::min(out.sends, (g.last - g.first + k - 1) / k) * std::min(k, g.last - g.first) * b;
    }
  }
  shrink_to_budget(out, bytes, shrinkable, in_place);
  return out;
}

// Automatic windows over max_staging_bytes shrink proportionally (to no fewer than their floor).
void Redistribution::shrink_to_budget(Slots& slots, std::int64_t bytes, std::int64_t shrinkable,
                                      bool in_place) const {
  const std::int64_t budget = options_.max_staging_bytes;
  if (options_.window != 0 || budget <= 0 || bytes <= budget || shrinkable <= 0) return;
  const double keep =
      std::max(0.0, 1.0 - static_cast<double>(bytes - budget) / static_cast<double>(shrinkable));
  for (int f = 0; f < 2; ++f) {
    for (std::size_t i = 0; i < in_groups_[f].size(); ++i) {
      if (in_groups_[f][i].hops > 1 || in_place) {
        std::int64_t& n = slots.in[f][i];
        n = std::max<std::int64_t>(slots.floor[f][i],
                                   static_cast<std::int64_t>(static_cast<double>(n) * keep));
      }
    }
  }
}

std::size_t Redistribution::staging_bound(std::size_t item_bytes, bool in_place) const {
  const Slots n = slots(item_bytes, in_place);
  std::int64_t items = 0;
  for (int f = 0; f < 2; ++f) {
    for (std::size_t i = 0; i < in_groups_[f].size(); ++i) {
      const Group& g = in_groups_[f][i];
      if (g.hops > 1 || in_place)
        items += n.in[f][i] * std::min(segment_items(g), g.last - g.first);
    }
    for (const Group& g : out_groups_[f]) {
      const std::int64_t k = segment_items(g);
      items += std::min(n.sends, (g.last - g.first + k - 1) / k) * std::min(k, g.last - g.first);
    }
  }
  return static_cast<std::size_t>(items) * item_bytes;
}

std::int64_t Redistribution::messages() const {
  std::int64_t count = 0;
  for (int f = 0; f < 2; ++f) {
    for (const auto* groups : {&in_groups_[f], &out_groups_[f]}) {
      for (const Group& g : *groups) {
        const std::int64_t k = segment_items(g);
        count += (g.last - g.first + k - 1) / k;
      }
    }
  }
  return count;
}

std::int64_t Redistribution::request_slots(std::size_t item_bytes, bool in_place) const {
  const Slots n = slots(item_bytes, in_place);
  std::int64_t count = 0;
  for (int f = 0; f < 2; ++f) {
    for (std::int64_t c : n.in[f]) count += std::max<std::int64_t>(1, c);
    count += n.sends * static_cast<std::int64_t>(out_groups_[f].size());
  }
  return count;
}

namespace {

constexpr int kCalibrationTag = 7303;

// One link's ping-pongs, on the pinging side: `repetitions` pings of `buf` to `to`, each
// acknowledged by one byte. Returns the seconds per item. A failed call is logged and the
// exchange carries on, so that both sides make the same calls (the step's agreement reports it).
double ping(MPI_Comm comm, CallLog& log, int to, std::vector<std::byte>& buf, int repetitions,
            std::int64_t items) {
  char ack = 0;
  const double t0 = MPI_Wtime();
  for (int r = 0; r < repetitions; ++r) {
    log.check("MPI_Send", [&] {
      return MPI_Send(buf.data(), static_cast<int>(buf.size()), MPI_BYTE, to, kCalibrationTag,
                      comm);
    });
    log.check("MPI_Recv", [&] {
      return MPI_Recv(&ack, 1, MPI_CHAR, to, kCalibrationTag, comm, MPI_STATUS_IGNORE);
    });
  }
  const double per_item = (MPI_Wtime() - t0) / repetitions / static_cast<double>(items);
  return std::max(per_item, kShortestItemCost);
}

// The other side: receives each ping and acknowledges it.
void pong(MPI_Comm comm, CallLog& log, int from, std::vector<std::byte>& buf, int repetitions) {
  char ack = 0;
  for (int r = 0; r < repetitions; ++r) {
    log.check("MPI_Recv", [&] {
      return MPI_Recv(buf.data(), static_cast<int>(buf.size()), MPI_BYTE, from, kCalibrationTag,
                      comm, MPI_STATUS_IGNORE);
    });
    log.check("MPI_Send", [&] { return MPI_Send(&ack, 1, MPI_CHAR, from, kCalibrationTag, comm); });
  }
}

}  // namespace

LinkCosts calibrate_link_costs(MPI_Comm comm, std::size_t item_bytes, std::int64_t items,
                               int repetitions) {
  const Communicator c(comm, "calibrate_link_costs");
  CallLog log("calibrate_link_costs", c.rank());
  // Collective check: one ping carries items * item_bytes bytes in one MPI message (int count).
  std::int64_t bad = items < 1 || repetitions < 1 || item_bytes < 1 ||
                     static_cast<std::uint64_t>(items) > INT_MAX / item_bytes;
  agree_or_throw(c.get(), log, std::span(&bad, 1));
  if (bad != 0) {
    throw Error(
        "redist::mpi: calibration needs items >= 1, repetitions >= 1, item_bytes >= 1 and a "
        "message of items x item_bytes <= 2^31-1 bytes on every rank");
  }
  LinkCosts costs;
  if (c.size() < 2) return costs;
  std::vector<std::byte> buf(item_bytes * static_cast<std::size_t>(items));
  const int rank = c.rank(), size = c.size();
  for (int dir = 0; dir < 2; ++dir) {
    for (int link = 0; link < size; ++link) {
      // One link busy at a time: the agreement on the previous link's calls separates them.
      agree_or_throw(c.get(), log);
      const int to = dir == 0 ? (link + 1) % size : (link + size - 1) % size;
      if (rank == link) {
        (dir == 0 ? costs.next : costs.prev) = ping(c.get(), log, to, buf, repetitions, items);
      } else if (rank == to) {
        pong(c.get(), log, link, buf, repetitions);
      }
    }
  }
  agree_or_throw(c.get(), log);
  return costs;
}

}  // namespace redist::mpi
