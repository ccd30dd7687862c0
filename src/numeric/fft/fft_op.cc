#include "numeric/fft/fft_op.h"

#include <algorithm>
#include <cmath>
#include <complex>
#include <cstring>

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

// Copies `count` elements `stride` apart from `src` (real or complex, per `complex_in`) into
// `dst` (real R or complex<R>), conjugated if asked, and zeroes dst up to `length`.
template <class R, class D>
void load(const char* src, bool complex_in, int64_t stride, int64_t count, bool conj, D* dst, int64_t length) {
  if (complex_in) {
    const auto* s = reinterpret_cast<const std::complex<R>*>(src);
    if constexpr (std::is_same_v<D, std::complex<R>>) {
      for (int64_t i = 0; i < count; ++i) dst[i] = conj ? std::conj(s[i * stride]) : s[i * stride];
    }
  } else {
    const auto* s = reinterpret_cast<const R*>(src);
    for (int64_t i = 0; i < count; ++i) dst[i] = s[i * stride];
  }
  std::fill(dst + count, dst + length, D(0));
}

template <class D>
void store(const D* src, int64_t count, double scale, bool conj, char* dst, int64_t stride) {
  auto* d = reinterpret_cast<D*>(dst);
  using R = decltype(std::real(D{}));
  const R f = static_cast<R>(scale);
  if constexpr (std::is_same_v<D, R>) {
    for (int64_t i = 0; i < count; ++i) d[i * stride] = src[i] * f;
  } else {
    for (int64_t i = 0; i < count; ++i) d[i * stride] = (conj ? std::conj(src[i]) : src[i]) * f;
  }
}

}  // namespace

FftOp::FftOp(StorePtr out, StorePtr in, int axis, const AxisTransform& t) : axis_(axis), t_(t) {
  name = op_name(t);
  const int nd = out->ndim();
  TESSERA_CHECK(in->ndim() == nd && axis >= 0 && axis < nd, "fft operands of unequal rank");
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
  if (real_for(args[0].store->dtype()) == DType::Float32) run<float>(point.rects[0]);
  else run<double>(point.rects[0]);
}

template <class R>
void FftOp::run(const Rect& tile) {
  using C = std::complex<R>;
  if (tile.empty()) return;
  const Store& out = *args[0].store;
  const Store& in = *args[1].store;
  const FftPlan& plan = FftPlan::get(t_.kind, t_.n, dtype_of<R>::value, t_.forward);
  const int64_t in_len = fft_input_length(t_.kind, t_.n), out_len = fft_output_length(t_.kind, t_.n);
  const bool real_in = t_.kind == FftKind::R2C, real_out = t_.kind == FftKind::C2R;
  FftBuffer a(static_cast<size_t>(in_len) * (real_in ? sizeof(R) : sizeof(C)));
  FftBuffer b(static_cast<size_t>(out_len) * (real_out ? sizeof(R) : sizeof(C)));
  const bool complex_in = is_complex(in.dtype());
  const int64_t in_item = itemsize(in.dtype()), out_item = itemsize(out.dtype());
  const int64_t take = std::min(in.shape()[axis_], in_len);
  const int64_t in_stride = in.strides()[axis_], out_stride = out.strides()[axis_];
  const int nd = out.ndim();
  Shape idx = tile.lo;
  while (true) {
    int64_t in_off = 0, out_off = 0;
    for (int d = 0; d < nd; ++d) {
      if (d == axis_) continue;
      in_off += idx[d] * in.strides()[d];
      out_off += idx[d] * out.strides()[d];
    }
    const char* src = in.base_ptr() + in_off * in_item;
    if (real_in) {
      load<R>(src, false, in_stride, take, false, static_cast<R*>(a.data()), in_len);
    } else {
      C* line = static_cast<C*>(a.data());
      load<R>(src, complex_in, in_stride, take, t_.conj_in, line, in_len);
      // The imaginary parts of the zero frequency (and of the Nyquist frequency of an even
      // length) do not exist in a real signal's spectrum: ignored, as NumPy's pocketfft does.
      if (real_out) {
        line[0].imag(0);
        if (t_.n % 2 == 0) line[t_.n / 2].imag(0);
      }
    }
    plan.execute(a.data(), b.data());
    char* dst = out.base_ptr() + out_off * out_item;
    if (real_out) store(static_cast<const R*>(b.data()), out_len, t_.scale, false, dst, out_stride);
    else store(static_cast<const C*>(b.data()), out_len, t_.scale, t_.conj_out, dst, out_stride);
    int d = nd - 1;
    for (; d >= 0; --d) {
      if (d == axis_) continue;
      if (++idx[d] < tile.hi[d]) break;
      idx[d] = tile.lo[d];
    }
    if (d < 0) break;
  }
}

}  // namespace tessera::detail
