// `redist experiment star` (docs/README.md): reruns STAR §4 (Table 1, Figures 22-25) and adds the
// distance to the true optimum on platforms small enough for `exact`.
//
// For each of the 4 platform types (links hom/het x computation hom/het) and 3 parameter ranges
// (general, c <= w, c >= w) it draws `instances` random platforms (1000 as in the paper;
// redist/star/random_instances.hpp), runs BBA, MBBSA and R-BSA (and mbbsa-lazy, compared with MBBSA
// only), re-checks every schedule with the independent validator, and normalises each makespan by
// the best of the three. Outputs: table1.{json,md} (mean distance and standard deviation, with the
// paper's values), figure22{a,b,c}.svg .. figure25{a,b,c}.svg (cumulative share of platforms within
// a distance of the best; Figure 22(b) with the one value STAR's text states),
// figures22_25.{json,md} (those shares at fixed distances), optimum.{json,md} (distance to the
// optimum on small platforms), mbbsa_lazy.{json,md} (MBBSA against its lazy variant mbbsa-lazy on
// table1's platforms).
#pragma once

#include <cstdint>
#include <string>

#include <nlohmann/json.hpp>

namespace redist::experiments {

struct StarExperimentOptions {
  std::string out_dir;
  std::uint64_t seed = 1;
  std::int64_t instances = 1000;       // per platform type and range (Table 1)
  std::int64_t small_instances = 200;  // per platform type and range, for the optimum
};

// Returns the common summary (experiment_files.hpp); its "results" hold the rows of table1,
// figures22_25 and optimum as objects keyed by column. Progress on standard error.
nlohmann::ordered_json run_star_experiment(const StarExperimentOptions& options);

}  // namespace redist::experiments
