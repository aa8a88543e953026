// Overflow-checked integer arithmetic for item counts (docs/formats.md: arithmetic that could
// overflow is checked). Each function returns std::nullopt on overflow instead of wrapping around.
#pragma once

#include <cstdint>
#include <optional>
#include <span>

namespace redist {

// 128-bit integers for exact intermediate sums of item counts (GCC/Clang extension).
__extension__ typedef __int128 Int128;

inline std::optional<std::int64_t> checked_add(std::int64_t a, std::int64_t b) {
  std::int64_t r;
  if (__builtin_add_overflow(a, b, &r)) return std::nullopt;
  return r;
}

inline std::optional<std::int64_t> checked_sub(std::int64_t a, std::int64_t b) {
  std::int64_t r;
  if (__builtin_sub_overflow(a, b, &r)) return std::nullopt;
  return r;
}

inline std::optional<std::int64_t> checked_mul(std::int64_t a, std::int64_t b) {
  std::int64_t r;
  if (__builtin_mul_overflow(a, b, &r)) return std::nullopt;
  return r;
}

// Sum of the values, or std::nullopt if any partial sum leaves the signed 64-bit range.
inline std::optional<std::int64_t> checked_sum(std::span<const std::int64_t> values) {
  std::int64_t total = 0;
  for (std::int64_t v : values) {
    if (__builtin_add_overflow(total, v, &total)) return std::nullopt;
  }
  return total;
}

}  // namespace redist
