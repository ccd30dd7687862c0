// Random numbers from a counter-based generator (Philox-4x32-10): element i of a
// draw depends only on (seed, draw number, i), never on how the array is tiled,
// so results are the same for any number of cpus (DESIGN §7). Array draws are
// deferred operations; single values are computed at once on the calling thread.
// Example: `tessera::Generator rng(42); ndarray x = rng.standard_normal({1000, 1000});`
#pragma once

#include <cstdint>
#include <string_view>
#include <utility>
#include <vector>

#include "tessera/ndarray.h"

namespace tessera {

/// NumPy's distributions beyond uniform and normal, by the parameters NumPy's methods take
/// (in NumPy's order; `Generator::draw` checks them as NumPy does).
enum class Law {
  Exponential,          // scale
  StandardExponential,  //
  Gamma,                // shape, scale
  StandardGamma,        // shape
  Beta,                 // a, b
  Binomial,             // n, p                          (int64)
  Poisson,              // lam                           (int64)
  Geometric,            // p                             (int64)
  Lognormal,            // mean, sigma
  Laplace,              // loc, scale
  Logistic,             // loc, scale
  Gumbel,               // loc, scale
  Chisquare,            // df
  NoncentralChisquare,  // df, nonc
  F,                    // dfnum, dfden
  NoncentralF,          // dfnum, dfden, nonc
  StandardT,            // df
  StandardCauchy,       //
  Weibull,              // a
  Pareto,               // a
  Power,                // a
  Rayleigh,             // scale
  Triangular,           // left, mode, right
  Vonmises,             // mu, kappa
  Wald,                 // mean, scale
  Zipf,                 // a                             (int64)
  Logseries,            // p                             (int64)
  Hypergeometric,       // ngood, nbad, nsample          (int64)
  NegativeBinomial,     // n, p                          (int64)
};

/// The law of NumPy's method `name` ("gamma", "negative_binomial", ...); ValueError if none.
Law law_named(std::string_view name);
/// Whether `law` takes integer values (drawn as int64).
bool law_is_discrete(Law law);

/// NumPy's `numpy.random.Generator`, on Philox-4x32-10. Every call is one draw of the stream.
class Generator {
 public:
  /// Seeded by `seed` (NumPy's `default_rng(seed)`).
  explicit Generator(uint64_t seed);
  /// Seeded by a sequence of 64-bit words (a Python int of any size, or a list of ints).
  explicit Generator(const std::vector<uint64_t>& seed);
  /// Seeded from the operating system's entropy.
  static Generator from_entropy();

  /// Floats uniform in [0, 1) of `dtype` (float64 or float32).
  ndarray random(const Shape& size, DType dtype = DType::Float64);
  Scalar random(DType dtype = DType::Float64);
  /// Standard normal floats of `dtype` (float64 or float32).
  ndarray standard_normal(const Shape& size, DType dtype = DType::Float64);
  Scalar standard_normal(DType dtype = DType::Float64);
  /// What uniform accepts: NumPy's Generator refuses high < low (ValueError); its legacy
  /// functions (numpy.random.uniform) allow it. Both refuse a range that is not finite.
  enum class Bounds { Ordered, Legacy };
  /// float64 values uniform in [low, high); array bounds broadcast to `size`.
  ndarray uniform(const Operand& low, const Operand& high, const Shape& size, Bounds bounds = Bounds::Ordered);
  Scalar uniform(double low, double high, Bounds bounds = Bounds::Ordered);
  /// float64 normal values of mean `loc` and standard deviation `scale` (arrays broadcast to `size`).
  ndarray normal(const Operand& loc, const Operand& scale, const Shape& size);
  Scalar normal(double loc, double scale);
  /// Integers uniform in [low, high), or [low, high] with `endpoint`, of an integer or bool dtype.
  ndarray integers(const Scalar& low, const Scalar& high, const Shape& size, DType dtype = DType::Int64,
                   bool endpoint = false);
  Scalar integers(const Scalar& low, const Scalar& high, DType dtype = DType::Int64, bool endpoint = false);
  /// Integers whose bounds are arrays (broadcast to `size`), each element checked as NumPy does.
  ndarray integers(const Operand& low, const Operand& high, const Shape& size, DType dtype = DType::Int64,
                   bool endpoint = false);

  /// Values of `law` with `params` (arrays broadcast to `size`), as float64 (or float32 where
  /// NumPy offers it) or int64 for the discrete laws. Example: `rng.draw(Law::Gamma, {2.0, 1.0}, {100})`.
  ndarray draw(Law law, const std::vector<Operand>& params, const Shape& size, DType dtype = DType::Float64);
  Scalar draw(Law law, const std::vector<double>& params, DType dtype = DType::Float64);

  /// The stream's key and the next draw number, consuming that draw (to seed another generator from it).
  std::pair<uint64_t, uint64_t> take_draw() { return {key_, draws_++}; }

 private:
  uint64_t key_;
  uint64_t draws_ = 0;
};

}  // namespace tessera
