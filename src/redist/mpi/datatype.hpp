// The datatypes of a drop-in call (redist/mpi/dropin.h): what a count of elements is in bytes,
// whether the elements lie in one contiguous run (then redist moves the caller's bytes where they
// are), and packing and unpacking with MPI_Pack and MPI_Unpack when they do not.
#pragma once

#include <mpi.h>

#include <cstddef>
#include <cstdint>

namespace redist::mpi::dropin {

struct TypeLayout {
  std::int64_t size = 0;    // bytes of data per element (MPI_Type_size)
  std::int64_t extent = 0;  // bytes from one element to the next (MPI_Type_get_extent)
  // Every element's bytes form one run starting at the element's address, and consecutive
  // elements abut: a named type whose size is its extent, or a duplicate or contiguous repetition
  // of such a type (MPI_Type_get_envelope, recursively).
  bool contiguous = false;
  // MPI_Pack writes exactly `size` bytes per element (a homogeneous MPI library): a type that is
  // not contiguous can be packed into the bytes redist moves.
  bool packable = false;
};

// Describes `type`: MPI_SUCCESS, or MPI_ERR_TYPE for MPI_DATATYPE_NULL or a type MPI refuses to
// send (`send`) or receive with (an uncommitted type): probed with a send or receive of no element
// to MPI_PROC_NULL on `probe`, a communicator whose error handler returns codes.
int describe(MPI_Datatype type, bool send, MPI_Comm probe, TypeLayout& out);

// Packs `count` elements at `in` into `out` (count * size bytes); MPI's error code.
int pack(const void* in, std::int64_t count, MPI_Datatype type, const TypeLayout& layout,
         std::byte* out, MPI_Comm comm);
// Unpacks count * size bytes at `in` into `count` elements at `out`; MPI's error code.
int unpack(const std::byte* in, std::int64_t count, MPI_Datatype type, const TypeLayout& layout,
           void* out, MPI_Comm comm);

}  // namespace redist::mpi::dropin
