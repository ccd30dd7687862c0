// FftPlan: one FFTW plan for a single transform of one length between contiguous,
// SIMD-aligned buffers (FftBuffer), cached for the life of the process. Every line of
// every tile runs through the same plan from buffers of the same alignment, so a line's
// result does not depend on how the batch was tiled or on which thread ran it.
#pragma once

#include <cstddef>
#include <cstdint>

#include "numeric/fft/transform.h"
#include "tessera/dtype.h"

namespace tessera::detail {

class FftPlan {
 public:
  /// The cached plan for length `n` in precision `real` (float32 or float64); `forward`
  /// picks the sign of a complex transform. Planning is serialised (FFTW's planner is not
  /// thread-safe); executing is not (FFTW's new-array execute functions are).
  static const FftPlan& get(FftKind kind, int64_t n, DType real, bool forward);

  /// Runs the transform from `in` to `out` (distinct FftBuffers of the plan's lengths; a
  /// C2R transform overwrites `in`).
  void execute(void* in, void* out) const;

  FftPlan(void* plan, FftKind kind, bool single) : plan_(plan), kind_(kind), single_(single) {}

 private:
  void* plan_;  // fftw_plan or fftwf_plan
  FftKind kind_;
  bool single_;
};

/// A scratch buffer from fftw_malloc (the alignment plans are made for).
class FftBuffer {
 public:
  explicit FftBuffer(size_t bytes);
  ~FftBuffer();
  FftBuffer(const FftBuffer&) = delete;
  FftBuffer& operator=(const FftBuffer&) = delete;
  void* data() const { return data_; }

 private:
  void* data_;
};

}  // namespace tessera::detail
