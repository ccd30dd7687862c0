#include "numeric/fft/cpu/plan.h"

#include <fftw3.h>

#include <climits>
#include <map>
#include <mutex>
#include <new>
#include <tuple>

#include "tessera/errors.h"

namespace tessera::detail {
namespace {

// FFTW_ESTIMATE: plans come from heuristics, not timings, so a length always gets the same
// algorithm (and the same rounding). Buffers are FftBuffers, so the default (aligned) plans
// fit every execution.
constexpr unsigned kFlags = FFTW_ESTIMATE;

struct Double {
  static void* make(FftKind kind, int n, int sign, void* in, void* out) {
    switch (kind) {
      case FftKind::C2C:
        return fftw_plan_dft_1d(n, static_cast<fftw_complex*>(in), static_cast<fftw_complex*>(out), sign, kFlags);
      case FftKind::R2C:
        return fftw_plan_dft_r2c_1d(n, static_cast<double*>(in), static_cast<fftw_complex*>(out), kFlags);
      case FftKind::C2R:
        return fftw_plan_dft_c2r_1d(n, static_cast<fftw_complex*>(in), static_cast<double*>(out), kFlags);
    }
    return nullptr;
  }
  static void run(void* plan, FftKind kind, void* in, void* out) {
    auto p = static_cast<fftw_plan>(plan);
    switch (kind) {
      case FftKind::C2C: return fftw_execute_dft(p, static_cast<fftw_complex*>(in), static_cast<fftw_complex*>(out));
      case FftKind::R2C: return fftw_execute_dft_r2c(p, static_cast<double*>(in), static_cast<fftw_complex*>(out));
      case FftKind::C2R: return fftw_execute_dft_c2r(p, static_cast<fftw_complex*>(in), static_cast<double*>(out));
    }
  }
};

struct Single {
  static void* make(FftKind kind, int n, int sign, void* in, void* out) {
    switch (kind) {
      case FftKind::C2C:
        return fftwf_plan_dft_1d(n, static_cast<fftwf_complex*>(in), static_cast<fftwf_complex*>(out), sign, kFlags);
      case FftKind::R2C:
        return fftwf_plan_dft_r2c_1d(n, static_cast<float*>(in), static_cast<fftwf_complex*>(out), kFlags);
      case FftKind::C2R:
        return fftwf_plan_dft_c2r_1d(n, static_cast<fftwf_complex*>(in), static_cast<float*>(out), kFlags);
    }
    return nullptr;
  }
  static void run(void* plan, FftKind kind, void* in, void* out) {
    auto p = static_cast<fftwf_plan>(plan);
    switch (kind) {
      case FftKind::C2C: return fftwf_execute_dft(p, static_cast<fftwf_complex*>(in), static_cast<fftwf_complex*>(out));
      case FftKind::R2C: return fftwf_execute_dft_r2c(p, static_cast<float*>(in), static_cast<fftwf_complex*>(out));
      case FftKind::C2R: return fftwf_execute_dft_c2r(p, static_cast<fftwf_complex*>(in), static_cast<float*>(out));
    }
  }
};

// Bytes of a transform's input or output buffer: complex unless it is the real side.
size_t buffer_bytes(FftKind kind, int64_t n, bool single, bool input) {
  const bool real = (kind == FftKind::R2C && input) || (kind == FftKind::C2R && !input);
  const int64_t count = input ? fft_input_length(kind, n) : fft_output_length(kind, n);
  return static_cast<size_t>(count) * (single ? 4 : 8) * (real ? 1 : 2);
}

using Key = std::tuple<FftKind, int64_t, bool, bool>;  // kind, n, single precision, forward (C2C)

}  // namespace

const FftPlan& FftPlan::get(FftKind kind, int64_t n, DType real, bool forward) {
  TESSERA_CHECK(real == DType::Float32 || real == DType::Float64, "FFT precision must be float32 or float64");
  TESSERA_CHECK(n >= 1 && n <= INT_MAX, "FFT length out of FFTW's range");
  const bool single = real == DType::Float32;
  // Plans live as long as the process: workers may be executing them until the very end,
  // and FFTW's plan destruction is no more thread-safe than its planner.
  static std::mutex mutex;
  static auto* plans = new std::map<Key, FftPlan>();
  const Key key{kind, n, single, kind == FftKind::C2C && forward};
  std::lock_guard<std::mutex> lock(mutex);
  auto it = plans->find(key);
  if (it != plans->end()) return it->second;
  FftBuffer in(buffer_bytes(kind, n, single, true)), out(buffer_bytes(kind, n, single, false));
  const int sign = forward ? FFTW_FORWARD : FFTW_BACKWARD;
  void* plan = single ? Single::make(kind, static_cast<int>(n), sign, in.data(), out.data())
                      : Double::make(kind, static_cast<int>(n), sign, in.data(), out.data());
  if (!plan) throw OutOfMemoryError("FFTW could not plan a transform of length " + std::to_string(n));
  return plans->emplace(key, FftPlan(plan, kind, single)).first->second;
}

void FftPlan::execute(void* in, void* out) const {
  if (single_) Single::run(plan_, kind_, in, out);
  else Double::run(plan_, kind_, in, out);
}

FftBuffer::FftBuffer(size_t bytes) : data_(fftw_malloc(bytes ? bytes : 16)) {
  if (!data_) throw std::bad_alloc();
}

FftBuffer::~FftBuffer() { fftw_free(data_); }

}  // namespace tessera::detail
