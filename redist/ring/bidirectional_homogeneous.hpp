// RRV04 §5, Algorithm 3: optimal redistribution on homogeneous bidirectional rings.
#pragma once

#include "redist/ring/model.hpp"

namespace redist::ring {

// Requires a bidirectional ring whose costs are all equal (throws InputError otherwise).
Schedule plan_bidirectional_homogeneous(const Instance& instance);

}  // namespace redist::ring
