#include "mpi/redistribution.hpp"

#include <algorithm>
#include <climits>
#include <cmath>
#include <cstring>
#include <exception>

#include <fmt/format.h>

namespace redist::mpi {

namespace {

constexpr int kTagRight = 7301;  // items moving to succ
constexpr int kTagLeft = 7302;   // items moving to pred
constexpr int kFields = 7;  // gathered per rank: old, new, mode, bidirectional, K, window, sends

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
  options_.window = std::max<std::int64_t>(options_.window, 2);
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
                                      options_.sends_in_flight};
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
}

Redistribution::~Redistribution() {
  int finalized = 0;
  MPI_Finalized(&finalized);
  if (!finalized && comm_ != MPI_COMM_NULL) MPI_Comm_free(&comm_);
}

std::size_t Redistribution::staging_bound(std::size_t item_bytes) const {
  const std::size_t k = static_cast<std::size_t>(options_.segment_items);
  const std::size_t w = static_cast<std::size_t>(options_.window);
  std::size_t streams = 0;
  for (const Stream* s : {&local_.right, &local_.left}) {
    streams += (s->in > 0 ? 1 : 0) + (s->out > 0 ? 1 : 0);
  }
  return streams * w * k * item_bytes;
}

void Redistribution::execute(void* data, std::size_t item_bytes) {
  execute_impl(data, item_bytes, 0);
}

namespace {

// One direction of item movement through this rank (see LocalPlan::Stream).
struct Flow {
  Side side;
  Stream s;
  int peer_in = -1, peer_out = -1, tag = 0;
  std::int64_t n_in = 0, n_out = 0;      // segments
  std::int64_t in_cap = 0, out_cap = 0;  // slots
  std::vector<std::byte> in_buf, out_buf;
  std::vector<std::int64_t> in_seg;  // segment in each receive slot, -1 when free
  std::int64_t next_post = 0, next_release = 0, next_out = 0;
  std::int64_t own_copied = 0, fwd_copied = 0;
};

}  // namespace

void Redistribution::execute_impl(void* data, std::size_t item_bytes, int local_error) {
  const std::int64_t need = std::max(local_.load, local_.target);
  std::int64_t local[4] = {static_cast<std::int64_t>(item_bytes),
                           -static_cast<std::int64_t>(item_bytes),
                           (data == nullptr && need > 0) ? 1 : 0, local_error};
  std::int64_t global[4];
  MPI_Allreduce(local, global, 4, MPI_INT64_T, MPI_MAX, comm_);
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
  } else if (k_items > INT_MAX / max_bytes) {
    error = fmt::format("a segment of {} items of {} bytes exceeds one MPI message (2^31-1 bytes)",
                        k_items, max_bytes);
  }
  if (!error.empty()) throw Error("redist::mpi: " + error);
  last_staging_bytes_ = 0;
  if (size_ < 2) return;

  const std::int64_t B = static_cast<std::int64_t>(item_bytes);
  const std::int64_t W = options_.window;
  const std::int64_t sends_in_flight = std::clamp<std::int64_t>(options_.sends_in_flight, 1, W);
  std::byte* base = static_cast<std::byte*>(data);
  const int succ = (rank_ + 1) % size_, pred = (rank_ + size_ - 1) % size_;

  Flow flows[2];
  flows[0].side = Side::right;
  flows[0].s = local_.right;
  flows[0].peer_in = pred;
  flows[0].peer_out = succ;
  flows[0].tag = kTagRight;
  flows[1].side = Side::left;
  flows[1].s = local_.left;
  flows[1].peer_in = succ;
  flows[1].peer_out = pred;
  flows[1].tag = kTagLeft;
  // Requests: per flow, W receive slots then W send slots.
  std::vector<MPI_Request> reqs(static_cast<std::size_t>(4 * W), MPI_REQUEST_NULL);
  auto recv_req = [&](int f, std::int64_t slot) -> MPI_Request& {
    return reqs[static_cast<std::size_t>((2 * f) * W + slot)];
  };
  auto send_req = [&](int f, std::int64_t slot) -> MPI_Request& {
    return reqs[static_cast<std::size_t>((2 * f + 1) * W + slot)];
  };
  for (Flow& fl : flows) {
    fl.n_in = (fl.s.in + k_items - 1) / k_items;
    fl.n_out = (fl.s.out + k_items - 1) / k_items;
    fl.in_cap = std::min(W, fl.n_in);
    fl.out_cap = std::min(W, fl.n_out);
    fl.in_buf.resize(static_cast<std::size_t>(fl.in_cap * std::min(k_items, fl.s.in) * B));
    fl.out_buf.resize(static_cast<std::size_t>(fl.out_cap * std::min(k_items, fl.s.out) * B));
    fl.in_seg.assign(static_cast<std::size_t>(fl.in_cap), -1);
    last_staging_bytes_ += fl.in_buf.size() + fl.out_buf.size();
  }
  auto in_slot_ptr = [&](Flow& fl, std::int64_t seg) {
    return fl.in_buf.data() + (seg % fl.in_cap) * std::min(k_items, fl.s.in) * B;
  };
  auto out_slot_ptr = [&](Flow& fl, std::int64_t seg) {
    return fl.out_buf.data() + (seg % fl.out_cap) * std::min(k_items, fl.s.out) * B;
  };
  // Copies items [x, y) of stream `side` between two item arrays whose offsets are affine in k
  // with the stream's orientation (decreasing offsets for `right`, increasing for `left`).
  auto copy_items = [&](Side side, std::byte* dst, auto dst_off, const std::byte* src, auto src_off,
                        std::int64_t x, std::int64_t y) {
    if (y <= x) return;
    const std::int64_t k = side == Side::right ? y - 1 : x;
    std::memcpy(dst + dst_off(k) * B, src + src_off(k) * B, static_cast<std::size_t>((y - x) * B));
  };
  bool moved = false;
  std::vector<int> indices(reqs.size());

  for (;;) {
    bool progress = true;
    while (progress) {
      progress = false;
      for (int f = 0; f < 2; ++f) {
        Flow& fl = flows[f];
        const Side side = fl.side;
        // 1. Post receives while a slot is free (segments are matched in posting order).
        while (fl.next_post < fl.n_in && fl.in_seg[fl.next_post % fl.in_cap] == -1) {
          const std::int64_t seg = fl.next_post;
          const std::int64_t len = std::min(k_items, fl.s.in - seg * k_items);
          MPI_Irecv(in_slot_ptr(fl, seg), static_cast<int>(len * B), MPI_BYTE, fl.peer_in, fl.tag,
                    comm_, &recv_req(f, seg % fl.in_cap));
          fl.in_seg[seg % fl.in_cap] = seg;
          ++fl.next_post;
          progress = true;
        }
        // 2. Assemble and send outgoing segments whose items are all here.
        auto sending = [&] {
          std::int64_t active = 0;
          for (std::int64_t q = 0; q < fl.out_cap; ++q)
            active += send_req(f, q) != MPI_REQUEST_NULL;
          return active;
        };
        while (fl.next_out < fl.n_out &&
               send_req(f, fl.next_out % fl.out_cap) == MPI_REQUEST_NULL &&
               sending() < sends_in_flight) {
          const std::int64_t seg = fl.next_out;
          const std::int64_t a = seg * k_items, b = std::min(a + k_items, fl.s.out);
          const std::int64_t own_end = std::min(b, fl.s.own_out);
          const std::int64_t in_lo = std::max(a, fl.s.own_out) - fl.s.own_out;
          const std::int64_t in_hi = b - fl.s.own_out;  // received items [in_lo, in_hi)
          bool ready = true;
          if (in_hi > in_lo) {
            for (std::int64_t j = in_lo / k_items; j <= (in_hi - 1) / k_items; ++j) {
              if (j >= fl.next_post || fl.in_seg[j % fl.in_cap] != j ||
                  recv_req(f, j % fl.in_cap) != MPI_REQUEST_NULL) {
                ready = false;
                break;
              }
            }
          }
          if (!ready) break;
          std::byte* msg = out_slot_ptr(fl, seg);
          auto msg_off = [&](std::int64_t k) { return position_in_segment(side, a, b, k); };
          copy_items(
              side, msg, msg_off, base, [&](std::int64_t k) { return local_.own_offset(side, k); },
              a, own_end);
          for (std::int64_t j = in_hi > in_lo ? in_lo / k_items : 0;
               in_hi > in_lo && j <= (in_hi - 1) / k_items; ++j) {
            const std::int64_t ja = j * k_items, jb = std::min(ja + k_items, fl.s.in);
            const std::int64_t x = std::max(ja, in_lo), y = std::min(jb, in_hi);
            copy_items(
                side, msg, [&](std::int64_t k) { return msg_off(k + fl.s.own_out); },
                in_slot_ptr(fl, j),
                [&](std::int64_t k) { return position_in_segment(side, ja, jb, k); }, x, y);
          }
          fl.own_copied = std::max(fl.own_copied, own_end);
          if (in_hi > in_lo) fl.fwd_copied = in_hi;
          MPI_Isend(msg, static_cast<int>((b - a) * B), MPI_BYTE, fl.peer_out, fl.tag, comm_,
                    &send_req(f, seg % fl.out_cap));
          ++fl.next_out;
          progress = true;
        }
      }
      // 3. Move the kept items once every own outgoing item has been copied out.
      if (!moved && flows[0].own_copied == local_.right.own_out &&
          flows[1].own_copied == local_.left.own_out) {
        if (local_.kept > 0 && local_.kept_from != local_.kept_to) {
          std::memmove(base + local_.kept_to * B, base + local_.kept_from * B,
                       static_cast<std::size_t>(local_.kept * B));
        }
        moved = true;
        progress = true;
      }
      // 4. Place and release received segments, oldest first.
      for (int f = 0; f < 2; ++f) {
        Flow& fl = flows[f];
        const Side side = fl.side;
        while (fl.next_release < fl.next_post) {
          const std::int64_t j = fl.next_release;
          if (recv_req(f, j % fl.in_cap) != MPI_REQUEST_NULL) break;
          const std::int64_t ja = j * k_items, jb = std::min(ja + k_items, fl.s.in);
          if (fl.fwd_copied < std::min(jb, fl.s.fwd)) break;
          if (jb > fl.s.fwd) {
            if (!moved) break;
            copy_items(
                side, base, [&](std::int64_t k) { return local_.placed_offset(side, k); },
                in_slot_ptr(fl, j),
                [&](std::int64_t k) { return position_in_segment(side, ja, jb, k); },
                std::max(ja, fl.s.fwd), jb);
          }
          fl.in_seg[j % fl.in_cap] = -1;
          ++fl.next_release;
          progress = true;
        }
      }
    }
    bool done = moved;
    for (const Flow& fl : flows) {
      done = done && fl.next_out == fl.n_out && fl.next_release == fl.n_in;
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
