#include "numeric/linalg/axis_reduce.h"

#include <algorithm>
#include <cmath>
#include <cstring>

#include "data/store.h"
#include "runtime/runtime.h"
#include "runtime/stores.h"

namespace tessera::detail {
namespace {

class AxisReduceOp final : public Operation {
 public:
  AxisReduceOp(StorePtr out, StorePtr x, std::vector<bool> reduced, AxisReduction kind)
      : reduced_(std::move(reduced)), kind_(kind) {
    name = kind == AxisReduction::Sum ? "norm_sum" : kind == AxisReduction::Max ? "norm_max" : "norm_min";
    // The launch follows the output seen in x's shape (the reduced axes promoted back); x is
    // aligned with it and whole along the reduced axes.
    domain = x->shape();
    ArgView full(out->shape());
    std::vector<int> axes;
    for (int d = 0; d < static_cast<int>(domain.size()); ++d)
      if (reduced_[d]) {
        full.promote(d, domain[d]);
        axes.push_back(d);
      }
    add(std::move(out), false, true, std::move(full));
    add_aligned(0, std::move(x), true, false);
    constraints.push_back(broadcast(1, std::move(axes)));
  }

  void execute(const Point& point) override {
    const Rect& tile = point.rects[1];
    switch (args[0].store->dtype()) {
      case DType::Float16: return run<_Float16>(tile);
      case DType::Float32: return run<float>(tile);
      default: return run<double>(tile);
    }
  }

 private:
  Shape domain;  // x's shape
  // The output's rect for a rect of x: the reduced axes dropped.
  Rect out_rect(const Rect& tile) const {
    Rect r;
    for (int d = 0; d < static_cast<int>(domain.size()); ++d) {
      if (reduced_[d]) continue;
      r.lo.push_back(tile.lo[d]);
      r.hi.push_back(tile.hi[d]);
    }
    return r;
  }

  template <class T>
  void run(const Rect& x_tile) {
    const Rect tile = out_rect(x_tile);
    const Store& out = *args[0].store;
    const Store& x = *args[1].store;
    if (x.size() > 0 && !x.storage()->allocated())
      throw ValueError("operation 'norm' reads an array that was never computed (an earlier error stopped it)");
    std::vector<int64_t> kept_stride, red_shape, red_stride;
    for (int d = 0; d < x.ndim(); ++d) {
      if (reduced_[d]) {
        red_shape.push_back(x.shape()[d]);
        red_stride.push_back(x.strides()[d]);
      } else {
        kept_stride.push_back(x.strides()[d]);
      }
    }
    const int nk = static_cast<int>(kept_stride.size()), nr = static_cast<int>(red_shape.size());
    const int64_t red_count = volume(red_shape);
    const T* base = reinterpret_cast<const T*>(x.base_ptr());
    Shape idx = tile.lo;
    Shape ridx(nr);
    while (true) {
      int64_t off = 0, ooff = 0;
      for (int d = 0; d < nk; ++d) {
        off += idx[d] * kept_stride[d];
        ooff += idx[d] * out.strides()[d];
      }
      double acc = 0;
      std::fill(ridx.begin(), ridx.end(), 0);
      for (int64_t i = 0; i < red_count; ++i) {
        int64_t r = off;
        for (int d = 0; d < nr; ++d) r += ridx[d] * red_stride[d];
        const double v = static_cast<double>(base[r]);
        if (kind_ == AxisReduction::Sum) {
          acc += v;
        } else if (i == 0 && kind_ == AxisReduction::Min) {
          acc = v;
        } else if (!std::isnan(acc)) {
          if (std::isnan(v)) acc = v;
          else acc = kind_ == AxisReduction::Max ? std::max(acc, v) : std::min(acc, v);
        }
        for (int d = nr - 1; d >= 0 && ++ridx[d] == red_shape[d]; --d) ridx[d] = 0;
      }
      const T r = static_cast<T>(acc);
      std::memcpy(out.base_ptr() + ooff * sizeof(T), &r, sizeof(T));
      int d = nk - 1;
      while (d >= 0 && ++idx[d] == tile.hi[d]) {
        idx[d] = tile.lo[d];
        --d;
      }
      if (d < 0) break;
    }
  }

  std::vector<bool> reduced_;
  AxisReduction kind_;
};

}  // namespace

ndarray reduce_axes(const ndarray& x, const std::vector<int>& axes, AxisReduction kind) {
  std::vector<bool> reduced(x.ndim(), false);
  for (int a : axes) reduced[a] = true;
  Shape shape;
  int64_t count = 1;
  for (int d = 0; d < x.ndim(); ++d) {
    if (reduced[d]) count *= x.shape()[d];
    else shape.push_back(x.shape()[d]);
  }
  if (count == 0 && kind == AxisReduction::Min)
    throw ValueError("zero-size array to reduction operation minimum which has no identity");
  StorePtr out = new_store(x.dtype(), shape, Runtime::provenance());
  Runtime::get().submit(std::make_shared<AxisReduceOp>(out, x.store(), std::move(reduced), kind));
  return ndarray(out);
}

}  // namespace tessera::detail
