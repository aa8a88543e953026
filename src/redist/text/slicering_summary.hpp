// The readable summary of a SliceRing solution (SLICE; `redist slicering plan --format text`):
// the cluster, the algorithm, the time of one iteration (T_step, SLICE Eq. 1), the solution's own
// lower bound and whether it is proven optimal and how, the validator's verdict (computed by the
// caller), and the ring in order:
// each member's cycle-time, share, computation and communication time, and the link costs to its
// successor; the processors left out. Complexity: O(p + q).
#pragma once

#include <string>
#include <string_view>

#include "redist/common/check.hpp"
#include "redist/slicering/family.hpp"
#include "redist/slicering/model.hpp"
#include "redist/text/family_text.hpp"

namespace redist::text {

// `heading` opens the first line ("redist slicering plan"); `source` names the cluster ("" for
// none).
std::string slicering_summary(const slicering::Cluster& cluster,
                              const slicering::Solution& solution, const CheckResult& verdict,
                              std::string_view heading, std::string_view source);

template <>
struct TextFace<slicering::Family> {
  static std::string summary(const slicering::Cluster& instance, const slicering::Solution& result,
                             const CheckResult& verdict, std::string_view heading,
                             std::string_view source) {
    return slicering_summary(instance, result, verdict, heading, source);
  }
};

}  // namespace redist::text
