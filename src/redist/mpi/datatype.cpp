#include "redist/mpi/datatype.hpp"

#include <algorithm>
#include <climits>
#include <vector>

namespace redist::mpi::dropin {

namespace {

bool is_named(MPI_Datatype type) {
  int integers = 0, addresses = 0, types = 0, combiner = 0;
  MPI_Type_get_envelope(type, &integers, &addresses, &types, &combiner);
  return combiner == MPI_COMBINER_NAMED;
}

// Whether the elements of `type` are one run of bytes each and abut (TypeLayout::contiguous).
bool contiguous(MPI_Datatype type, int depth) {
  MPI_Aint lb = 0, extent = 0, true_lb = 0, true_extent = 0;
  int size = 0;
  MPI_Type_size(type, &size);
  MPI_Type_get_extent(type, &lb, &extent);
  MPI_Type_get_true_extent(type, &true_lb, &true_extent);
  if (lb != 0 || true_lb != 0 || extent != size || true_extent != size) return false;
  int integers = 0, addresses = 0, types = 0, combiner = 0;
  MPI_Type_get_envelope(type, &integers, &addresses, &types, &combiner);
  if (combiner == MPI_COMBINER_NAMED) return true;
  if ((combiner != MPI_COMBINER_DUP && combiner != MPI_COMBINER_CONTIGUOUS) || depth > 16 ||
      types != 1) {
    return false;
  }
  std::vector<int> ints(static_cast<std::size_t>(std::max(integers, 1)));
  std::vector<MPI_Aint> addrs(static_cast<std::size_t>(std::max(addresses, 1)));
  MPI_Datatype inner = MPI_DATATYPE_NULL;
  MPI_Type_get_contents(type, integers, addresses, 1, ints.data(), addrs.data(), &inner);
  const bool answer = contiguous(inner, depth + 1);
  if (!is_named(inner)) MPI_Type_free(&inner);
  return answer;
}

}  // namespace

int describe(MPI_Datatype type, bool send, MPI_Comm probe, TypeLayout& out) {
  if (type == MPI_DATATYPE_NULL) return MPI_ERR_TYPE;
  MPI_Request request = MPI_REQUEST_NULL;
  char dummy = 0;
  const int code = send ? MPI_Isend(&dummy, 0, type, MPI_PROC_NULL, 0, probe, &request)
                        : MPI_Irecv(&dummy, 0, type, MPI_PROC_NULL, 0, probe, &request);
  if (code != MPI_SUCCESS) return MPI_ERR_TYPE;
  MPI_Wait(&request, MPI_STATUS_IGNORE);
  MPI_Count size = 0, lb = 0, extent = 0;
  if (MPI_Type_size_x(type, &size) != MPI_SUCCESS ||
      MPI_Type_get_extent_x(type, &lb, &extent) != MPI_SUCCESS) {
    return MPI_ERR_TYPE;
  }
  out.size = size;
  out.extent = extent;
  out.contiguous = contiguous(type, 0);
  int packed = 0;
  out.packable =
      out.contiguous ||
      (size <= INT_MAX && MPI_Pack_size(1, type, probe, &packed) == MPI_SUCCESS && packed == size);
  return MPI_SUCCESS;
}

namespace {

// Elements per MPI_Pack / MPI_Unpack call: counts and byte sizes stay within an int.
std::int64_t chunk_elements(const TypeLayout& layout) {
  return std::max<std::int64_t>(1, INT_MAX / std::max<std::int64_t>(layout.size, 1));
}

}  // namespace

int pack(const void* in, std::int64_t count, MPI_Datatype type, const TypeLayout& layout,
         std::byte* out, MPI_Comm comm) {
  const std::int64_t chunk = chunk_elements(layout);
  for (std::int64_t done = 0; done < count; done += chunk) {
    const auto n = static_cast<int>(std::min(chunk, count - done));
    int position = 0;
    const int code =
        MPI_Pack(static_cast<const char*>(in) + done * layout.extent, n, type,
                 out + done * layout.size, static_cast<int>(n * layout.size), &position, comm);
    if (code != MPI_SUCCESS) return code;
    if (position != n * layout.size) return MPI_ERR_INTERN;
  }
  return MPI_SUCCESS;
}

int unpack(const std::byte* in, std::int64_t count, MPI_Datatype type, const TypeLayout& layout,
           void* out, MPI_Comm comm) {
  const std::int64_t chunk = chunk_elements(layout);
  for (std::int64_t done = 0; done < count; done += chunk) {
    const auto n = static_cast<int>(std::min(chunk, count - done));
    int position = 0;
    const int code =
        MPI_Unpack(in + done * layout.size, static_cast<int>(n * layout.size), &position,
                   static_cast<char*>(out) + done * layout.extent, n, type, comm);
    if (code != MPI_SUCCESS) return code;
  }
  return MPI_SUCCESS;
}

}  // namespace redist::mpi::dropin
