#include "redist/zoltan/queries.hpp"

#include <cmath>

#include <fmt/format.h>

namespace redist::zoltan {

namespace {

ZOLTAN_ID_PTR lid_at(std::vector<ZOLTAN_ID_TYPE>& lids, IdShape ids, std::size_t k) {
  return ids.lid_entries > 0 ? lids.data() + k * static_cast<std::size_t>(ids.lid_entries)
                             : nullptr;
}

}  // namespace

std::string id_text(const ZOLTAN_ID_TYPE* global_ids, int gid_entries, std::size_t k) {
  const ZOLTAN_ID_TYPE* id = global_ids + k * static_cast<std::size_t>(gid_entries);
  std::string text = gid_entries > 1 ? "(" : "";
  for (int e = 0; e < gid_entries; ++e) text += (e > 0 ? ", " : "") + std::to_string(id[e]);
  return text + (gid_entries > 1 ? ")" : "");
}

LocalObjects local_objects(const Callbacks& callbacks, IdShape ids, int weight_dim) {
  if (!callbacks.num_obj || !callbacks.obj_list) {
    throw CallbackError("no ZOLTAN_NUM_OBJ_FN and ZOLTAN_OBJ_LIST_FN registered");
  }
  int count = 0;
  checked_call("ZOLTAN_NUM_OBJ_FN",
               [&](int* ierr) { count = callbacks.num_obj.fn(callbacks.num_obj.data, ierr); });
  if (count < 0) throw CallbackError(fmt::format("ZOLTAN_NUM_OBJ_FN gave {} objects", count));
  const auto n = static_cast<std::size_t>(count);
  LocalObjects objects;
  objects.global_ids.resize(n * static_cast<std::size_t>(ids.gid_entries));
  objects.local_ids.resize(n * static_cast<std::size_t>(ids.lid_entries));
  std::vector<float> weights(n * static_cast<std::size_t>(weight_dim));
  if (n > 0) {
    checked_call("ZOLTAN_OBJ_LIST_FN", [&](int* ierr) {
      callbacks.obj_list.fn(callbacks.obj_list.data, ids.gid_entries, ids.lid_entries,
                            objects.global_ids.data(), lid_at(objects.local_ids, ids, 0),
                            weight_dim, weight_dim > 0 ? weights.data() : nullptr, ierr);
    });
  }
  objects.loads.assign(n, 1.0);
  if (weight_dim > 0) {
    for (std::size_t k = 0; k < n; ++k) {
      const float w = weights[k * static_cast<std::size_t>(weight_dim)];
      if (!std::isfinite(w) || w < 0.0f) {
        throw CallbackError(
            fmt::format("ZOLTAN_OBJ_LIST_FN gave object {} the weight {} "
                        "(weights must be finite and >= 0)",
                        k, w));
      }
      objects.loads[k] = static_cast<double>(w);
    }
  }
  return objects;
}

std::vector<int> object_sizes(const Callbacks& callbacks, IdShape ids,
                              std::vector<ZOLTAN_ID_TYPE>& global_ids,
                              std::vector<ZOLTAN_ID_TYPE>& local_ids, std::int64_t max_size) {
  const std::size_t n = global_ids.size() / static_cast<std::size_t>(ids.gid_entries);
  std::vector<int> sizes(n, 0);
  if (n == 0) return sizes;
  if (callbacks.obj_size_multi) {
    checked_call("ZOLTAN_OBJ_SIZE_MULTI_FN", [&](int* ierr) {
      callbacks.obj_size_multi.fn(callbacks.obj_size_multi.data, ids.gid_entries, ids.lid_entries,
                                  static_cast<int>(n), global_ids.data(), lid_at(local_ids, ids, 0),
                                  sizes.data(), ierr);
    });
  } else if (callbacks.obj_size) {
    for (std::size_t k = 0; k < n; ++k) {
      checked_call("ZOLTAN_OBJ_SIZE_FN", [&](int* ierr) {
        sizes[k] =
            callbacks.obj_size.fn(callbacks.obj_size.data, ids.gid_entries, ids.lid_entries,
                                  global_ids.data() + k * static_cast<std::size_t>(ids.gid_entries),
                                  lid_at(local_ids, ids, k), ierr);
      });
    }
  } else {
    throw CallbackError("no ZOLTAN_OBJ_SIZE_FN or ZOLTAN_OBJ_SIZE_MULTI_FN registered");
  }
  for (std::size_t k = 0; k < n; ++k) {
    if (sizes[k] < 0 || sizes[k] > max_size) {
      throw CallbackError(
          fmt::format("the size function gave {} bytes for the object of global "
                      "id {} (sizes must be in 0..{})",
                      sizes[k], id_text(global_ids.data(), ids.gid_entries, k), max_size));
    }
  }
  return sizes;
}

}  // namespace redist::zoltan
