// The verdict of every family's independent validator (`check`, docs/formats.md): a valid
// schedule or solution and the makespan recomputed from it, or an invalid one and why.
#pragma once

#include <string>

namespace redist {

struct CheckResult {
  bool valid = false;
  double makespan = 0.0;  // recomputed; meaningful when valid
  std::string reason;     // the first violation found, when invalid
};

}  // namespace redist
