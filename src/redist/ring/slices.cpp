#include "redist/ring/slices.hpp"

#include <algorithm>

namespace redist::ring {

namespace detail {

std::int64_t SliceExtremes::max_slice() const {
  std::int64_t best = kNoMax;
  if (trivial()) return best;
  for (const Entry& l : high_) {
    for (const Entry& m : low_) {
      if (m.index != l.index && m.index != pred(l.index)) best = std::max(best, l.value - m.value);
    }
  }
  return best;
}

std::int64_t SliceExtremes::min_slice() const {
  std::int64_t best = kNoMin;
  if (trivial()) return best;
  for (const Entry& l : low_) {
    for (const Entry& m : high_) {
      if (m.index != l.index && m.index != pred(l.index)) best = std::min(best, l.value - m.value);
    }
  }
  return best;
}

}  // namespace detail

}  // namespace redist::ring
