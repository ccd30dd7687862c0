// The fft family's kernel on the cpu: every line of a tile transformed by FFTW. Each line
// is copied into an aligned buffer (zero-padded or truncated to the transform's length; a
// block of neighbouring lines at a time when the axis is strided), transformed by the cached
// FftPlan of its length and written out scaled, so its result does not depend on the tiling.
#pragma once

#include "data/rect.h"
#include "data/store.h"
#include "numeric/fft/transform.h"

namespace tessera::detail {

/// Transforms the lines along `axis` of the `tile` of `out` (whole along the axis) from the
/// same lines of `in`, as `t` says.
void transform_lines(const Store& out, const Store& in, int axis, const AxisTransform& t, const Rect& tile);

}  // namespace tessera::detail
