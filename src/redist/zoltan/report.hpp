// This rank's part of a proposal's census (census.hpp): its objects (ZOLTAN_OBJ_LIST_FN), the
// sizes of those it exports to another rank (the size function), grouped by peer. Throws
// CallbackError (queries.hpp) for lists that name a rank out of range, an exported global id
// that is not one of the rank's objects or is exported twice, ids of the wrong length, a failing
// callback, a negative size, or more than 2^31-1 bytes to send. O(n log n + e log n) for n
// objects and e exports.
#pragma once

#include "redist/zoltan/callbacks.hpp"
#include "redist/zoltan/census.hpp"
#include "redist/zoltan/lists.hpp"
#include "redist/zoltan/wire.hpp"

namespace redist::zoltan {

struct Migration {  // one rank's lists and the settings they come with
  IdShape ids;
  const Lists* imports = nullptr;
  const Lists* exports = nullptr;
  int weight_dim = 0;
  int rank = 0;
  int ranks = 0;
};

// The shape of a list: ids of ids.gid_entries and ids.lid_entries words, one proc and one part
// per object, ranks in 0..ranks-1. `name` names it in the message ("exports").
void check_lists(const Lists& lists, IdShape ids, int ranks, const char* name);

RankReport local_report(const Callbacks& callbacks, const Migration& migration);

}  // namespace redist::zoltan
