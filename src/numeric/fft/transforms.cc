// numpy.fft's transforms, as NumPy 2 defines them (numpy/fft/_pocketfft.py): each
// one-axis transform checks its arguments, picks the dtypes NumPy picks and launches the
// task "fft.transform" once; the transforms over several axes are passes of those.
#include <climits>
#include <cmath>
#include <string>

#include "data/rect.h"
#include "numeric/fft/cpu/line_transforms.h"
#include "numeric/fft/transform.h"
#include "tessera/elementwise.h"
#include "tessera/fft.h"
#include "tessera/shape.h"
#include "tessera/task.h"

namespace tessera {
using namespace detail;

namespace {

enum class Norm { Backward, Ortho, Forward };

// NumPy's norm argument; `swap` for the inverse direction (backward <-> forward).
Norm parse_norm(std::string_view norm, bool swap) {
  Norm n;
  if (norm == "backward") n = Norm::Backward;
  else if (norm == "ortho") n = Norm::Ortho;
  else if (norm == "forward") n = Norm::Forward;
  else
    throw ValueError("Invalid norm value " + std::string(norm) + "; should be \"backward\", \"ortho\" or \"forward\".");
  if (swap && n != Norm::Ortho) n = n == Norm::Backward ? Norm::Forward : Norm::Backward;
  return n;
}

// NumPy's _swap_direction: the norm of the transform in the other direction.
std::string_view swap_direction(std::string_view norm) {
  switch (parse_norm(norm, true)) {
    case Norm::Backward: return "backward";
    case Norm::Ortho: return "ortho";
    case Norm::Forward: break;
  }
  return "forward";
}

// NumPy's result_type(a.real.dtype, 1.0): what the transform's real values are.
DType real_dtype(DType t) {
  if (is_complex(t)) return real_for(t);
  if (is_float(t)) return t;
  return DType::Float64;
}

// The scale of the outputs, computed in the real dtype as NumPy computes it
// (reciprocal(n) or reciprocal(sqrt(n)) in that dtype).
template <class T>
double factor(Norm norm, int64_t n) {
  if (norm == Norm::Backward) return 1;
  const T len = static_cast<T>(n);
  const T d = norm == Norm::Forward ? len : static_cast<T>(std::sqrt(static_cast<double>(len)));
  return static_cast<double>(static_cast<T>(T(1) / d));
}

double scale_factor(Norm norm, int64_t n, DType real) {
  switch (real) {
    case DType::Float16: return factor<_Float16>(norm, n);
    case DType::Float32: return factor<float>(norm, n);
    default: return factor<double>(norm, n);
  }
}

std::string type_error_for(int64_t n) {
  return std::string("ufunc '") + (n % 2 == 0 ? "rfft_n_even" : "rfft_n_odd") +
         "' not supported for the input types, and the inputs could not be safely coerced to any supported "
         "types according to the casting rule ''safe''";
}

// Writes `r` into `out` as a NumPy ufunc writes its result: r broadcasts to out's shape, and
// the result dtype must cast to out's under same_kind.
void deliver(const char* ufunc, const ndarray& r, const ndarray& out) {
  const Shape& shape = r.shape();
  bool fits = shape.size() == out.shape().size();
  for (size_t i = 0; fits && i < shape.size(); ++i) fits = shape[i] == out.shape()[i] || shape[i] == 1;
  if (!fits)
    throw ValueError("non-broadcastable output operand with shape " + shape_text(out.shape()) +
                     " doesn't match the broadcast shape " + shape_text(shape));
  if (!can_cast(r.dtype(), out.dtype(), "same_kind"))
    throw UFuncCastingError(ufunc, 2, -1, dtype_name(r.dtype()), dtype_name(out.dtype()), "same_kind");
  assign(out, r);
}

// The fewest neighbouring lines a tile of a transform along a strided axis holds.
constexpr int64_t kStridedLinesPerTile = 64;

// What every point of a one-axis transform reads.
struct AxisPlan {
  int axis;
  AxisTransform t;
};

// A one-axis transform of every line of `in` along `axis` into `out` (`in`'s shape except
// along the axis: fft_output_length values there). The lines are the batch: tiles cut the
// other axes and hold the transformed axis whole (broadcast), so a large batch runs on
// every worker and rank. `in` is real or complex of `out`'s precision; a shorter input line
// is zero-padded, a longer one truncated; every line's result is the same however the batch
// is tiled.
void transform_axis(const ndarray& out, const ndarray& in, int axis, const AxisTransform& t, const char* name) {
  static const Task transform("fft.transform", [](TaskContext& ctx) {
    const AxisPlan& plan = ctx.payload<AxisPlan>();
    transform_lines(ctx.array(0), ctx.array(1), plan.axis, plan.t);
  });
  const int nd = out.ndim();
  TESSERA_CHECK(in.ndim() == nd && axis >= 0 && axis < nd, "fft operands of unequal rank or an axis out of range");
  // The output is the key, whole along the axis; the input follows it tile for tile on the
  // other axes (a scale by one) and is whole along the axis too, whatever its length there.
  // Work per output element: about log2(n) butterflies, plus the copies in and out.
  std::vector<Constraint> constraints{broadcast(0, {axis}), scale(1, 0, Shape(static_cast<size_t>(nd), 1)),
                                      broadcast(1, {axis})};
  // Lines along a strided axis are loaded a block of neighbours at a time (the next axis
  // down): a tile holds many such neighbours, so that its rows are read in long runs.
  if (axis != nd - 1) {
    Shape wide(static_cast<size_t>(nd), 1);
    wide[static_cast<size_t>(nd - 1)] = kStridedLinesPerTile;
    constraints.push_back(min_extents(0, wide));
  }
  launch(transform, {tessera::out(out), tessera::in(in)}, {}, std::move(constraints),
         {.name = name,
          .weight = 2 + static_cast<int64_t>(std::log2(static_cast<double>(t.n))),
          .payload = Payload::of(AxisPlan{axis, t})});
}

struct OneAxis {
  bool real;  // rfft / irfft (else fft / ifft)
  bool forward;
  bool conj_in = false, conj_out = false;
};

// NumPy's _raw_fft.
ndarray raw_fft(const ndarray& a, int64_t n, int64_t axis, const OneAxis& f, std::string_view norm,
                const ndarray* out) {
  if (n < 1) throw ValueError("Invalid number of FFT data points (" + std::to_string(n) + ") specified.");
  if (n > INT_MAX)
    throw ValueError("Invalid number of FFT data points (" + std::to_string(n) + "): FFTW plans at most 2**31 - 1.");
  const Norm mode = parse_norm(norm, !f.forward);
  const DType real = real_dtype(a.dtype());
  const DType precision = real == DType::Float16 ? DType::Float32 : real;  // what FFTW computes in
  const FftKind kind = !f.real ? FftKind::C2C : f.forward ? FftKind::R2C : FftKind::C2R;
  const int64_t n_out = fft_output_length(kind, n);
  const int ax = normalize_axis_index(axis, a.ndim());
  if (out && (out->ndim() != a.ndim() || out->shape()[ax] != n_out)) throw ValueError("output array has wrong shape.");
  if (kind == FftKind::R2C && is_complex(a.dtype())) throw TypeError(type_error_for(n));
  const char* ufunc = kind == FftKind::C2C   ? (f.forward ? "fft" : "ifft")
                      : kind == FftKind::R2C ? (n % 2 == 0 ? "rfft_n_even" : "rfft_n_odd")
                                             : "irfft";
  // The input as the kernel reads it: of FFTW's precision, real or (not for R2C) complex.
  ndarray x = a;
  if (is_complex(a.dtype()) ? real_for(a.dtype()) != precision : a.dtype() != precision) x = astype(a, precision);
  Shape shape = a.shape();
  shape[ax] = n_out;
  const DType result = kind == FftKind::C2R ? real : complex_for(precision);
  const DType computed = kind == FftKind::C2R ? precision : result;
  const bool direct = out && out->dtype() == computed && out->shape() == shape && !out->shares_storage(x);
  ndarray y = direct ? *out : new_array(shape, computed);
  if (y.size() > 0) {
    AxisTransform t;
    t.kind = kind;
    t.forward = f.forward;
    t.n = n;
    t.scale = scale_factor(mode, n, real);
    t.conj_in = f.conj_in;
    t.conj_out = f.conj_out;
    const char* name = kind == FftKind::C2C   ? (f.forward ? "fft" : "ifft")
                       : kind == FftKind::R2C ? (f.conj_out ? "ihfft" : "rfft")
                                              : (f.conj_in ? "hfft" : "irfft");
    transform_axis(y, x, ax, t, name);
  }
  if (direct) return *out;
  if (out) {
    deliver(ufunc, y, *out);
    return *out;
  }
  return computed == result ? y : astype(y, result);
}

// The one-axis transforms' defaults for n.
int64_t axis_length(const ndarray& a, int64_t axis) { return a.shape()[normalize_axis_index(axis, a.ndim())]; }
int64_t half_length(const ndarray& a, int64_t axis) { return (axis_length(a, axis) - 1) * 2; }

const OneAxis kFft{false, true}, kIfft{false, false}, kRfft{true, true}, kIrfft{true, false};

ndarray fft_n(const ndarray& a, std::optional<int64_t> n, int64_t axis, std::string_view norm, const ndarray* out,
              const OneAxis& f) {
  const int64_t len = n ? *n : f.real && !f.forward ? half_length(a, axis) : axis_length(a, axis);
  return raw_fft(a, len, axis, f, norm, out);
}

// NumPy's take(a.shape, axis): IndexError when out of range.
int64_t shape_at(const ndarray& a, int64_t axis) {
  const int nd = a.ndim();
  if (axis < -nd || axis >= nd)
    throw IndexError("index " + std::to_string(axis) + " is out of bounds for axis 0 with size " + std::to_string(nd));
  return a.shape()[axis < 0 ? axis + nd : axis];
}

// NumPy's _cook_nd_args: the lengths and the axes of a transform over several axes.
struct NdArgs {
  FftLengths s;
  std::vector<int64_t> axes;
};

NdArgs cook_nd_args(const ndarray& a, const std::optional<FftLengths>& s,
                    const std::optional<std::vector<int64_t>>& axes, bool invreal) {
  NdArgs r;
  if (s) {
    r.s = *s;
  } else if (axes) {
    for (int64_t ax : *axes) r.s.push_back(shape_at(a, ax));
  } else {
    for (int64_t len : a.shape()) r.s.push_back(len);
  }
  if (axes) {
    r.axes = *axes;
  } else {
    for (int64_t i = -static_cast<int64_t>(r.s.size()); i < 0; ++i) r.axes.push_back(i);
  }
  if (r.s.size() != r.axes.size()) throw ValueError("Shape and axes have different lengths.");
  if (invreal && !s) {
    if (r.s.empty()) throw IndexError("list index out of range");
    r.s.back() = (shape_at(a, r.axes.back()) - 1) * 2;
  }
  for (size_t i = 0; i < r.s.size(); ++i)
    if (r.s[i] && *r.s[i] == -1) r.s[i] = shape_at(a, r.axes[i]);
  return r;
}

// fftn / ifftn: one pass per axis, the last first; every pass writes `out` when given.
ndarray complex_nd(const ndarray& a, const std::optional<FftLengths>& s,
                   const std::optional<std::vector<int64_t>>& axes, std::string_view norm, const ndarray* out,
                   const OneAxis& f) {
  const NdArgs args = cook_nd_args(a, s, axes, false);
  ndarray x = a;
  for (size_t i = args.axes.size(); i-- > 0;) x = fft_n(x, args.s[i], args.axes[i], norm, out, f);
  return x;
}

}  // namespace

ndarray fft(const ndarray& a, std::optional<int64_t> n, int64_t axis, std::string_view norm, const ndarray* out) {
  return fft_n(a, n, axis, norm, out, kFft);
}

ndarray ifft(const ndarray& a, std::optional<int64_t> n, int64_t axis, std::string_view norm, const ndarray* out) {
  return fft_n(a, n, axis, norm, out, kIfft);
}

ndarray rfft(const ndarray& a, std::optional<int64_t> n, int64_t axis, std::string_view norm, const ndarray* out) {
  return fft_n(a, n, axis, norm, out, kRfft);
}

ndarray irfft(const ndarray& a, std::optional<int64_t> n, int64_t axis, std::string_view norm, const ndarray* out) {
  return fft_n(a, n, axis, norm, out, kIrfft);
}

ndarray hfft(const ndarray& a, std::optional<int64_t> n, int64_t axis, std::string_view norm) {
  // irfft(conjugate(a), n, axis, swapped norm)
  const int64_t len = n ? *n : half_length(a, axis);
  OneAxis f = kIrfft;
  f.conj_in = true;
  return raw_fft(a, len, axis, f, swap_direction(norm), nullptr);
}

ndarray ihfft(const ndarray& a, std::optional<int64_t> n, int64_t axis, std::string_view norm, const ndarray* out) {
  // conjugate(rfft(a, n, axis, swapped norm))
  const int64_t len = n ? *n : axis_length(a, axis);
  OneAxis f = kRfft;
  f.conj_out = true;
  return raw_fft(a, len, axis, f, swap_direction(norm), out);
}

ndarray fftn(const ndarray& a, const std::optional<FftLengths>& s, const std::optional<std::vector<int64_t>>& axes,
             std::string_view norm, const ndarray* out) {
  return complex_nd(a, s, axes, norm, out, kFft);
}

ndarray ifftn(const ndarray& a, const std::optional<FftLengths>& s, const std::optional<std::vector<int64_t>>& axes,
              std::string_view norm, const ndarray* out) {
  return complex_nd(a, s, axes, norm, out, kIfft);
}

ndarray rfftn(const ndarray& a, const std::optional<FftLengths>& s, const std::optional<std::vector<int64_t>>& axes,
              std::string_view norm, const ndarray* out) {
  const NdArgs args = cook_nd_args(a, s, axes, false);
  if (args.axes.empty()) throw IndexError("list index out of range");
  ndarray x = fft_n(a, args.s.back(), args.axes.back(), norm, out, kRfft);
  for (size_t i = args.axes.size() - 1; i-- > 0;) x = fft_n(x, args.s[i], args.axes[i], norm, out, kFft);
  return x;
}

ndarray irfftn(const ndarray& a, const std::optional<FftLengths>& s, const std::optional<std::vector<int64_t>>& axes,
               std::string_view norm, const ndarray* out) {
  const NdArgs args = cook_nd_args(a, s, axes, true);
  if (args.axes.empty()) throw IndexError("list index out of range");
  ndarray x = a;
  for (size_t i = 0; i + 1 < args.axes.size(); ++i) x = fft_n(x, args.s[i], args.axes[i], norm, nullptr, kIfft);
  return fft_n(x, args.s.back(), args.axes.back(), norm, out, kIrfft);
}

}  // namespace tessera
