#include "redist/zoltan/callbacks.hpp"

namespace redist::zoltan {

namespace {

template <class Fn>
void read(Zoltan_Struct* zz, ZOLTAN_FN_TYPE type, Registered<Fn>& out) {
  ZOLTAN_VOID_FN* fn = nullptr;
  void* data = nullptr;
  if (Zoltan_Get_Fn(zz, type, &fn, &data) != ZOLTAN_OK) fn = nullptr;
  // Zoltan stores every callback as a generic function pointer; this is its registered type.
  out.fn = reinterpret_cast<Fn*>(fn);
  out.data = data;
}

}  // namespace

std::string Callbacks::missing_for_migration() const {
  std::string missing;
  const auto add = [&](bool present, const char* name) {
    if (present) return;
    missing += missing.empty() ? "" : ", ";
    missing += name;
  };
  add(has_size(), "ZOLTAN_OBJ_SIZE_FN or ZOLTAN_OBJ_SIZE_MULTI_FN");
  add(pack || pack_multi, "ZOLTAN_PACK_OBJ_FN or ZOLTAN_PACK_OBJ_MULTI_FN");
  add(unpack || unpack_multi, "ZOLTAN_UNPACK_OBJ_FN or ZOLTAN_UNPACK_OBJ_MULTI_FN");
  return missing;
}

Callbacks registered_callbacks(Zoltan_Struct* zz) {
  Callbacks c;
  read(zz, ZOLTAN_NUM_OBJ_FN_TYPE, c.num_obj);
  read(zz, ZOLTAN_OBJ_LIST_FN_TYPE, c.obj_list);
  read(zz, ZOLTAN_OBJ_SIZE_FN_TYPE, c.obj_size);
  read(zz, ZOLTAN_OBJ_SIZE_MULTI_FN_TYPE, c.obj_size_multi);
  read(zz, ZOLTAN_PACK_OBJ_FN_TYPE, c.pack);
  read(zz, ZOLTAN_PACK_OBJ_MULTI_FN_TYPE, c.pack_multi);
  read(zz, ZOLTAN_UNPACK_OBJ_FN_TYPE, c.unpack);
  read(zz, ZOLTAN_UNPACK_OBJ_MULTI_FN_TYPE, c.unpack_multi);
  read(zz, ZOLTAN_PRE_MIGRATE_PP_FN_TYPE, c.pre_pp);
  read(zz, ZOLTAN_MID_MIGRATE_PP_FN_TYPE, c.mid_pp);
  read(zz, ZOLTAN_POST_MIGRATE_PP_FN_TYPE, c.post_pp);
  read(zz, ZOLTAN_PRE_MIGRATE_FN_TYPE, c.pre);
  read(zz, ZOLTAN_MID_MIGRATE_FN_TYPE, c.mid);
  read(zz, ZOLTAN_POST_MIGRATE_FN_TYPE, c.post);
  return c;
}

}  // namespace redist::zoltan
