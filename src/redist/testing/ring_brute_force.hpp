// An independent brute force for tiny rings (test support): the optimum found by searching every
// schedule of unit time steps, with no notion of flows, for the exact solver's tests and the
// differential campaign (src/redist/api/differential_test.cpp).
#pragma once

#include <cstdint>
#include <functional>
#include <unordered_set>

#include "redist/ring/model.hpp"

namespace redist::testkit {

// An independent brute force for tiny rings (n <= 4, integer costs <= 15, at most 15 items):
// breadth-first search over unit time steps with no notion of flows at all (items may travel
// anywhere, even back and forth). A state is the items held by each processor and each
// processor's send in flight (direction, time left), packed in 64 bits. Returns the least time
// at which every processor holds its target with nothing in flight (-1 beyond max_time).
inline int brute_force_optimum(const ring::Instance& in, int max_time = 40) {
  const int n = static_cast<int>(in.size());
  auto succ = [&](int i) { return (i + 1) % n; };
  auto pred = [&](int i) { return (i + n - 1) % n; };
  auto to = [&](int i, int d) { return d == 0 ? succ(i) : pred(i); };
  auto cost = [&](int i, int d) {
    return static_cast<int>(d == 0 ? in.cost_next[i] : in.cost_prev[i]);
  };
  struct Unpacked {
    int held[4], dir[4], left[4];  // dir -1 none, 0 next, 1 prev
  };
  auto pack = [&](const Unpacked& u) {
    std::uint64_t v = 0;
    for (int i = 0; i < n; ++i)
      v = (v << 14) | (static_cast<std::uint64_t>(u.held[i]) << 6) |
          (static_cast<std::uint64_t>(u.dir[i] + 1) << 4) | static_cast<std::uint64_t>(u.left[i]);
    return v;
  };
  auto unpack = [&](std::uint64_t v) {
    Unpacked u;
    for (int i = n - 1; i >= 0; --i) {
      u.left[i] = static_cast<int>(v & 15);
      u.dir[i] = static_cast<int>((v >> 4) & 3) - 1;
      u.held[i] = static_cast<int>((v >> 6) & 255);
      v >>= 14;
    }
    return u;
  };
  Unpacked start{};
  for (int i = 0; i < n; ++i) {
    start.held[i] = static_cast<int>(in.loads[i]);
    start.dir[i] = -1;
  }
  std::unordered_set<std::uint64_t> layer{pack(start)};
  for (int t = 0; t <= max_time; ++t) {
    std::unordered_set<std::uint64_t> next_layer;
    for (std::uint64_t packed : layer) {
      const Unpacked s = unpack(packed);
      bool goal = true;
      for (int i = 0; i < n; ++i) goal = goal && s.dir[i] < 0 && s.held[i] == in.targets[i];
      if (goal) return t;
      // Every combination of decisions (idle / next / prev) of the free senders holding items.
      int choice[4] = {-1, -1, -1, -1};
      std::function<void(int)> rec = [&](int i) {
        if (i == n) {
          Unpacked u = s;
          bool busy[4] = {false, false, false, false};
          for (int p = 0; p < n; ++p)
            if (s.dir[p] >= 0) busy[to(p, s.dir[p])] = true;
          for (int p = 0; p < n; ++p) {
            if (choice[p] < 0) continue;
            const int r = to(p, choice[p]);
            if (busy[r]) return;  // receive port taken
            busy[r] = true;
            --u.held[p];
            u.dir[p] = choice[p];
            u.left[p] = cost(p, choice[p]);
          }
          for (int p = 0; p < n; ++p) {
            if (u.dir[p] < 0) continue;
            if (--u.left[p] == 0) {
              ++u.held[to(p, u.dir[p])];
              u.dir[p] = -1;
            }
          }
          next_layer.insert(pack(u));
          return;
        }
        choice[i] = -1;
        rec(i + 1);
        if (s.dir[i] >= 0 || s.held[i] == 0) return;
        for (int d = 0; d < (in.bidirectional ? 2 : 1); ++d) {
          choice[i] = d;
          rec(i + 1);
        }
        choice[i] = -1;
      };
      rec(0);
    }
    layer.swap(next_layer);
  }
  return -1;
}

}  // namespace redist::testkit
