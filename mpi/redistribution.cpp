#include "mpi/redistribution.hpp"

#include <algorithm>
#include <climits>
#include <cmath>
#include <cstring>
#include <exception>
#include <limits>

#include <fmt/format.h>

namespace redist::mpi {

namespace {

constexpr int kTagBase = 7400;  // group tags: kTagBase + 2 * hops + side (group_tag)
// Gathered per rank: old, new, mode, bidirectional, K, window, sends, one_port, min_segments.
constexpr int kFields = 9;

std::string check_gathered(const std::vector<std::int64_t>& ints, const std::vector<double>& costs,
                           int n) {
  for (int r = 0; r < n; ++r) {
    const std::int64_t* v = &ints[static_cast<std::size_t>(r) * kFields];
    if (v[0] < 0) return fmt::format("negative old count {} on rank {}", v[0], r);
    if (v[1] < 0) return fmt::format("negative new count {} on rank {}", v[1], r);
    for (int f = 2; f < kFields; ++f) {
      if (v[f] != ints[static_cast<std::size_t>(f)]) {
        return fmt::format("options differ between rank 0 and rank {}", r);
      }
    }
  }
  if (ints[4] < 1) return fmt::format("segment_items must be >= 1 (got {})", ints[4]);
  if (ints[5] < 0) return fmt::format("window must be >= 0 (0: automatic; got {})", ints[5]);
  if (ints[8] < 1) return fmt::format("min_segments must be >= 1 (got {})", ints[8]);
  std::int64_t old_sum = 0, new_sum = 0;
  for (int r = 0; r < n; ++r) {
    const std::int64_t* v = &ints[static_cast<std::size_t>(r) * kFields];
    if (__builtin_add_overflow(old_sum, v[0], &old_sum) ||
        __builtin_add_overflow(new_sum, v[1], &new_sum)) {
      return "item counts overflow 64 bits";
    }
  }
  if (old_sum != new_sum) {
    return fmt::format("new counts sum to {} but old counts sum to {}", new_sum, old_sum);
  }
  const bool bidi = ints[3] != 0;
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
  if (options_.window > 0) options_.window = std::max<std::int64_t>(options_.window, 2);
  MPI_Comm_dup(comm, &comm_);
  MPI_Comm_rank(comm_, &rank_);
  MPI_Comm_size(comm_, &size_);
  const std::size_t n = static_cast<std::size_t>(size_);
  const std::int64_t mine[kFields] = {old_count,
                                      new_count,
                                      static_cast<std::int64_t>(options_.mode),
                                      options_.bidirectional ? 1 : 0,
                                      options_.segment_items,
                                      options_.window,
                                      options_.sends_in_flight,
                                      options_.one_port ? 1 : 0,
                                      options_.min_segments};
  std::vector<std::int64_t> ints(n * kFields);
  MPI_Allgather(mine, kFields, MPI_INT64_T, ints.data(), kFields, MPI_INT64_T, comm_);
  const double my_costs[2] = {costs.next, options_.bidirectional ? costs.prev : 1.0};
  std::vector<double> all_costs(2 * n);
  MPI_Allgather(my_costs, 2, MPI_DOUBLE, all_costs.data(), 2, MPI_DOUBLE, comm_);
  std::string error = check_gathered(ints, all_costs, size_);
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
    instance_.loads.push_back(ints[r * kFields]);
    instance_.targets.push_back(ints[r * kFields + 1]);
    instance_.cost_next.push_back(all_costs[2 * r]);
    if (options_.bidirectional) instance_.cost_prev.push_back(all_costs[2 * r + 1]);
  }
  // Plan on rank 0 only and broadcast: one source of truth for the flows (no risk of ranks
  // disagreeing through floating-point or solver differences), planning cost paid once.
  if (rank_ == 0) {
    try {
      plan_ = plan_flows(instance_, options_.mode, options_.algorithm);
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
    const ring::Direction dir = f == 0 ? ring::Direction::next : ring::Direction::prev;
    const int upstream = f == 0 ? (rank_ + size_ - 1) % size_ : (rank_ + 1) % size_;
    for (const Group& g : in_groups_[f]) {
      if (g.hops > 1) {
        in_peaks_[f].push_back(peak_forwarded(instance_, plan_.transfers, local_, side, g));
      } else {
        const DepartureTimes up(instance_, plan_.transfers, upstream, dir);
        const double cost = instance_.cost(static_cast<std::size_t>(upstream), dir);
        const std::int64_t early =
            std::clamp<std::int64_t>(up.count_until(own_gone - cost), g.first, g.last) - g.first;
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
  out.sends = std::clamp<std::int64_t>(options_.sends_in_flight, 1, 64);
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

LinkCosts calibrate_link_costs(MPI_Comm comm, std::size_t item_bytes, std::int64_t items,
                               int repetitions) {
  int rank = 0, size = 1;
  MPI_Comm_rank(comm, &rank);
  MPI_Comm_size(comm, &size);
  LinkCosts costs;
  if (size < 2) return costs;
  const std::size_t bytes = std::max<std::size_t>(1, item_bytes) * static_cast<std::size_t>(items);
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
