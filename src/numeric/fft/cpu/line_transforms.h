// The fft family's kernel on the cpu: every line of a tile transformed by FFTW. Each line
// is copied into an aligned buffer (zero-padded or truncated to the transform's length; a
// block of neighbouring lines at a time when the axis is strided), transformed by the cached
// FftPlan of its length and written out scaled, so its result does not depend on the tiling.
#pragma once

#include "numeric/fft/transform.h"
#include "tessera/task.h"

namespace tessera::detail {

/// Transforms the lines along `axis` of the tile `out` (whole along the axis) from the same
/// lines of the tile `in` (whole along the axis too, whatever its length there), as `t` says.
void transform_lines(const Tile& out, const Tile& in, int axis, const AxisTransform& t);

}  // namespace tessera::detail
