// FftOp: a one-axis discrete Fourier transform of every line of an array along that axis.
// The lines are the batch: tiles cut the other axes and hold the transformed axis whole
// (broadcast), so a large batch runs on every worker and rank. Each line is copied into an
// aligned buffer (zero-padded or truncated to the transform's length), transformed by the
// cached FftPlan of its length and written out scaled, so its result is the same however
// the batch is tiled.
#pragma once

#include "numeric/fft/transform.h"
#include "runtime/operation.h"

namespace tessera::detail {

class FftOp final : public Operation {
 public:
  /// `out` has `in`'s shape except along `axis` (fft_output_length values there). `in` is
  /// real or complex of `out`'s precision (complex for R2C is refused by the caller); a
  /// shorter input line is zero-padded, a longer one truncated.
  FftOp(StorePtr out, StorePtr in, int axis, const AxisTransform& t);

  void execute(const Point& point) override;

 private:
  int axis_;
  AxisTransform t_;
};

}  // namespace tessera::detail
