// Generator::draw: NumPy's distributions (tessera::Law), one table of their parameters and
// NumPy's checks on them, and the task "random.law", which computes a draw's tiles in
// parallel: element i runs its law's sampler (numeric/random/cpu/samplers.h) on its own stream.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <string>

#include "data/strided_rows.h"
#include "numeric/elementwise/ufunc_impl.h"
#include "numeric/random/cpu/samplers.h"
#include "tessera/elementwise.h"
#include "tessera/errors.h"
#include "tessera/random.h"
#include "tessera/shape.h"
#include "tessera/task.h"

namespace tessera {
using namespace detail;

namespace {

// NumPy's constraints on a parameter (numpy/random/_common.pyx).
enum class Cons { None, NonNegative, Positive, PositiveNotNan, Bounded01, BoundedGt01, BoundedLt01, Gt1, Poisson };

struct LawInfo {
  const char* law;
  int arity;
  const char* names[3];
  Cons cons[3];
  bool discrete;
};

const LawInfo& info(Law law) {
  using C = Cons;
  static const LawInfo table[] = {
      {"exponential", 1, {"scale"}, {C::NonNegative}, false},                             // Exponential
      {"standard_exponential", 0, {}, {}, false},                                         // StandardExponential
      {"gamma", 2, {"shape", "scale"}, {C::NonNegative, C::NonNegative}, false},          // Gamma
      {"standard_gamma", 1, {"shape"}, {C::NonNegative}, false},                          // StandardGamma
      {"beta", 2, {"a", "b"}, {C::Positive, C::Positive}, false},                         // Beta
      {"binomial", 2, {"n", "p"}, {C::NonNegative, C::Bounded01}, true},                  // Binomial
      {"poisson", 1, {"lam"}, {C::Poisson}, true},                                        // Poisson
      {"geometric", 1, {"p"}, {C::BoundedGt01}, true},                                    // Geometric
      {"lognormal", 2, {"mean", "sigma"}, {C::None, C::NonNegative}, false},              // Lognormal
      {"laplace", 2, {"loc", "scale"}, {C::None, C::NonNegative}, false},                 // Laplace
      {"logistic", 2, {"loc", "scale"}, {C::None, C::NonNegative}, false},                // Logistic
      {"gumbel", 2, {"loc", "scale"}, {C::None, C::NonNegative}, false},                  // Gumbel
      {"chisquare", 1, {"df"}, {C::Positive}, false},                                     // Chisquare
      {"noncentral_chisquare", 2, {"df", "nonc"}, {C::Positive, C::NonNegative}, false},  // NoncentralChisquare
      {"f", 2, {"dfnum", "dfden"}, {C::Positive, C::Positive}, false},                    // F
      {"noncentral_f",
       3,
       {"dfnum", "dfden", "nonc"},
       {C::Positive, C::Positive, C::NonNegative},
       false},                                                                           // NoncentralF
      {"standard_t", 1, {"df"}, {C::Positive}, false},                                   // StandardT
      {"standard_cauchy", 0, {}, {}, false},                                             // StandardCauchy
      {"weibull", 1, {"a"}, {C::NonNegative}, false},                                    // Weibull
      {"pareto", 1, {"a"}, {C::Positive}, false},                                        // Pareto
      {"power", 1, {"a"}, {C::Positive}, false},                                         // Power
      {"rayleigh", 1, {"scale"}, {C::NonNegative}, false},                               // Rayleigh
      {"triangular", 3, {"left", "mode", "right"}, {C::None, C::None, C::None}, false},  // Triangular
      {"vonmises", 2, {"mu", "kappa"}, {C::None, C::NonNegative}, false},                // Vonmises
      {"wald", 2, {"mean", "scale"}, {C::Positive, C::Positive}, false},                 // Wald
      {"zipf", 1, {"a"}, {C::Gt1}, true},                                                // Zipf
      {"logseries", 1, {"p"}, {C::BoundedLt01}, true},                                   // Logseries
      {"hypergeometric",
       3,
       {"ngood", "nbad", "nsample"},
       {C::NonNegative, C::NonNegative, C::NonNegative},
       true},                                                                           // Hypergeometric
      {"negative_binomial", 2, {"n", "p"}, {C::PositiveNotNan, C::BoundedGt01}, true},  // NegativeBinomial
  };
  return table[static_cast<int>(law)];
}

// NumPy's largest Poisson mean: int64's maximum less ten of its standard deviations.
const double kPoissonLamMax = 9.2233720368547758e18 - 3037000499.97605 * 10;

// Whether `v` breaks `c`; sets the message (NumPy words a scalar's NaN "is NaN", an array's "contains NaNs").
bool violates(Cons c, double v, const std::string& n, bool array, std::string& msg) {
  const std::string nan_words = array ? " contains NaNs" : " is NaN";
  switch (c) {
    case Cons::None: return false;
    case Cons::NonNegative: msg = n + " < 0"; return !std::isnan(v) && std::signbit(v);
    case Cons::Positive: msg = n + " <= 0"; return v <= 0;
    case Cons::PositiveNotNan:
      msg = std::isnan(v) ? n + " must not be NaN" : n + " <= 0";
      return std::isnan(v) || v <= 0;
    case Cons::Bounded01: msg = n + " < 0, " + n + " > 1 or " + n + nan_words; return !(v >= 0 && v <= 1);
    case Cons::BoundedGt01: msg = n + " <= 0, " + n + " > 1 or " + n + nan_words; return !(v > 0 && v <= 1);
    case Cons::BoundedLt01: msg = n + " < 0, " + n + " >= 1 or " + n + nan_words; return !(v >= 0 && v < 1);
    case Cons::Gt1: msg = n + " <= 1 or " + n + nan_words; return !(v > 1);
    case Cons::Poisson: {
      if (array ? !(v <= kPoissonLamMax) : v > kPoissonLamMax) {  // an array's NaN is "too large" in NumPy
        msg = n + " value too large";
        return true;
      }
      msg = n + " < 0 or " + n + nan_words;
      return !(v >= 0);
    }
  }
  return false;
}

// Checks that involve several parameters of one element.
void check_joint(Law law, const double* p) {
  if (law == Law::Triangular) {
    if (p[0] > p[1]) throw ValueError("left > mode");
    if (p[1] > p[2]) throw ValueError("mode > right");
    if (p[0] == p[2]) throw ValueError("left == right");
  } else if (law == Law::NegativeBinomial) {
    // The Poisson mean is a Gamma(n) draw times (1 - p) / p: n + 10 sqrt(n) bounds the draw.
    if ((1 - p[1]) / p[1] * (p[0] + 10 * std::sqrt(p[0])) > kPoissonLamMax)
      throw ValueError("n too large or p too small, see Generator.negative_binomial Notes");
  } else if (law == Law::Hypergeometric) {
    if (p[0] >= 1e9 || p[1] >= 1e9) throw ValueError("both ngood and nbad must be less than 1000000000");
    if (p[0] + p[1] < p[2]) throw ValueError("ngood + nbad < nsample");
  }
}

// Integer parameters are truncated, as NumPy casts them to int64.
bool integer_parameter(Law law, int i) { return law == Law::Hypergeometric || (law == Law::Binomial && i == 0); }

double sample(Law law, ElementStream& s, const double* p) {
  switch (law) {
    case Law::Exponential: return p[0] * s.exponential();
    case Law::StandardExponential: return s.exponential();
    case Law::Gamma: return p[1] * standard_gamma(s, p[0]);
    case Law::StandardGamma: return standard_gamma(s, p[0]);
    case Law::Beta: return beta(s, p[0], p[1]);
    case Law::Binomial: return binomial(s, p[0], p[1]);
    case Law::Poisson: return poisson(s, p[0]);
    case Law::Geometric:
      if (p[0] == 1.0) return 1;
      return std::max(1.0, std::ceil(std::log(s.uniform_open()) / std::log1p(-p[0])));
    case Law::Lognormal: return std::exp(p[0] + p[1] * s.normal());
    case Law::Laplace: {
      const double u = s.uniform_open();
      return u >= 0.5 ? p[0] - p[1] * std::log(2.0 - 2.0 * u) : p[0] + p[1] * std::log(2.0 * u);
    }
    case Law::Logistic: {
      const double u = s.uniform_open();
      return p[0] + p[1] * std::log(u / (1.0 - u));
    }
    case Law::Gumbel: return p[0] - p[1] * std::log(-std::log1p(-s.uniform_open()));
    case Law::Chisquare: return chisquare(s, p[0]);
    case Law::NoncentralChisquare: return noncentral_chisquare(s, p[0], p[1]);
    case Law::F: return (chisquare(s, p[0]) * p[1]) / (chisquare(s, p[1]) * p[0]);
    case Law::NoncentralF: return (noncentral_chisquare(s, p[0], p[2]) * p[1]) / (chisquare(s, p[1]) * p[0]);
    case Law::StandardT: {
      const double z = s.normal();
      return std::sqrt(p[0] / 2) * z / std::sqrt(standard_gamma(s, p[0] / 2));
    }
    case Law::StandardCauchy: {
      const double z = s.normal();
      return z / s.normal();
    }
    case Law::Weibull: return p[0] == 0 ? 0.0 : std::pow(s.exponential(), 1.0 / p[0]);
    case Law::Pareto: return std::expm1(s.exponential() / p[0]);
    case Law::Power: return std::pow(-std::expm1(-s.exponential()), 1.0 / p[0]);
    case Law::Rayleigh: return p[0] * std::sqrt(2.0 * s.exponential());
    case Law::Triangular: {
      const double left = p[0], mode = p[1], right = p[2], base = right - left;
      const double u = s.uniform();
      if (u <= (mode - left) / base) return left + std::sqrt(u * (mode - left) * base);
      return right - std::sqrt((1.0 - u) * (right - mode) * base);
    }
    case Law::Vonmises: return vonmises(s, p[0], p[1]);
    case Law::Wald: {
      const double mean = p[0], scale = p[1], mu_2l = mean / (2 * scale);
      double y = s.normal();
      y = mean * y * y;
      const double x = mean + mu_2l * (y - std::sqrt(4 * scale * y + y * y));
      return s.uniform() <= mean / (mean + x) ? x : mean * mean / x;
    }
    case Law::Zipf: return zipf(s, p[0]);
    case Law::Logseries: return logseries(s, p[0]);
    case Law::Hypergeometric: return hypergeometric(s, p[0], p[1], p[2]);
    case Law::NegativeBinomial: return poisson(s, standard_gamma(s, p[0]) * ((1 - p[1]) / p[1]));
  }
  return NAN;
}

void store_value(double v, DType t, char* out) {
  // Discrete draws beyond int64 (a geometric of tiny p) saturate, as NumPy's do.
  if (t == DType::Int64)
    *reinterpret_cast<int64_t*>(out) = v >= 0x1p63 ? INT64_MAX : std::isnan(v) ? INT64_MIN : static_cast<int64_t>(v);
  else if (t == DType::Float32) *reinterpret_cast<float*>(out) = static_cast<float>(v);
  else *reinterpret_cast<double*>(out) = v;
}

// What every point of a draw reads: the law, its place in the generator's stream, the scalar
// parameters, and which parameters are arrays (arguments 1.. of the launch, float64
// broadcast to the result's shape, in this order).
struct LawDraw {
  Law law;
  uint64_t key, draw;
  double scalars[3];
  std::vector<int> array_params;
};

// C-order strides of `shape`, in elements.
Shape c_strides(const Shape& shape) {
  Shape s(shape.size(), 1);
  for (int d = static_cast<int>(shape.size()) - 2; d >= 0; --d) s[d] = s[d + 1] * shape[d + 1];
  return s;
}

// One point of a draw: argument 0 is the tile of the new C-ordered result, element i of which
// runs the law's sampler on its own stream (key, draw, i).
void draw_law_tile(TaskContext& ctx) {
  const LawDraw& w = ctx.payload<LawDraw>();
  const Tile& out = ctx.array(0);
  if (out.size() == 0) return;
  const int nd = out.ndim();
  const size_t na = w.array_params.size();
  const Shape flat = c_strides(out.array_shape());
  int64_t first = 0;
  for (int d = 0; d < nd; ++d) first += out.lo()[d] * flat[d];
  // Operands of the walk: the result, the flat index, then each array parameter.
  std::vector<const int64_t*> strides{out.strides().data(), flat.data()};
  std::vector<const char*> params(na);
  std::vector<int64_t> steps(na);
  for (size_t k = 0; k < na; ++k) {
    const Tile& t = ctx.array(k + 1);
    strides.push_back(t.strides().data());
    params[k] = static_cast<const char*>(t.data());
    steps[k] = nd == 0 ? 0 : t.strides()[static_cast<size_t>(nd - 1)];
  }
  const int64_t sz = itemsize(out.dtype());
  const int64_t out_step = nd == 0 ? 0 : out.strides()[static_cast<size_t>(nd - 1)];
  char* base = static_cast<char*>(out.data());
  double p[3];
  std::copy(w.scalars, w.scalars + 3, p);
  StridedRows rows(out.extents(), std::move(strides));
  rows.for_each([&](const int64_t*, const int64_t* off) {
    char* dst = base + off[0] * sz;
    const int64_t start = first + off[1];
    for (int64_t j = 0; j < rows.length(); ++j) {
      for (size_t k = 0; k < na; ++k)
        p[w.array_params[k]] = reinterpret_cast<const double*>(params[k])[off[k + 2] + j * steps[k]];
      ElementStream s(w.key, w.draw, static_cast<uint64_t>(start + j));
      store_value(sample(w.law, s, p), out.dtype(), dst + j * out_step * sz);
    }
  });
}

DType result_dtype(Law law, DType requested) {
  if (info(law).discrete) return DType::Int64;
  if (requested != DType::Float64 && requested != DType::Float32)
    throw TypeError("Unsupported dtype " + dtype_repr(requested) + " for this distribution");
  return requested;
}

// An integer parameter is truncated; NaN and infinity fail as NumPy's conversion to int64 does.
double truncate_if_integer(Law law, int i, double v) {
  if (!integer_parameter(law, i)) return v;
  if (std::isnan(v)) throw ValueError("cannot convert float NaN to integer");
  if (std::isinf(v)) throw OverflowError("cannot convert float infinity to integer");
  return std::trunc(v);
}

}  // namespace

Law law_named(std::string_view name) {
  for (int i = 0; i <= static_cast<int>(Law::NegativeBinomial); ++i)
    if (info(static_cast<Law>(i)).law == name) return static_cast<Law>(i);
  throw ValueError("unknown distribution '" + std::string(name) + "'");
}

bool law_is_discrete(Law law) { return info(law).discrete; }

ndarray Generator::draw(Law law, const std::vector<Operand>& params, const Shape& size, DType dtype) {
  const LawInfo& li = info(law);
  TESSERA_CHECK(static_cast<int>(params.size()) == li.arity, "wrong number of distribution parameters");
  const DType t = result_dtype(law, dtype);
  for (int64_t d : size)
    if (d < 0) throw ValueError("negative dimensions are not allowed");
  std::vector<Shape> shapes{size};
  for (const Operand& p : params)
    if (p.is_array()) shapes.push_back(p.array().shape());
  if (broadcast_shapes(shapes) != size)
    throw ValueError("shape mismatch: objects cannot be broadcast to a single shape");

  // NumPy checks every parameter up front: array parameters are read here (waiting for them).
  double scalars[3] = {0, 0, 0};
  std::vector<std::pair<int, ndarray>> arrays;
  std::string msg;
  for (int i = 0; i < li.arity; ++i) {
    const Operand& p = params[static_cast<size_t>(i)];
    if (!p.is_array()) {
      scalars[i] = truncate_if_integer(law, i, p.scalar().as_double());
      if (violates(li.cons[i], scalars[i], li.names[i], false, msg)) throw ValueError(msg);
      continue;
    }
    ndarray a = astype(p.array(), DType::Float64);
    if (integer_parameter(law, i)) a = unary("trunc", a);
    for (double v : a.to_vector<double>()) {
      truncate_if_integer(law, i, v);
      if (violates(li.cons[i], v, li.names[i], true, msg)) throw ValueError(msg);
    }
    arrays.emplace_back(i, broadcast_to(a, size));
  }
  if (law == Law::Triangular || law == Law::Hypergeometric || law == Law::NegativeBinomial) {
    // The joint checks run over every element of the broadcast parameters.
    std::vector<std::vector<double>> full(params.size());
    for (const auto& [i, a] : arrays) full[static_cast<size_t>(i)] = a.to_vector<double>();
    double p[3];
    std::copy(scalars, scalars + 3, p);
    int64_t count = 1;
    for (int64_t d : size) count *= d;
    if (arrays.empty()) count = 1;  // scalars are checked even for an empty draw, as NumPy does
    for (int64_t e = 0; e < count; ++e) {
      for (const auto& [i, a] : arrays) p[i] = full[static_cast<size_t>(i)][static_cast<size_t>(e)];
      check_joint(law, p);
    }
  }
  static const Task draw_law("random.law", draw_law_tile);
  auto [key, draw_number] = take_draw();
  LawDraw w{law, key, draw_number, {scalars[0], scalars[1], scalars[2]}, {}};
  ndarray result = new_array(size, t);
  std::vector<Argument> args{out(result)};
  std::vector<Constraint> aligned;
  for (const auto& [i, a] : arrays) {
    w.array_params.push_back(i);
    aligned.push_back(align(static_cast<int>(args.size()), 0));
    args.push_back(in(a));
  }
  launch(draw_law, std::move(args), {}, std::move(aligned),
         {.name = li.law, .weight = 8, .payload = Payload::of(std::move(w))});
  return result;
}

Scalar Generator::draw(Law law, const std::vector<double>& params, DType dtype) {
  const LawInfo& li = info(law);
  TESSERA_CHECK(static_cast<int>(params.size()) == li.arity, "wrong number of distribution parameters");
  const DType t = result_dtype(law, dtype);
  double p[3] = {0, 0, 0};
  std::string msg;
  for (int i = 0; i < li.arity; ++i) {
    p[i] = truncate_if_integer(law, i, params[static_cast<size_t>(i)]);
    if (violates(li.cons[i], p[i], li.names[i], false, msg)) throw ValueError(msg);
  }
  check_joint(law, p);
  auto [key, draw_number] = take_draw();
  ElementStream s(key, draw_number, 0);
  alignas(16) char buf[16];
  store_value(sample(law, s, p), t, buf);
  return Scalar::from_bytes(t, buf);
}

}  // namespace tessera
