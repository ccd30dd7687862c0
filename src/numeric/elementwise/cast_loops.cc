// Conversion loops between every pair of dtypes (14 × 14 small loops).
#include "data/convert.h"
#include "numeric/elementwise/ops.h"

namespace tessera::detail {
namespace {

template <class D, class S>
void cast(void* out, const void* in, int64_t stride, int64_t n) {
  D* o = static_cast<D*>(out);
  const S* s = static_cast<const S*>(in);
  if (stride == 1) {
    for (int64_t i = 0; i < n; ++i) o[i] = convert<D>(s[i]);
  } else {
    for (int64_t i = 0; i < n; ++i) o[i] = convert<D>(s[i * stride]);
  }
}

template <class S>
CastLoop cast_from(DType to) {
  return visit_dtype(to, [](auto d) -> CastLoop { return &cast<decltype(d), S>; });
}

}  // namespace

CastLoop cast_loop(DType from, DType to) {
  return visit_dtype(from, [&](auto s) -> CastLoop { return cast_from<decltype(s)>(to); });
}

}  // namespace tessera::detail
