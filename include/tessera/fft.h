// Discrete Fourier transforms: NumPy's numpy.fft, computed by FFTW. A transform along one
// axis runs every line of the other axes in parallel; transforms over several axes are one
// pass per axis, last axis first, as NumPy's are. `norm` is NumPy's: "backward" (scale the
// inverse by 1/n), "ortho" (both by 1/sqrt(n)) or "forward" (the forward by 1/n).
// Example: `ndarray spectrum = tessera::rfft(signal);`, `tessera::fftn(volume, std::nullopt, {{0, 1}})`.
#pragma once

#include <optional>
#include <string_view>
#include <vector>

#include "tessera/ndarray.h"

namespace tessera {

/// The lengths of a transform over several axes, one per axis: a length, -1 for the axis's
/// own length, or absent for the one-axis transform's default (NumPy's deprecated None).
using FftLengths = std::vector<std::optional<int64_t>>;

/// NumPy's `fft.fft(a, n, axis, norm, out)`: the complex transform along `axis`, of `n` points
/// (the input zero-padded or truncated; absent: the axis's length).
ndarray fft(const ndarray& a, std::optional<int64_t> n = std::nullopt, int64_t axis = -1,
            std::string_view norm = "backward", const ndarray* out = nullptr);
/// NumPy's `fft.ifft`: the inverse of `fft`.
ndarray ifft(const ndarray& a, std::optional<int64_t> n = std::nullopt, int64_t axis = -1,
             std::string_view norm = "backward", const ndarray* out = nullptr);
/// NumPy's `fft.rfft`: the transform of real input, n // 2 + 1 values (TypeError for complex input).
ndarray rfft(const ndarray& a, std::optional<int64_t> n = std::nullopt, int64_t axis = -1,
             std::string_view norm = "backward", const ndarray* out = nullptr);
/// NumPy's `fft.irfft`: the inverse of `rfft`, `n` real points (absent: 2 * (m - 1)).
ndarray irfft(const ndarray& a, std::optional<int64_t> n = std::nullopt, int64_t axis = -1,
              std::string_view norm = "backward", const ndarray* out = nullptr);
/// NumPy's `fft.hfft`: the real transform of a Hermitian-symmetric signal given by its first half.
/// (NumPy's hfft accepts `out=` and ignores it; so this has none.)
ndarray hfft(const ndarray& a, std::optional<int64_t> n = std::nullopt, int64_t axis = -1,
             std::string_view norm = "backward");
/// NumPy's `fft.ihfft`: the inverse of `hfft`.
ndarray ihfft(const ndarray& a, std::optional<int64_t> n = std::nullopt, int64_t axis = -1,
              std::string_view norm = "backward", const ndarray* out = nullptr);

/// NumPy's `fft.fftn(a, s, axes, norm, out)`: `fft` over `axes` (absent: the last len(s) axes,
/// or every axis), each of `s` points (absent: the axes' lengths).
ndarray fftn(const ndarray& a, const std::optional<FftLengths>& s = std::nullopt,
             const std::optional<std::vector<int64_t>>& axes = std::nullopt, std::string_view norm = "backward",
             const ndarray* out = nullptr);
ndarray ifftn(const ndarray& a, const std::optional<FftLengths>& s = std::nullopt,
              const std::optional<std::vector<int64_t>>& axes = std::nullopt, std::string_view norm = "backward",
              const ndarray* out = nullptr);
/// NumPy's `fft.rfftn`: `rfft` over the last of `axes`, then `fft` over the others.
ndarray rfftn(const ndarray& a, const std::optional<FftLengths>& s = std::nullopt,
              const std::optional<std::vector<int64_t>>& axes = std::nullopt, std::string_view norm = "backward",
              const ndarray* out = nullptr);
/// NumPy's `fft.irfftn`: `ifft` over all but the last of `axes`, then `irfft` over that one.
ndarray irfftn(const ndarray& a, const std::optional<FftLengths>& s = std::nullopt,
               const std::optional<std::vector<int64_t>>& axes = std::nullopt, std::string_view norm = "backward",
               const ndarray* out = nullptr);

/// NumPy's `fft.fftfreq(n, d)`: the sample frequencies [0, 1, ..., -1] / (d * n) (float64, or
/// complex128 for a complex `d`); a Python-number `d` follows Python's arithmetic
/// (ZeroDivisionError when n * d is 0).
ndarray fftfreq(int64_t n, const Operand& d = 1.0);
/// NumPy's `fft.rfftfreq(n, d)`: [0, 1, ..., n // 2] / (d * n).
ndarray rfftfreq(int64_t n, const Operand& d = 1.0);
/// NumPy's `fft.fftshift(x, axes)`: each of `axes` (absent: every axis) rolled by half its
/// length, moving the zero frequency to the centre. A new array.
ndarray fftshift(const ndarray& x, const std::optional<std::vector<int64_t>>& axes = std::nullopt);
/// NumPy's `fft.ifftshift`: the inverse of `fftshift`.
ndarray ifftshift(const ndarray& x, const std::optional<std::vector<int64_t>>& axes = std::nullopt);

}  // namespace tessera
