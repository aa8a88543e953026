// 64-bit FNV-1a over 64-bit words, byte by byte (little end first): equal words in the same
// order, equal hashes. A name for a document or a pattern, never a proof of equality.
#pragma once

#include <bit>
#include <cstdint>

namespace redist {

class FnvHash {
 public:
  void add(std::uint64_t word) {
    for (int k = 0; k < 8; ++k) {
      value_ ^= (word >> (8 * k)) & 0xff;
      value_ *= 0x100000001b3ULL;
    }
  }
  void add(std::int64_t word) { add(static_cast<std::uint64_t>(word)); }
  void add(double x) { add(std::bit_cast<std::uint64_t>(x)); }
  std::uint64_t value() const { return value_; }

 private:
  std::uint64_t value_ = 0xcbf29ce484222325ULL;
};

}  // namespace redist
