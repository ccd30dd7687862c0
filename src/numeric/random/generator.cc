// tessera::Generator: NumPy's argument checks and result dtypes, mapped onto draws.
#include <algorithm>
#include <cmath>
#include <random>

#include "comm/comm.h"
#include "numeric/elementwise/ufunc_impl.h"
#include "numeric/random/cpu/fill.h"
#include "numeric/random/draw.h"
#include "tessera/creation.h"
#include "tessera/elementwise.h"
#include "tessera/random.h"
#include "tessera/shape.h"

namespace tessera {
using namespace detail;

namespace {

uint64_t mix64(uint64_t z) {  // SplitMix64's finaliser
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}

void check_size(const Shape& size) {
  for (int64_t d : size)
    if (d < 0) throw ValueError("negative dimensions are not allowed");
}

void check_float_dtype(DType t, const char* method) {
  if (t != DType::Float64 && t != DType::Float32)
    throw TypeError("Unsupported dtype " + dtype_repr(t) + " for " + method);
}

Scalar one_value(const DrawSpec& spec) {
  alignas(16) unsigned char buf[16];
  fill(spec, 0, 1, buf);
  return Scalar::from_bytes(spec.dtype, buf);
}

// The shape of a draw whose parameters are arrays: `size`, which the parameters must broadcast to.
// NumPy's checks of uniform's scalar bounds: its Generator refuses high < low (the legacy
// functions allow it); both refuse a range that is not finite.
void check_uniform_range(double span, bool legacy) {
  if (!legacy && span < 0) throw ValueError("high - low < 0");
  if (!std::isfinite(span))
    throw OverflowError(legacy ? "Range exceeds valid bounds" : "high - low range exceeds valid bounds");
}

void check_parameters(const Shape& size, const std::vector<Operand>& params) {
  std::vector<Shape> shapes{size};
  for (const Operand& p : params)
    if (p.is_array()) shapes.push_back(p.array().shape());
  if (broadcast_shapes(shapes) != size)
    throw ValueError("shape mismatch: objects cannot be broadcast to a single shape");
}

__int128 as_int128(const Scalar& s) {
  if (s.is_big_int()) {  // beyond 64 bits: exact where it matters (2**64), else surely out of bounds
    const double v = std::clamp(s.as_double(), -0x1p100, 0x1p100);
    return static_cast<__int128>(v);
  }
  if (s.dtype() == DType::UInt64) return static_cast<__int128>(s.as_uint());
  if (is_inexact(s.dtype())) return static_cast<__int128>(std::trunc(s.as_double()));
  return s.as_int();
}

// NumPy's checks of `integers` bounds; returns the low bound and the range (0 means 2^64).
DrawSpec integer_spec(const Scalar& low, const Scalar& high, DType t, bool endpoint) {
  if (!is_integer(t) && t != DType::Bool) throw TypeError("Unsupported dtype " + dtype_repr(t) + " for integers");
  __int128 lo = as_int128(low), hi = as_int128(high);
  if (!endpoint) hi -= 1;
  __int128 tmin = 0, tmax = 1;
  if (t != DType::Bool) {
    const int bits = 8 * itemsize(t);
    if (dtype_kind(t) == DKind::UInt) {
      tmax = (__int128{1} << bits) - 1;
    } else {
      tmin = -(__int128{1} << (bits - 1));
      tmax = (__int128{1} << (bits - 1)) - 1;
    }
  }
  if (lo < tmin) throw ValueError(std::string("low is out of bounds for ") + dtype_name(t));
  if (hi > tmax) throw ValueError(std::string("high is out of bounds for ") + dtype_name(t));
  if (lo > hi) throw ValueError(endpoint ? "low > high" : "low >= high");
  DrawSpec s;
  s.dist = Distribution::Integers;
  s.dtype = t;
  s.low = static_cast<uint64_t>(lo);
  s.range = static_cast<uint64_t>(hi - lo + 1);  // 2^64 wraps to 0: every 64-bit value
  return s;
}

}  // namespace

Generator::Generator(uint64_t seed) : Generator(std::vector<uint64_t>{seed}) {}

Generator::Generator(const std::vector<uint64_t>& seed) {
  uint64_t h = 0x243F6A8885A308D3ull;
  for (uint64_t w : seed) h = mix64(h ^ mix64(w + 0x9E3779B97F4A7C15ull));
  key_ = mix64(h + seed.size());
}

Generator Generator::from_entropy() {
  std::vector<uint64_t> words(4);
  if (rank_count() > 1) {
    // Every rank must draw the same numbers: the run's shared entropy, and how many
    // generators the program made from entropy before (the same count on every rank).
    static std::atomic<uint64_t> made{0};
    words = {run_entropy(), made.fetch_add(1), 0x7e55e7a, 0};
    return Generator(words);
  }
  std::random_device rd;
  for (auto& w : words) w = (uint64_t{rd()} << 32) | rd();
  return Generator(words);
}

ndarray Generator::random(const Shape& size, DType dtype) {
  check_float_dtype(dtype, "random");
  check_size(size);
  auto [key, draw] = take_draw();
  return draw_array({Distribution::Uniform, dtype, key, draw, 0.0, 1.0}, size);
}

Scalar Generator::random(DType dtype) {
  check_float_dtype(dtype, "random");
  auto [key, draw] = take_draw();
  return one_value({Distribution::Uniform, dtype, key, draw, 0.0, 1.0});
}

ndarray Generator::standard_normal(const Shape& size, DType dtype) {
  check_float_dtype(dtype, "standard_normal");
  check_size(size);
  auto [key, draw] = take_draw();
  return draw_array({Distribution::Normal, dtype, key, draw, 0.0, 1.0}, size);
}

Scalar Generator::standard_normal(DType dtype) {
  check_float_dtype(dtype, "standard_normal");
  auto [key, draw] = take_draw();
  return one_value({Distribution::Normal, dtype, key, draw, 0.0, 1.0});
}

ndarray Generator::uniform(const Operand& low, const Operand& high, const Shape& size, Bounds bounds) {
  const bool legacy = bounds == Bounds::Legacy;
  check_size(size);
  check_parameters(size, {low, high});
  if (!low.is_array() && !high.is_array()) {
    const double lo = low.scalar().as_double();
    check_uniform_range(high.scalar().as_double() - lo, legacy);
    auto [key, draw] = take_draw();
    return draw_array({Distribution::Uniform, DType::Float64, key, draw, lo, high.scalar().as_double() - lo}, size);
  }
  // NumPy checks every bound up front: this waits for their values.
  const ndarray span = astype(binary("subtract", high, low), DType::Float64);
  std::vector<double> host(static_cast<size_t>(span.size()));
  span.copy_to(host.data());
  for (double v : host)
    if (!legacy && v < 0) throw ValueError("high - low < 0");
  for (double v : host)
    if (!std::isfinite(v)) throw OverflowError("Range exceeds valid bounds");
  ndarray u = random(size);
  return binary("add", low, binary("multiply", binary("subtract", high, low), u));
}

Scalar Generator::uniform(double low, double high, Bounds bounds) {
  check_uniform_range(high - low, bounds == Bounds::Legacy);
  auto [key, draw] = take_draw();
  return one_value({Distribution::Uniform, DType::Float64, key, draw, low, high - low});
}

ndarray Generator::normal(const Operand& loc, const Operand& scale, const Shape& size) {
  check_size(size);
  check_parameters(size, {loc, scale});
  if (scale.is_array()) {
    // NumPy checks every scale up front: this waits for the scale's values.
    const ndarray s = astype(scale.array(), DType::Float64);
    std::vector<double> host(static_cast<size_t>(s.size()));
    s.copy_to(host.data());
    for (double v : host)
      if (v < 0) throw ValueError("scale < 0");
  } else if (scale.scalar().as_double() < 0) {
    throw ValueError("scale < 0");
  }
  if (!loc.is_array() && !scale.is_array()) {
    auto [key, draw] = take_draw();
    return draw_array(
        {Distribution::Normal, DType::Float64, key, draw, loc.scalar().as_double(), scale.scalar().as_double()}, size);
  }
  ndarray z = standard_normal(size);
  return binary("add", loc, binary("multiply", scale, z));
}

Scalar Generator::normal(double loc, double scale) {
  if (scale < 0) throw ValueError("scale < 0");
  auto [key, draw] = take_draw();
  return one_value({Distribution::Normal, DType::Float64, key, draw, loc, scale});
}

ndarray Generator::integers(const Scalar& low, const Scalar& high, const Shape& size, DType dtype, bool endpoint) {
  DrawSpec spec = integer_spec(low, high, dtype, endpoint);
  check_size(size);
  std::tie(spec.key, spec.draw) = take_draw();
  return draw_array(spec, size);
}

ndarray Generator::integers(const Operand& low, const Operand& high, const Shape& size, DType dtype, bool endpoint) {
  check_size(size);
  check_parameters(size, {low, high});
  int64_t count = 1;
  for (int64_t d : size) count *= d;
  // The bounds of every element, read on the host: NumPy checks each one up front.
  auto values = [&](const Operand& b) {
    std::vector<Scalar> v;
    if (!b.is_array()) return std::vector<Scalar>(static_cast<size_t>(count), b.scalar());
    const ndarray a = broadcast_to(b.array(), size);
    const DType read = is_inexact(a.dtype())                  ? DType::Float64
                       : dtype_kind(a.dtype()) == DKind::UInt ? DType::UInt64
                                                              : DType::Int64;
    const ndarray c = astype(a, read);
    v.reserve(static_cast<size_t>(count));
    if (read == DType::Float64)
      for (double x : c.to_vector<double>()) v.emplace_back(x);
    else if (read == DType::UInt64)
      for (uint64_t x : c.to_vector<uint64_t>()) v.emplace_back(x);
    else
      for (int64_t x : c.to_vector<int64_t>()) v.emplace_back(x);
    return v;
  };
  const std::vector<Scalar> lo = values(low), hi = values(high);
  std::vector<uint64_t> lows(static_cast<size_t>(count)), ranges(static_cast<size_t>(count));
  for (size_t e = 0; e < static_cast<size_t>(count); ++e) {
    const DrawSpec s = integer_spec(lo[e], hi[e], dtype, endpoint);
    lows[e] = s.low;
    ranges[e] = s.range;
  }
  if (count == 0) integer_spec(Scalar(int64_t{0}), Scalar(int64_t{1}), dtype, endpoint);  // the dtype check
  auto [key, draw] = take_draw();
  return draw_integer_array(dtype, key, draw, std::move(lows), std::move(ranges), size);
}

Scalar Generator::integers(const Scalar& low, const Scalar& high, DType dtype, bool endpoint) {
  DrawSpec spec = integer_spec(low, high, dtype, endpoint);
  std::tie(spec.key, spec.draw) = take_draw();
  return one_value(spec);
}

}  // namespace tessera
