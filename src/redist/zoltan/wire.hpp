// How a migrating object travels: Zoltan_Migrate's own format (docs/zoltan.md), so that both
// migrations move the same bytes. Each object is its global id (gid_entries words, padded to
// Zoltan's alignment), its size as an int (padded likewise), then the `size` bytes the
// application's pack function writes (padded likewise). Zoltan's alignment unit is what
// Zoltan_Align rounds 1 up to (8 bytes on x86-64 builds).
#pragma once

#include <cstdint>

namespace redist::zoltan {

class WireFormat {
 public:
  explicit WireFormat(int gid_entries);

  // Bytes before the object's data: its padded global id and padded size.
  int id_bytes() const { return id_bytes_; }
  int header_bytes() const { return id_bytes_ + size_bytes_; }
  // `size` rounded up to the alignment unit (size >= 0).
  std::int64_t padded(std::int64_t size) const { return (size + unit_ - 1) / unit_ * unit_; }
  // The bytes an object of `size` bytes takes on the wire.
  std::int64_t object_bytes(std::int64_t size) const { return header_bytes() + padded(size); }
  // The largest object size whose bytes on the wire still fit an int (Zoltan's callbacks and
  // Zoltan_Migrate count in ints).
  std::int64_t max_size() const;

 private:
  std::int64_t unit_;
  int id_bytes_;
  int size_bytes_;
};

}  // namespace redist::zoltan
