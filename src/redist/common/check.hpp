// The verdict of every family's independent validator (`check`, docs/formats.md): a valid
// schedule or solution and the makespan recomputed from it, or an invalid one and why.
#pragma once

#include <cstddef>
#include <string>
#include <utility>
#include <vector>

namespace redist {

struct CheckResult {
  bool valid = false;
  double makespan = 0.0;  // recomputed; meaningful when valid
  std::string reason;     // the first violation found, when invalid
  // When invalid, the entries of the checked document that the first violation is about, as
  // indices into the list the family's validator names (exchange: pieces; lau: nodes; slicering:
  // ring positions; ring, star and DLT: transfers), in the order the reason names them; empty when
  // the violation is about no entry in particular (a wrong claim, a sum) or the family does not
  // say. What `check --gantt` outlines in red.
  std::vector<std::size_t> entries{};
};

// A validator's first violation, as its checks find it: the reason and the entries it is about
// (CheckResult::entries); no reason means none found.
struct Violation {
  std::string reason;
  std::vector<std::size_t> entries{};
  bool found() const { return !reason.empty(); }
};

// The verdict of a violation found, with the makespan recomputed so far.
inline CheckResult invalid_result(Violation v, double makespan = 0.0) {
  return CheckResult{false, makespan, std::move(v.reason), std::move(v.entries)};
}

}  // namespace redist
