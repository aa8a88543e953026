// Gantt chart of a divisible-load schedule (`--gantt` on `redist dlt plan|check`, STAR §5), drawn
// with redist/svg/gantt.hpp: one row per worker, lanes "send", "recv" and "compute". Every
// transfer runs at its constant rate from time 0 (the switch model), so it is a bar [0, f/rate)
// on its sender's send lane and on its receiver's recv lane, labelled with the amount (transfers
// of one lane ending together share a bar and its label; longer bars lie under shorter); a worker
// computes from 0 to its finish time, max(final load / s, end of its last reception), the
// validator's formula. The title gives the makespan (the latest bar end); a dashed line marks it.
// Complexity: O(m + n) for n transfers.
//
// Size: at most kDltGanttMaxWorkers workers and kDltGanttMaxTransfers transfers (beyond, nobody
// can read it); require_dlt_gantt_size refuses larger ones.
#pragma once

#include <cstddef>
#include <string>

#include "redist/dlt/model.hpp"

namespace redist::svg {

inline constexpr std::size_t kDltGanttMaxWorkers = 1000;
inline constexpr std::size_t kDltGanttMaxTransfers = 20000;

// Throws OptionError at "gantt" when a chart of `workers` rows and `transfers` transfers is over
// the limits (`transfers` = 0: the workers alone, before planning).
void require_dlt_gantt_size(std::size_t workers, std::size_t transfers);

// The instance must have passed dlt::validate_instance, and the schedule dlt::check.
std::string dlt_gantt_svg(const dlt::Instance& instance, const dlt::Schedule& schedule,
                          const std::string& title);

}  // namespace redist::svg
