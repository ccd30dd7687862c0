// The one strided N-D walk (DESIGN §12): the rows of an N-D box in C order — every index of
// its outer axes — with each operand's offset of the row's first element, so that the caller
// runs one contiguous inner loop per row (which the compiler vectorises) whatever the number
// of dimensions. Operands are strided arrays over the box: each gives its stride per axis, in
// elements (0 along a broadcast axis). Offsets are kept up to date as the walk goes, a few
// additions per row.
//
//   StridedRows rows(extents, {out_strides, in_strides});
//   rows.for_each([&](const int64_t* pos, const int64_t* off) {
//     for (int64_t j = 0; j < rows.length(); ++j) out[off[0] + j * os] = f(in[off[1] + j * is]);
//   });
#pragma once

#include <cstdint>
#include <initializer_list>
#include <vector>

#include "data/rect.h"

namespace tessera::detail {

class StridedRows {
 public:
  /// The rows of `extents` (its last axis is the row; a 0-D box is one row of one element),
  /// with one operand per entry of `strides` (each `extents.size()` strides, in elements).
  StridedRows(const Shape& extents, std::initializer_list<const int64_t*> strides)
      : StridedRows(extents, std::vector<const int64_t*>(strides)) {}
  StridedRows(const Shape& extents, std::vector<const int64_t*> strides)
      : extents_(extents), strides_(std::move(strides)) {}

  /// Elements per row (1 for a 0-D box).
  int64_t length() const { return extents_.empty() ? 1 : extents_.back(); }
  /// The number of rows (0 when the box is empty).
  int64_t rows() const {
    int64_t n = 1;
    for (int64_t e : extents_) n *= e;
    return extents_.empty() || n == 0 ? n : n / extents_.back();
  }

  /// Calls f(pos, offsets) for every row in C order: pos[d] (d < ndim - 1) the row's index
  /// along the outer axes, offsets[k] operand k's offset of the row's first element.
  template <class F>
  void for_each(F&& f) const {
    if (rows() == 0) return;
    const int outer = static_cast<int>(extents_.size()) - 1;
    const size_t k = strides_.size();
    std::vector<int64_t> pos(static_cast<size_t>(outer > 0 ? outer : 0), 0), off(k, 0);
    for (;;) {
      f(static_cast<const int64_t*>(pos.data()), static_cast<const int64_t*>(off.data()));
      int d = outer - 1;
      for (; d >= 0; --d) {
        const size_t ud = static_cast<size_t>(d);
        if (++pos[ud] < extents_[ud]) {
          for (size_t j = 0; j < k; ++j) off[j] += strides_[j][d];
          break;
        }
        for (size_t j = 0; j < k; ++j) off[j] -= (extents_[ud] - 1) * strides_[j][d];
        pos[ud] = 0;
      }
      if (d < 0) return;
    }
  }

  /// Calls f(offsets) for every element in C order (a row's elements one after another).
  template <class F>
  void for_each_element(F&& f) const {
    const size_t k = strides_.size();
    const int last = static_cast<int>(extents_.size()) - 1;
    std::vector<int64_t> at(k);
    for_each([&](const int64_t*, const int64_t* off) {
      for (size_t j = 0; j < k; ++j) at[j] = off[j];
      for (int64_t i = 0; i < length(); ++i) {
        f(static_cast<const int64_t*>(at.data()));
        if (last >= 0)
          for (size_t j = 0; j < k; ++j) at[j] += strides_[j][last];
      }
    });
  }

 private:
  Shape extents_;
  std::vector<const int64_t*> strides_;
};

}  // namespace tessera::detail
