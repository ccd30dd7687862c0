// numpy.fft's helpers (numpy/fft/_helper.py): the sample frequencies of a transform and the
// shifts that move the zero frequency to the centre of a spectrum and back.
#include <complex>

#include "tessera/creation.h"
#include "tessera/elementwise.h"
#include "tessera/fft.h"
#include "tessera/index.h"
#include "tessera/shape.h"

namespace tessera {
namespace {

// NumPy's `1.0 / (n * d)`: Python's arithmetic for a Python number (ZeroDivisionError at
// zero), NumPy's for a NumPy scalar or an array.
Operand frequency_step(int64_t n, const Operand& d) {
  if (d.is_array() || !d.scalar().is_weak()) return binary("divide", 1.0, binary("multiply", n, d));
  const Scalar& s = d.scalar();
  if (is_complex(s.dtype())) {
    const std::complex<double> p = static_cast<double>(n) * s.as_complex();
    if (p == 0.0) throw ZeroDivisionError("complex division by zero");
    return 1.0 / p;
  }
  const double p =
      s.kind() == DKind::Float ? static_cast<double>(n) * s.as_double() : static_cast<double>(n * s.as_int());
  if (p == 0) throw ZeroDivisionError("float division by zero");
  return 1.0 / p;
}

// Python's n // 2 (rounding toward minus infinity).
int64_t floor_half(int64_t n) { return n >= 0 ? n / 2 : -((-n + 1) / 2); }

// NumPy's roll(x, shift, axes) with shift[d] = sign * (x.shape[d] // 2) for each of `axes`
// (repeated axes roll again): a copy made of up to two blocks per rolled axis.
ndarray roll_half(const ndarray& x, const std::optional<std::vector<int64_t>>& axes, int sign) {
  const int nd = x.ndim();
  // NumPy's roll of a 0-d array fails the same way whatever the axes.
  if (nd == 0) throw ValueError("not enough values to unpack (expected 2, got 0)");
  std::vector<int64_t> shift(static_cast<size_t>(nd), 0);
  if (axes) {
    for (int64_t a : *axes) {
      const int d = normalize_axis_index(a, nd);
      shift[d] += sign * (x.shape()[d] / 2);
    }
  } else {
    for (int d = 0; d < nd; ++d) shift[d] = sign * (x.shape()[d] / 2);
  }
  ndarray result = empty(x.shape(), x.dtype());
  if (x.size() == 0) return result;
  std::vector<int> rolled;
  for (int d = 0; d < nd; ++d) {
    const int64_t len = x.shape()[d];
    shift[d] = ((shift[d] % len) + len) % len;
    if (shift[d] != 0) rolled.push_back(d);
  }
  // Block b takes, along each rolled axis, its low (bit clear) or high part of the result:
  // result[k:] = x[:len - k] and result[:k] = x[len - k:].
  for (int64_t b = 0; b < (int64_t{1} << rolled.size()); ++b) {
    std::vector<IndexItem> to(static_cast<size_t>(nd), Slice{}), from(static_cast<size_t>(nd), Slice{});
    for (size_t i = 0; i < rolled.size(); ++i) {
      const int d = rolled[i];
      const int64_t len = x.shape()[d], k = shift[d];
      if (b >> i & 1) {
        to[d] = Slice{0, k, 1};
        from[d] = Slice{len - k, len, 1};
      } else {
        to[d] = Slice{k, len, 1};
        from[d] = Slice{0, len - k, 1};
      }
    }
    assign(view(result, to), view(x, from));
  }
  return result;
}

}  // namespace

ndarray fftfreq(int64_t n, const Operand& d) {
  const Operand step = frequency_step(n, d);
  if (n < 0) throw ValueError("negative dimensions are not allowed");
  // [0, 1, ..., (n - 1) // 2, -(n // 2), ..., -1]
  const ndarray i = arange(int64_t{0}, n, int64_t{1}, DType::Int64);
  const ndarray k = where(binary("less", i, (n - 1) / 2 + 1), i, binary("subtract", i, n));
  return binary("multiply", k, step);
}

ndarray rfftfreq(int64_t n, const Operand& d) {
  const Operand step = frequency_step(n, d);
  const int64_t count = std::max<int64_t>(0, floor_half(n) + 1);
  return binary("multiply", arange(int64_t{0}, count, int64_t{1}, DType::Int64), step);
}

ndarray fftshift(const ndarray& x, const std::optional<std::vector<int64_t>>& axes) { return roll_half(x, axes, 1); }

ndarray ifftshift(const ndarray& x, const std::optional<std::vector<int64_t>>& axes) { return roll_half(x, axes, -1); }

}  // namespace tessera
