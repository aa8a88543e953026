// The readable summary of a ring redistribution (RRV04; `redist ring plan --format text`,
// `redist demo`): the ring, the algorithm, makespan, every lower bound term that applies, whether
// the schedule is proven optimal and why, the independent validator's verdict, the flows, and who
// sends what to whom (one row per run, with its time window).
// Complexity: that of ring_bounds and the validator (O(n^2) at most, Lemma 12), plus O(runs).
#pragma once

#include <string>
#include <string_view>

#include "redist/ring/model.hpp"

namespace redist::text {

// `heading` opens the first line ("redist ring plan"); `source` names the instance ("" for none).
std::string ring_summary(const ring::Instance& instance, const ring::Schedule& schedule,
                         std::string_view heading, std::string_view source);

}  // namespace redist::text
