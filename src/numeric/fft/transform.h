// A one-axis discrete Fourier transform as the fft family describes it, whatever the
// processor that runs it: the kind of transform, its length, and the scaling and
// conjugations around it (NumPy's norm= and hfft/ihfft).
#pragma once

#include <cstdint>

namespace tessera::detail {

/// complex -> complex, real -> half spectrum (n / 2 + 1 values), half spectrum -> real.
enum class FftKind : uint8_t { C2C, R2C, C2R };

/// Elements a transform of `kind` and length `n` reads and writes (complex or real).
inline int64_t fft_input_length(FftKind kind, int64_t n) { return kind == FftKind::C2R ? n / 2 + 1 : n; }
inline int64_t fft_output_length(FftKind kind, int64_t n) { return kind == FftKind::R2C ? n / 2 + 1 : n; }

/// What a transform along one axis computes on each line.
struct AxisTransform {
  FftKind kind = FftKind::C2C;
  bool forward = true;
  int64_t n = 1;          // the transform's length (the real side's for R2C and C2R)
  double scale = 1;       // multiplies every output value
  bool conj_in = false;   // conjugates the input first (hfft)
  bool conj_out = false;  // conjugates the output (ihfft)
};

}  // namespace tessera::detail
