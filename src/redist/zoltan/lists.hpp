// Zoltan's import and export lists, held by redist (docs/zoltan.md).
//
// Zoltan_LB_Partition returns, on each rank, the objects it will receive (imports: global id,
// local id on the sender, sending rank, new part) and those it will send (exports: global id,
// local id here, receiving rank, new part), in arrays that Zoltan allocates and
// Zoltan_LB_Free_Part frees. ZoltanArrays owns one such set of arrays and frees it when destroyed
// (also when an exception passes); copy_lists copies it into a Lists of std::vectors, which is what
// a Proposal keeps. A global id is `gid_entries` consecutive ZOLTAN_ID_TYPE words, a local id
// `lid_entries` words (Zoltan's NUM_GID_ENTRIES and NUM_LID_ENTRIES; lid_entries may be 0).
#pragma once

#include <zoltan.h>

#include <cstddef>
#include <vector>

namespace redist::zoltan {

// The words of a global and of a local id.
struct IdShape {
  int gid_entries = 1;
  int lid_entries = 1;
};

// One side of a migration on one rank: object k has global id global_ids[k * gid_entries ...],
// local id local_ids[k * lid_entries ...], rank procs[k] (the destination of an export, the
// source of an import) and new part parts[k].
struct Lists {
  std::vector<ZOLTAN_ID_TYPE> global_ids;
  std::vector<ZOLTAN_ID_TYPE> local_ids;
  std::vector<int> procs;
  std::vector<int> parts;

  std::size_t size() const { return procs.size(); }
};

// Arrays allocated by Zoltan (Zoltan_LB_Partition, Zoltan_Invert_Lists), freed with
// Zoltan_LB_Free_Part. count < 0 is Zoltan's "list not computed" (RETURN_LISTS).
struct ZoltanArrays {
  int count = -1;
  ZOLTAN_ID_PTR global_ids = nullptr;
  ZOLTAN_ID_PTR local_ids = nullptr;
  int* procs = nullptr;
  int* parts = nullptr;

  ZoltanArrays() = default;
  ~ZoltanArrays() { Zoltan_LB_Free_Part(&global_ids, &local_ids, &procs, &parts); }
  ZoltanArrays(const ZoltanArrays&) = delete;
  ZoltanArrays& operator=(const ZoltanArrays&) = delete;
};

// The arrays' `count` objects as vectors; parts copied from procs when Zoltan gave none.
// Requires count >= 0.
Lists copy_lists(const ZoltanArrays& arrays, IdShape ids);

}  // namespace redist::zoltan
