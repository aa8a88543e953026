// The query and migration functions an application registered on its Zoltan handle, read back
// with Zoltan_Get_Fn (docs/zoltan.md): the adapter calls exactly the functions Zoltan_Migrate
// would, so an existing Zoltan code migrates through redist without writing a new callback.
//
// Zoltan keeps at most one of each pair (registering the MULTI form clears the single-object
// form and conversely): whichever is set is used, the MULTI form when both would be.
#pragma once

#include <zoltan.h>

#include <string>

namespace redist::zoltan {

template <class Fn>
struct Registered {
  Fn* fn = nullptr;
  void* data = nullptr;
  explicit operator bool() const { return fn != nullptr; }
};

struct Callbacks {
  Registered<ZOLTAN_NUM_OBJ_FN> num_obj;
  Registered<ZOLTAN_OBJ_LIST_FN> obj_list;
  Registered<ZOLTAN_OBJ_SIZE_FN> obj_size;
  Registered<ZOLTAN_OBJ_SIZE_MULTI_FN> obj_size_multi;
  Registered<ZOLTAN_PACK_OBJ_FN> pack;
  Registered<ZOLTAN_PACK_OBJ_MULTI_FN> pack_multi;
  Registered<ZOLTAN_UNPACK_OBJ_FN> unpack;
  Registered<ZOLTAN_UNPACK_OBJ_MULTI_FN> unpack_multi;
  // Migration hooks, called in Zoltan_Migrate's order: pre (PP, then plain) before the sizes are
  // asked, mid after the data arrived and before unpacking, post after unpacking.
  Registered<ZOLTAN_PRE_MIGRATE_PP_FN> pre_pp;
  Registered<ZOLTAN_MID_MIGRATE_PP_FN> mid_pp;
  Registered<ZOLTAN_POST_MIGRATE_PP_FN> post_pp;
  Registered<ZOLTAN_PRE_MIGRATE_FN> pre;
  Registered<ZOLTAN_MID_MIGRATE_FN> mid;
  Registered<ZOLTAN_POST_MIGRATE_FN> post;

  bool has_size() const { return obj_size || obj_size_multi; }
  // What Zoltan_Migrate would refuse to run without ("" when nothing is missing): a size, a
  // pack and an unpack function.
  std::string missing_for_migration() const;
};

// The functions registered on `zz` (null where none is).
Callbacks registered_callbacks(Zoltan_Struct* zz);

}  // namespace redist::zoltan
