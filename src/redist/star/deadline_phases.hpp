// STAR §3.4.3 and §3.5: Phases 1-2 shared by MBBSA (Algorithm 3) and R-BSA (Algorithm 5), and
// the construction of their schedules.
//
// For a target makespan M: senders are the workers with f_i = L_i w_i > M, and sender s must send
// l_s = ceil((f_s - M) / w_s) tasks (the least count with (L_s - l_s) w_s <= M); M is rejected
// when some sender cannot even send them in time (l_s c_s > M, Algorithm 3 line 7). Receivers are
// the workers with f_i < M; receiver r can take cap_r = #{k >= 1 : (L_r + k) w_r <= M} tasks, the
// k-th from the end arriving by its deadline M - k w_r (Phase 3). With `strict` every "<= M"
// above becomes "< M" (the test "is there a schedule of makespan < M", used to prove optimality).
// Senders send back to back from time 0 by non-decreasing c (ties: lower index), each all its
// tasks in a row; arrival[k] is when the k-th task has reached the master.
// Complexity: O(m log m + L_send).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "redist/star/model.hpp"

namespace redist::star {

struct SenderPhase {
  bool ok = false;                       // false: some sender cannot send its l_s tasks by M
  std::vector<std::size_t> senders;      // by non-decreasing c
  std::vector<std::int64_t> send_count;  // l_s per worker (0 for non-senders)
  std::int64_t total = 0;                // L_send
  std::vector<double> arrival;           // arrival[k]: k-th task at the master (size L_send)
  std::vector<std::size_t> receivers;    // workers with f_i < M (in index order)
};

SenderPhase sender_phase(const Instance& instance, double makespan, bool strict);

// cap_r of a receiver (at most `limit`).
std::int64_t receiver_capacity(const Instance& instance, std::size_t r, double makespan,
                               bool strict, std::int64_t limit);

// The schedule where the k-th task to reach the master is forwarded to receivers[k], each
// forward as early as possible (after the task's arrival and the previous forward).
Schedule build_forward_schedule(const Instance& instance, const SenderPhase& phase,
                                const std::vector<std::size_t>& receivers,
                                const std::string& algorithm);

}  // namespace redist::star
