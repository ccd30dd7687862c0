// Conversion loops between every pair of dtypes (14 × 14 small loops), the common
// pairs vectorised for the CPU's instruction set (vector_loops.h).
#include <array>

#include "data/convert.h"
#include "numeric/elementwise/ops.h"
#include "numeric/elementwise/vector_loops.h"

namespace tessera::detail {
namespace {

#include "numeric/elementwise/loop_bodies-inl.h"

template <class S>
CastLoop cast_from(DType to) {
  return visit_dtype(to, [](auto d) -> CastLoop { return &cast_run<decltype(d), S>; });
}

using CastTable = std::array<std::array<CastLoop, kNumDTypes>, kNumDTypes>;

CastTable make_cast_table() {
  CastTable table;
  for (int f = 0; f < kNumDTypes; ++f) {
    for (int t = 0; t < kNumDTypes; ++t) {
      const DType from = DType(f), to = DType(t);
      CastLoop v = vector_cast_loop(from, to);
      table[f][t] = v ? v : visit_dtype(from, [&](auto s) -> CastLoop { return cast_from<decltype(s)>(to); });
    }
  }
  return table;
}

}  // namespace

CastLoop cast_loop(DType from, DType to) {
  // Fused expressions look a cast up for every block they load: a table filled once.
  static const CastTable table = make_cast_table();
  return table[static_cast<int>(from)][static_cast<int>(to)];
}

}  // namespace tessera::detail
