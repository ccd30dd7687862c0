// Helpers for tests of stores: a store over its own storage charged to a private pool
// (no runtime needed), and the storage offsets a view reaches, in C order.
#pragma once

#include <memory>
#include <vector>

#include "data/store.h"
#include "machine/memory_pool.h"

namespace tessera::detail::testing {

inline const std::shared_ptr<MemoryPool>& test_pool() {
  static auto pool = std::make_shared<MemoryPool>(MemoryKind::Sysmem, int64_t{64} << 20);
  return pool;
}

/// A whole store of `shape` over a new storage (unallocated) from the test pool.
inline StorePtr make_store(const Shape& shape, DType dtype = DType::Float64) {
  auto storage = std::make_shared<Storage>(dtype, shape, test_pool(), "test");
  std::vector<int> map(shape.size());
  for (size_t d = 0; d < shape.size(); ++d) map[d] = static_cast<int>(d);
  return std::make_shared<Store>(dtype, shape, storage->strides(), 0, std::move(map), storage);
}

/// Storage offset of every element of `s` in C order: for a storage holding arange(n),
/// these are the view's values.
inline std::vector<int64_t> offsets(const Store& s) {
  std::vector<int64_t> out;
  if (s.size() == 0) return out;
  Shape idx(s.ndim(), 0);
  while (true) {
    int64_t off = s.offset();
    for (int d = 0; d < s.ndim(); ++d) off += idx[d] * s.strides()[d];
    out.push_back(off);
    int d = s.ndim() - 1;
    while (d >= 0 && ++idx[d] == s.shape()[d]) idx[d--] = 0;
    if (d < 0) break;
  }
  return out;
}

}  // namespace tessera::detail::testing
