// Basic indexing: Python's slice normalisation and NumPy's index rules, producing views.
#include <algorithm>

#include "data/store.h"
#include "tessera/index.h"

namespace tessera {

ndarray view(const ndarray& x, const std::vector<IndexItem>& key) {
  int consumed = 0, ellipses = 0;
  for (const auto& k : key) {
    if (std::holds_alternative<int64_t>(k) || std::holds_alternative<Slice>(k)) ++consumed;
    if (std::holds_alternative<Ellipsis>(k)) ++ellipses;
  }
  if (ellipses > 1) throw IndexError("an index can only have a single ellipsis ('...')");
  if (consumed > x.ndim())
    throw IndexError("too many indices for array: array is " + std::to_string(x.ndim()) + "-dimensional, but " +
                     std::to_string(consumed) + " were indexed");
  auto s = x.store();
  int dim = 0;  // current dim of `s`
  for (const auto& k : key) {
    if (std::holds_alternative<Ellipsis>(k)) {
      dim += x.ndim() - consumed;
    } else if (std::holds_alternative<NewAxis>(k)) {
      s = s->new_axis(dim++);
    } else if (auto* i = std::get_if<int64_t>(&k)) {
      const int64_t n = s->shape()[dim];
      int64_t v = *i < 0 ? *i + n : *i;
      if (v < 0 || v >= n)
        throw IndexError("index " + std::to_string(*i) + " is out of bounds for axis " + std::to_string(dim) +
                         " with size " + std::to_string(n));
      s = s->index(dim, v);
    } else {
      const Slice& sl = std::get<Slice>(k);
      const int64_t n = s->shape()[dim];
      int64_t step = sl.step.value_or(1);
      if (step == 0) throw ValueError("slice step cannot be zero");
      // A step of n or more picks at most the first element: the same with step n, whose
      // arithmetic cannot overflow (a[::2**70] is a[:1]).
      const int64_t most = std::max<int64_t>(n, 1);
      step = std::clamp(step, -most, most);
      int64_t start, stop;
      auto clampi = [&](std::optional<int64_t> v, int64_t dflt, int64_t lo, int64_t hi) {
        if (!v) return dflt;
        int64_t r = *v < 0 ? *v + n : *v;
        return std::clamp(r, lo, hi);
      };
      if (step > 0) {
        start = clampi(sl.start, 0, 0, n);
        stop = clampi(sl.stop, n, 0, n);
      } else {
        start = clampi(sl.start, n - 1, -1, n - 1);
        stop = clampi(sl.stop, -1, -1, n - 1);
      }
      s = s->slice(dim++, start, stop, step);
    }
  }
  return ndarray(s);
}

}  // namespace tessera
