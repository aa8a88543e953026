// The readable summaries of the star family (STAR; `redist star plan --format text`,
// `redist dlt plan --format text`).
//  - star_summary: the platform, algorithm, makespan, lower bound, optimality and why, the
//    validator's verdict, each worker's final task count and finish time, and who sends how many
//    tasks to whom through the master (one row per sender and receiver, with its time window).
//    Complexity: O(m + transfers log transfers).
//  - dlt_summary: the platform, makespan (LP 7's optimum), the validator's verdict, each worker's
//    final load, and the transfers with their amounts and rates. Complexity: O(m + transfers).
#pragma once

#include <string>
#include <string_view>

#include "redist/star/dlt.hpp"
#include "redist/star/model.hpp"

namespace redist::text {

std::string star_summary(const star::Instance& instance, const star::Schedule& schedule,
                         std::string_view heading, std::string_view source);

std::string dlt_summary(const star::DltInstance& instance, const star::DltSchedule& schedule,
                        std::string_view heading, std::string_view source);

}  // namespace redist::text
