#include "numeric/fft/cpu/line_transforms.h"

#include <algorithm>
#include <cmath>
#include <complex>
#include <memory>
#include <type_traits>

#include "numeric/fft/cpu/plan.h"

namespace tessera::detail {
namespace {

// Lines are moved between the arrays and the buffers a block at a time: element i of every
// line of the block, then element i + 1, so a transform along a strided axis reads and
// writes whole cache lines of the neighbouring lines instead of one element of each.
constexpr int64_t kBlock = 8;
constexpr int64_t kBlockBytes = int64_t{4} << 20;  // at most this much buffer for a block

// A block of `lines` lines of `count` elements (`step` apart along a line, `next` between
// lines) from `src` (real or complex, per `complex_in`) into the buffers `dst + j * pitch`
// (real R or complex<R>), conjugated if asked; each buffer is zeroed up to `length`.
template <class R, class D>
void load(const char* src, bool complex_in, int64_t step, int64_t next, int64_t lines, int64_t count, bool conj, D* dst,
          int64_t pitch, int64_t length) {
  if (complex_in) {
    const auto* s = reinterpret_cast<const std::complex<R>*>(src);
    if constexpr (std::is_same_v<D, std::complex<R>>) {
      for (int64_t i = 0; i < count; ++i)
        for (int64_t j = 0; j < lines; ++j) {
          const D v = s[i * step + j * next];
          dst[j * pitch + i] = conj ? std::conj(v) : v;
        }
    }
  } else {
    const auto* s = reinterpret_cast<const R*>(src);
    for (int64_t i = 0; i < count; ++i)
      for (int64_t j = 0; j < lines; ++j) dst[j * pitch + i] = s[i * step + j * next];
  }
  for (int64_t j = 0; j < lines; ++j) std::fill(dst + j * pitch + count, dst + j * pitch + length, D(0));
}

// The buffers `src + j * pitch` (`count` values each) times `scale`, conjugated if asked,
// into a block of lines of `dst`.
template <class D>
void store(const D* src, int64_t pitch, int64_t lines, int64_t count, double scale, bool conj, char* dst, int64_t step,
           int64_t next) {
  auto* d = reinterpret_cast<D*>(dst);
  using R = decltype(std::real(D{}));
  const R f = static_cast<R>(scale);
  for (int64_t i = 0; i < count; ++i)
    for (int64_t j = 0; j < lines; ++j) {
      D v = src[j * pitch + i];
      if constexpr (!std::is_same_v<D, R>) {
        if (conj) v = std::conj(v);
      }
      d[i * step + j * next] = v * f;
    }
}

// Elements of `size` bytes per buffer of a block, so that every buffer starts on a 64-byte
// boundary past the first (all of them aligned as the plan's buffers were).
int64_t pitch_of(int64_t count, size_t size) {
  const int64_t per_line = 64 / static_cast<int64_t>(size);
  return (count + per_line - 1) / per_line * per_line;
}

// A worker's line buffers, kept from tile to tile (at most kBlockBytes each): fresh ones per
// tile would be page-faulted in again by every tile of a transform.
struct KeptBuffer {
  std::unique_ptr<FftBuffer> buffer;
  size_t bytes = 0;
  FftBuffer& at_least(size_t n) {
    if (n > bytes) {
      buffer = std::make_unique<FftBuffer>(n);
      bytes = n;
    }
    return *buffer;
  }
};
struct LineBuffers {
  KeptBuffer in, out;
};
LineBuffers& line_buffers() {
  thread_local LineBuffers buffers;
  return buffers;
}

template <class R>
void transform_lines_in(const Tile& out, const Tile& in, int axis, const AxisTransform& t) {
  using C = std::complex<R>;
  if (out.size() == 0) return;
  const FftPlan& plan = FftPlan::get(t.kind, t.n, dtype_of<R>::value, t.forward);
  const int64_t in_len = fft_input_length(t.kind, t.n), out_len = fft_output_length(t.kind, t.n);
  const bool real_in = t.kind == FftKind::R2C, real_out = t.kind == FftKind::C2R;
  const int nd = out.ndim();
  // Blocks run along the last other axis (the innermost of the loop below), when the
  // transformed axis is not already contiguous.
  const int inner = axis == nd - 1 ? nd - 2 : nd - 1;
  const int64_t in_stride = in.strides()[axis], out_stride = out.strides()[axis];
  const int64_t in_pitch = pitch_of(in_len, real_in ? sizeof(R) : sizeof(C));
  const int64_t out_pitch = pitch_of(out_len, real_out ? sizeof(R) : sizeof(C));
  const int64_t line_bytes =
      in_pitch * (real_in ? sizeof(R) : sizeof(C)) + out_pitch * (real_out ? sizeof(R) : sizeof(C));
  const int64_t block =
      inner >= 0 && (in_stride != 1 || out_stride != 1) ? std::clamp<int64_t>(kBlockBytes / line_bytes, 1, kBlock) : 1;
  LineBuffers& buffers = line_buffers();
  FftBuffer& a = buffers.in.at_least(static_cast<size_t>(block * in_pitch) * (real_in ? sizeof(R) : sizeof(C)));
  FftBuffer& b = buffers.out.at_least(static_cast<size_t>(block * out_pitch) * (real_out ? sizeof(R) : sizeof(C)));
  const bool complex_in = is_complex(in.dtype());
  const int64_t in_item = itemsize(in.dtype()), out_item = itemsize(out.dtype());
  const int64_t take = std::min(in.array_shape()[axis], in_len);
  const int64_t in_next = inner >= 0 ? in.strides()[inner] : 0, out_next = inner >= 0 ? out.strides()[inner] : 0;
  // idx counts from the tile's first element: offsets are relative to it on both sides.
  const Shape& extents = out.extents();
  Shape idx(static_cast<size_t>(nd), 0);
  const char* in_base = static_cast<const char*>(in.data());
  char* out_base = static_cast<char*>(out.data());
  while (true) {
    int64_t in_off = 0, out_off = 0;
    for (int d = 0; d < nd; ++d) {
      if (d == axis) continue;
      in_off += idx[d] * in.strides()[d];
      out_off += idx[d] * out.strides()[d];
    }
    const int64_t lines = inner >= 0 ? std::min(block, extents[inner] - idx[inner]) : 1;
    const char* src = take > 0 ? in_base + in_off * in_item : nullptr;  // an empty input has no tile
    if (real_in) {
      load<R>(src, false, in_stride, in_next, lines, take, false, static_cast<R*>(a.data()), in_pitch, in_len);
    } else {
      C* buf = static_cast<C*>(a.data());
      load<R>(src, complex_in, in_stride, in_next, lines, take, t.conj_in, buf, in_pitch, in_len);
      // The imaginary parts of the zero frequency (and of the Nyquist frequency of an even
      // length) do not exist in a real signal's spectrum: ignored, as NumPy's pocketfft does.
      if (real_out)
        for (int64_t j = 0; j < lines; ++j) {
          buf[j * in_pitch].imag(0);
          if (t.n % 2 == 0) buf[j * in_pitch + t.n / 2].imag(0);
        }
    }
    for (int64_t j = 0; j < lines; ++j) {
      char* line_in = static_cast<char*>(a.data()) + j * in_pitch * (real_in ? sizeof(R) : sizeof(C));
      char* line_out = static_cast<char*>(b.data()) + j * out_pitch * (real_out ? sizeof(R) : sizeof(C));
      plan.execute(line_in, line_out);
    }
    char* dst = out_base + out_off * out_item;
    if (real_out)
      store(static_cast<const R*>(b.data()), out_pitch, lines, out_len, t.scale, false, dst, out_stride, out_next);
    else
      store(static_cast<const C*>(b.data()), out_pitch, lines, out_len, t.scale, t.conj_out, dst, out_stride, out_next);
    int d = nd - 1;
    for (; d >= 0; --d) {
      if (d == axis) continue;
      idx[d] += d == inner ? lines : 1;
      if (idx[d] < extents[d]) break;
      idx[d] = 0;
    }
    if (d < 0) break;
  }
}

}  // namespace

void transform_lines(const Tile& out, const Tile& in, int axis, const AxisTransform& t) {
  if (real_for(out.dtype()) == DType::Float32) transform_lines_in<float>(out, in, axis, t);
  else transform_lines_in<double>(out, in, axis, t);
}

}  // namespace tessera::detail
