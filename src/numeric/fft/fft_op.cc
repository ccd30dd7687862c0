#include "numeric/fft/fft_op.h"

#include <cmath>

#include "numeric/fft/cpu/line_transforms.h"
#include "tessera/errors.h"

namespace tessera::detail {
namespace {

const char* op_name(const AxisTransform& t) {
  switch (t.kind) {
    case FftKind::C2C: return t.forward ? "fft" : "ifft";
    case FftKind::R2C: return t.conj_out ? "ihfft" : "rfft";
    case FftKind::C2R: return t.conj_in ? "hfft" : "irfft";
  }
  return "fft";
}

}  // namespace

FftOp::FftOp(StorePtr out, StorePtr in, int axis, const AxisTransform& t) : axis_(axis), t_(t) {
  name = op_name(t);
  const int nd = out->ndim();
  TESSERA_CHECK(in->ndim() == nd && axis >= 0 && axis < nd, "fft operands of unequal rank or an axis out of range");
  // The output is the key, whole along the axis; the input follows it tile for tile on the
  // other axes (a scale by one) and is whole along the axis too, whatever its length there.
  add(std::move(out), false, true);
  add(std::move(in), true, false);
  constraints.push_back(broadcast(0, {axis}));
  constraints.push_back(scale(1, 0, Shape(static_cast<size_t>(nd), 1)));
  constraints.push_back(broadcast(1, {axis}));
  // Work per output element: about log2(n) butterflies, plus the copies in and out.
  weight = 2 + static_cast<int64_t>(std::log2(static_cast<double>(t.n)));
}

void FftOp::execute(const Point& point) {
  const Store& in = *args[1].store;
  if (in.size() > 0 && !in.storage()->allocated())
    throw ValueError("operation '" + name + "' reads an array that was never computed (an earlier error stopped it)");
  transform_lines(*args[0].store, in, axis_, t_, point.rects[0]);
}

}  // namespace tessera::detail
