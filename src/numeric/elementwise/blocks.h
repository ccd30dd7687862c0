// The block an expression is evaluated in (elements per node buffer, in cache), and the copy
// of a block into strided memory; shared by the evaluation, the plan and in-place rows.
#pragma once

#include <cstdint>
#include <cstring>

namespace tessera::detail {

inline constexpr int64_t kBlock = 1024;
inline constexpr int kOwnBuffers = 8;  // expressions of up to this many nodes give each its buffer

// Copies n elements of `size` bytes from contiguous `src` to `dst` with a stride in elements.
inline void scatter(char* dst, int64_t stride, const char* src, int64_t n, int size) {
  switch (size) {
    case 1:
      for (int64_t i = 0; i < n; ++i) dst[i * stride] = src[i];
      break;
    case 2:
      for (int64_t i = 0; i < n; ++i) std::memcpy(dst + i * stride * 2, src + i * 2, 2);
      break;
    case 4:
      for (int64_t i = 0; i < n; ++i) std::memcpy(dst + i * stride * 4, src + i * 4, 4);
      break;
    case 8:
      for (int64_t i = 0; i < n; ++i) std::memcpy(dst + i * stride * 8, src + i * 8, 8);
      break;
    default:
      for (int64_t i = 0; i < n; ++i) std::memcpy(dst + i * stride * size, src + i * size, size);
      break;
  }
}

}  // namespace tessera::detail
