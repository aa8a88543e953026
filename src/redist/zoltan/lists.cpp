#include "redist/zoltan/lists.hpp"

namespace redist::zoltan {

Lists copy_lists(const ZoltanArrays& arrays, IdShape ids) {
  Lists lists;
  const auto n = static_cast<std::size_t>(arrays.count);
  if (n == 0) return lists;
  const auto gids = n * static_cast<std::size_t>(ids.gid_entries);
  const auto lids = n * static_cast<std::size_t>(ids.lid_entries);
  lists.global_ids.assign(arrays.global_ids, arrays.global_ids + gids);
  if (lids > 0 && arrays.local_ids != nullptr) {
    lists.local_ids.assign(arrays.local_ids, arrays.local_ids + lids);
  } else {
    lists.local_ids.assign(lids, 0);
  }
  lists.procs.assign(arrays.procs, arrays.procs + n);
  if (arrays.parts != nullptr) {
    lists.parts.assign(arrays.parts, arrays.parts + n);
  } else {
    lists.parts = lists.procs;
  }
  return lists;
}

}  // namespace redist::zoltan
