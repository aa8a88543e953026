#include "redist/zoltan/wire.hpp"

#include <zoltan.h>

#include <climits>

namespace redist::zoltan {

WireFormat::WireFormat(int gid_entries) : unit_(Zoltan_Align(1)) {
  if (unit_ < 1) unit_ = 1;
  id_bytes_ = static_cast<int>(padded(std::int64_t{gid_entries} * sizeof(ZOLTAN_ID_TYPE)));
  size_bytes_ = static_cast<int>(padded(sizeof(int)));
}

std::int64_t WireFormat::max_size() const {
  return (INT_MAX - std::int64_t{header_bytes()}) / unit_ * unit_;
}

}  // namespace redist::zoltan
