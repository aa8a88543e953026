#include "redist/mpi/redistribution.hpp"

#include <algorithm>
#include <climits>
#include <cmath>
#include <exception>
#include <type_traits>

#include <fmt/format.h>

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

// Broadcasts a string from rank 0.
void bcast_string(std::string& s, MPI_Comm comm) {
  std::int64_t len = static_cast<std::int64_t>(s.size());
  MPI_Bcast(&len, 1, MPI_INT64_T, 0, comm);
  s.resize(static_cast<std::size_t>(len));
  if (len > 0) MPI_Bcast(s.data(), static_cast<int>(len), MPI_CHAR, 0, comm);
}

}  // namespace

Redistribution::Redistribution(MPI_Comm comm, std::int64_t old_count, std::int64_t new_count,
                               LinkCosts costs, Options options)
    : options_(std::move(options)) {
  MPI_Comm_dup(comm, &comm_);
  MPI_Comm_rank(comm_, &rank_);
  MPI_Comm_size(comm_, &size_);
  const std::size_t n = static_cast<std::size_t>(size_);
  const RankWords mine = rank_words(old_count, new_count, options_);
  std::vector<RankWords> all(n);
  MPI_Allgather(&mine, kRankWords, MPI_INT64_T, all.data(), kRankWords, MPI_INT64_T, comm_);
  const double my_costs[2] = {costs.next, options_.bidirectional ? costs.prev : 1.0};
  std::vector<double> all_costs(2 * n);
  MPI_Allgather(my_costs, 2, MPI_DOUBLE, all_costs.data(), 2, MPI_DOUBLE, comm_);
  std::string error = check_gathered(all, all_costs, size_);
  if (error.empty() && size_ < 2 && old_count != new_count)
    error = "one rank cannot change its count";
  if (!error.empty()) {
    MPI_Comm_free(&comm_);
    throw Error("redist::mpi: " + error);
  }
  local_.load = local_.target = old_count;
  local_.total = old_count;
  plan_.flows.assign(n, 0);
  plan_.algorithm = "none";
  if (size_ < 2) return;

  instance_.bidirectional = options_.bidirectional;
  for (std::size_t r = 0; r < n; ++r) {
    instance_.loads.push_back(all[r].old_count);
    instance_.targets.push_back(all[r].new_count);
    instance_.cost_next.push_back(all_costs[2 * r]);
    if (options_.bidirectional) instance_.cost_prev.push_back(all_costs[2 * r + 1]);
  }
  // Plan on rank 0 only and broadcast: one source of truth for the flows (no risk of ranks
  // disagreeing through floating-point or solver differences), planning cost paid once.
  if (rank_ == 0) {
    try {
      plan_ = plan_flows(instance_, options_.mode, options_.algorithm);
      error = check_plan(plan_);
    } catch (const std::exception& e) {
      error = e.what();
      if (error.empty()) error = "planning failed";
    }
  }
  bcast_string(error, comm_);
  if (!error.empty()) {
    MPI_Comm_free(&comm_);
    throw Error("redist::mpi: " + error);
  }
  plan_.flows.resize(n);
  MPI_Bcast(plan_.flows.data(), size_, MPI_INT64_T, 0, comm_);
  MPI_Bcast(&plan_.makespan, 1, MPI_DOUBLE, 0, comm_);
  bcast_string(plan_.algorithm, comm_);
  plan_.rotation = plan_.flows[n - 1];
  local_ = make_local_plan(instance_, plan_.flows, rank_);
  for (int f = 0; f < 2; ++f) {
    const Side side = f == 0 ? Side::right : Side::left;
    const int upstream = f == 0 ? (rank_ + size_ - 1) % size_ : (rank_ + 1) % size_;
    out_groups_[f] = outgoing_groups(instance_, plan_.flows, rank_, side);
    in_groups_[f] = outgoing_groups(instance_, plan_.flows, upstream, side);
  }
  int* tag_ub = nullptr;
  int has_tag_ub = 0;
  MPI_Comm_get_attr(comm_, MPI_TAG_UB, &tag_ub, &has_tag_ub);
  const int max_tag = has_tag_ub && tag_ub != nullptr ? *tag_ub : 32767;
  tag_span_ = std::max(1, (max_tag - kTagBase - 1) / 2);
  {
    // Every rank needs the model's schedule (staging sizes, one-port order): broadcast it.
    std::int64_t runs = static_cast<std::int64_t>(plan_.transfers.size());
    MPI_Bcast(&runs, 1, MPI_INT64_T, 0, comm_);
    std::vector<std::int64_t> ints(static_cast<std::size_t>(3 * runs));
    std::vector<double> times(static_cast<std::size_t>(2 * runs));
    if (rank_ == 0) {
      for (std::size_t r = 0; r < plan_.transfers.size(); ++r) {
        const ring::Run& run = plan_.transfers[r];
        ints[3 * r] = run.from;
        ints[3 * r + 1] = static_cast<std::int64_t>(run.dir);
        ints[3 * r + 2] = run.count;
        times[2 * r] = run.start;
        times[2 * r + 1] = run.period;
      }
    }
    MPI_Bcast(ints.data(), static_cast<int>(ints.size()), MPI_INT64_T, 0, comm_);
    MPI_Bcast(times.data(), static_cast<int>(times.size()), MPI_DOUBLE, 0, comm_);
    plan_.transfers.resize(static_cast<std::size_t>(runs));
    for (std::size_t r = 0; r < plan_.transfers.size(); ++r) {
      plan_.transfers[r] = {ints[3 * r], static_cast<ring::Direction>(ints[3 * r + 1]),
                            times[2 * r], ints[3 * r + 2], times[2 * r + 1]};
    }
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

Redistribution::~Redistribution() {
  int finalized = 0;
  MPI_Finalized(&finalized);
  if (!finalized && comm_ != MPI_COMM_NULL) MPI_Comm_free(&comm_);
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

Redistribution::Slots Redistribution::slots(std::size_t item_bytes, bool in_place) const {
  const std::int64_t b = static_cast<std::int64_t>(item_bytes);
  Slots out;
  out.sends = options_.sends_in_flight;  // 1..kMaxSendsInFlight (checked at construction)
  std::int64_t bytes = 0, shrinkable = 0;
  for (int f = 0; f < 2; ++f) {
    for (std::size_t i = 0; i < in_groups_[f].size(); ++i) {
      const Group& g = in_groups_[f][i];
      const std::int64_t k = segment_items(g);
      const std::int64_t segs = (g.last - g.first + k - 1) / k;
      const std::int64_t slot_bytes = std::min(k, g.last - g.first) * b;
      // A forwarded group needs every segment that one outgoing message of the matching group
      // draws from (segments of the two groups differ in size) plus one: fewer would deadlock.
      std::int64_t floor = 2;
      for (const Group& o : out_groups_[f]) {
        if (g.hops > 1 && o.hops == g.hops - 1) {
          floor = std::max(floor, (segment_items(o) + k - 1) / k + 1);
        }
      }
      floor = std::min(floor, segs);
      out.floor[f].push_back(floor);
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
      n = std::max(std::min(n, segs), floor);
      out.in[f].push_back(n);
      if (g.hops > 1 || in_place) {
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
  // Automatic windows over the budget shrink proportionally (to no fewer than their floor).
  if (options_.window == 0 && options_.max_staging_bytes > 0 &&
      bytes > options_.max_staging_bytes && shrinkable > 0) {
    const double keep =
        std::max(0.0, 1.0 - static_cast<double>(bytes - options_.max_staging_bytes) /
                                static_cast<double>(shrinkable));
    for (int f = 0; f < 2; ++f) {
      for (std::size_t i = 0; i < in_groups_[f].size(); ++i) {
        if (in_groups_[f][i].hops > 1 || in_place) {
          std::int64_t& n = out.in[f][i];
          n = std::max<std::int64_t>(out.floor[f][i],
                                     static_cast<std::int64_t>(static_cast<double>(n) * keep));
        }
      }
    }
  }
  return out;
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

LinkCosts calibrate_link_costs(MPI_Comm comm, std::size_t item_bytes, std::int64_t items,
                               int repetitions) {
  int rank = 0, size = 1;
  MPI_Comm_rank(comm, &rank);
  MPI_Comm_size(comm, &size);
  LinkCosts costs;
  // Collective check: one ping carries items * item_bytes bytes in one MPI message (int count).
  std::int64_t bad = items < 1 || repetitions < 1 || item_bytes < 1 ||
                     static_cast<std::uint64_t>(items) > INT_MAX / item_bytes;
  MPI_Allreduce(MPI_IN_PLACE, &bad, 1, MPI_INT64_T, MPI_MAX, comm);
  if (bad != 0) {
    throw Error(
        "redist::mpi: calibration needs items >= 1, repetitions >= 1, item_bytes >= 1 and a "
        "message of items x item_bytes <= 2^31-1 bytes on every rank");
  }
  if (size < 2) return costs;
  const std::size_t bytes = item_bytes * static_cast<std::size_t>(items);
  std::vector<std::byte> buf(bytes);
  char ack = 0;
  const int tag = 7303;
  for (int dir = 0; dir < 2; ++dir) {
    for (int link = 0; link < size; ++link) {
      const int to = dir == 0 ? (link + 1) % size : (link + size - 1) % size;
      MPI_Barrier(comm);
      if (rank == link) {
        const double t0 = MPI_Wtime();
        for (int r = 0; r < repetitions; ++r) {
          MPI_Send(buf.data(), static_cast<int>(bytes), MPI_BYTE, to, tag, comm);
          MPI_Recv(&ack, 1, MPI_CHAR, to, tag, comm, MPI_STATUS_IGNORE);
        }
        const double per_item = (MPI_Wtime() - t0) / repetitions / static_cast<double>(items);
        (dir == 0 ? costs.next : costs.prev) = std::max(per_item, 1e-12);
      } else if (rank == to) {
        for (int r = 0; r < repetitions; ++r) {
          MPI_Recv(buf.data(), static_cast<int>(bytes), MPI_BYTE, link, tag, comm,
                   MPI_STATUS_IGNORE);
          MPI_Send(&ack, 1, MPI_CHAR, link, tag, comm);
        }
      }
    }
  }
  return costs;
}

}  // namespace redist::mpi
