// Calls of the application's Zoltan callbacks (callbacks.hpp), each checked: a callback that sets
// ierr < 0 (ZOLTAN_FATAL, ZOLTAN_MEMERR; ZOLTAN_WARN passes) or throws becomes a CallbackError
// naming it, which the adapter turns into the same Error on every rank.
#pragma once

#include <zoltan.h>

#include <cstddef>
#include <stdexcept>
#include <string>
#include <vector>

#include "redist/zoltan/callbacks.hpp"
#include "redist/zoltan/lists.hpp"

namespace redist::zoltan {

// A local failure of this rank (a callback, or its lists): the message without the rank.
class CallbackError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// The objects of this rank (ZOLTAN_NUM_OBJ_FN, ZOLTAN_OBJ_LIST_FN), each with its load: its first
// weight with weight_dim > 0, else 1.
struct LocalObjects {
  std::vector<ZOLTAN_ID_TYPE> global_ids, local_ids;
  std::vector<double> loads;
  std::size_t size() const { return loads.size(); }
};
LocalObjects local_objects(const Callbacks& callbacks, IdShape ids, int weight_dim);

// The sizes of the objects (ZOLTAN_OBJ_SIZE_MULTI_FN, or ZOLTAN_OBJ_SIZE_FN per object): each
// must be in 0..max_size.
std::vector<int> object_sizes(const Callbacks& callbacks, IdShape ids,
                              std::vector<ZOLTAN_ID_TYPE>& global_ids,
                              std::vector<ZOLTAN_ID_TYPE>& local_ids, std::int64_t max_size);

// Global id k of a list, for messages: "7", or "(3, 1)" for ids of two words.
std::string id_text(const ZOLTAN_ID_TYPE* global_ids, int gid_entries, std::size_t k);

// Runs `call` (which sets *ierr) and throws CallbackError("<name> failed ...") when it fails.
template <class Call>
void checked_call(const char* name, Call&& call) {
  int ierr = ZOLTAN_OK;
  try {
    call(&ierr);
  } catch (const std::exception& e) {
    throw CallbackError(std::string(name) + " threw: " + e.what());
  } catch (...) {
    throw CallbackError(std::string(name) + " threw an exception");
  }
  if (ierr < 0) {
    throw CallbackError(std::string(name) + " failed (ierr " + std::to_string(ierr) + ")");
  }
}

}  // namespace redist::zoltan
