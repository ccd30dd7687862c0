// Scalar samplers of NumPy's distributions over one element's own stream of Philox
// blocks. Element i of a draw reads blocks (i, draw) under the keys key, key + φ,
// key + 2φ, ... in turn, so a rejection sampler that needs more uniforms keeps reading
// the same element's stream and the value never depends on the tiling.
#pragma once

#include <cmath>
#include <cstdint>
#include <numbers>

#include "numeric/random/cpu/philox.h"

namespace tessera::detail {

/// The random words of element `element` of a draw, in order.
class ElementStream {
 public:
  ElementStream(uint64_t key, uint64_t draw, uint64_t element) : key_(key), draw_(draw), element_(element) {}

  uint64_t next_u64() {
    if (word_ == 2) {
      block_ = philox4x32_10(philox_counter(element_, draw_), key_ + blocks_++ * 0x9E3779B97F4A7C15ull);
      word_ = 0;
    }
    return philox_u64(block_, word_++);
  }
  /// U[0, 1).
  double uniform() { return static_cast<double>(next_u64() >> 11) * 0x1.0p-53; }
  /// U(0, 1]: safe under a logarithm.
  double uniform_open_low() { return static_cast<double>((next_u64() >> 11) + 1) * 0x1.0p-53; }
  /// U(0, 1): safe under log(u) and log(1 - u).
  double uniform_open() { return (static_cast<double>(next_u64() >> 11) + 0.5) * 0x1.0p-53; }
  /// N(0, 1) by Box-Muller, the second value of each pair kept for the next call.
  double normal() {
    if (has_spare_) {
      has_spare_ = false;
      return spare_;
    }
    const double r = std::sqrt(-2.0 * std::log(uniform_open_low()));
    const double theta = 2.0 * std::numbers::pi * uniform();
    spare_ = r * std::sin(theta);
    has_spare_ = true;
    return r * std::cos(theta);
  }
  double exponential() { return -std::log(uniform_open_low()); }

 private:
  uint64_t key_, draw_, element_;
  uint64_t blocks_ = 0;
  PhiloxBlock block_{};
  int word_ = 2;
  bool has_spare_ = false;
  double spare_ = 0;
};

/// Gamma(shape, 1): Marsaglia and Tsang (2000), with the U^(1/k) boost below shape 1.
inline double standard_gamma(ElementStream& s, double k) {
  if (k == 1.0) return s.exponential();
  if (k == 0.0) return 0.0;
  if (k < 1.0) {
    // Gamma(k) = Gamma(k + 1) * U^(1/k), in logs so that tiny shapes underflow to 0 cleanly.
    const double g = standard_gamma(s, k + 1.0);
    return std::exp(std::log(g) + std::log(s.uniform_open_low()) / k);
  }
  const double d = k - 1.0 / 3.0, c = 1.0 / std::sqrt(9.0 * d);
  while (true) {
    double x, v;
    do {
      x = s.normal();
      v = 1.0 + c * x;
    } while (v <= 0.0);
    v = v * v * v;
    const double u = s.uniform_open_low();
    if (u < 1.0 - 0.0331 * (x * x) * (x * x)) return d * v;
    if (std::log(u) < 0.5 * x * x + d * (1.0 - v + std::log(v))) return d * v;
  }
}

/// Beta(a, b): Jöhnk's method (in logs) when both are at most 1, else a ratio of gammas.
inline double beta(ElementStream& s, double a, double b) {
  if (a <= 1.0 && b <= 1.0) {
    while (true) {
      const double logx = std::log(s.uniform_open_low()) / a, logy = std::log(s.uniform_open_low()) / b;
      const double m = std::max(logx, logy);
      const double lsum = m + std::log(std::exp(logx - m) + std::exp(logy - m));
      if (lsum <= 0.0) {
        if (!std::isfinite(lsum)) continue;  // both underflowed: try again
        return std::exp(logx - lsum);
      }
    }
  }
  const double x = standard_gamma(s, a), y = standard_gamma(s, b);
  return x / (x + y);
}

/// Poisson(lam): multiplication of uniforms below 10, Hörmann's PTRS (1993) above.
inline double poisson(ElementStream& s, double lam) {
  if (lam == 0.0 || !std::isfinite(lam)) return lam;  // NaN and infinity (from a composed mean) pass through
  if (lam < 10.0) {
    const double limit = std::exp(-lam);
    double k = 0, prod = s.uniform();
    while (prod > limit) {
      ++k;
      prod *= s.uniform();
    }
    return k;
  }
  const double slam = std::sqrt(lam), loglam = std::log(lam);
  const double b = 0.931 + 2.53 * slam, a = -0.059 + 0.02483 * b;
  const double invalpha = 1.1239 + 1.1328 / (b - 3.4), vr = 0.9277 - 3.6224 / (b - 2);
  while (true) {
    const double u = s.uniform() - 0.5, v = s.uniform_open_low();
    const double us = 0.5 - std::fabs(u);
    const double k = std::floor((2 * a / us + b) * u + lam + 0.43);
    if (us >= 0.07 && v <= vr) return k;
    if (k < 0 || (us < 0.013 && v > us)) continue;
    if (std::log(v) + std::log(invalpha) - std::log(a / (us * us) + b) <= -lam + k * loglam - std::lgamma(k + 1))
      return k;
  }
}

/// Binomial(n, p): inversion while n·min(p, 1-p) < 10, else Hörmann's BTRS (1993).
inline double binomial(ElementStream& s, double n, double p) {
  if (n == 0 || p == 0) return 0;
  if (p > 0.5) return n - binomial(s, n, 1.0 - p);
  const double q = 1.0 - p;
  if (n * p < 10.0) {
    const double qn = std::exp(n * std::log1p(-p)), np = n * p;
    const double bound = std::min(n, np + 10.0 * std::sqrt(np * q + 1));
    while (true) {
      double x = 0, px = qn, u = s.uniform();
      bool restart = false;
      while (u > px) {
        ++x;
        if (x > bound) {
          restart = true;
          break;
        }
        u -= px;
        px = ((n - x + 1) * p * px) / (x * q);
      }
      if (!restart) return x;
    }
  }
  const double spq = std::sqrt(n * p * q);
  const double b = 1.15 + 2.53 * spq, a = -0.0873 + 0.0248 * b + 0.01 * p, c = n * p + 0.5;
  const double vr = 0.92 - 4.2 / b, alpha = (2.83 + 5.1 / b) * spq, lpq = std::log(p / q);
  const double m = std::floor((n + 1) * p), h = std::lgamma(m + 1) + std::lgamma(n - m + 1);
  while (true) {
    const double u = s.uniform() - 0.5, v0 = s.uniform_open_low();
    const double us = 0.5 - std::fabs(u);
    const double k = std::floor((2 * a / us + b) * u + c);
    if (k < 0 || k > n) continue;
    if (us >= 0.07 && v0 <= vr) return k;
    const double v = std::log(v0 * alpha / (a / (us * us) + b));
    if (v <= h - std::lgamma(k + 1) - std::lgamma(n - k + 1) + (k - m) * lpq) return k;
  }
}

inline double chisquare(ElementStream& s, double df) { return 2.0 * standard_gamma(s, df / 2.0); }

inline double noncentral_chisquare(ElementStream& s, double df, double nonc) {
  if (std::isnan(nonc)) return NAN;
  if (nonc == 0) return chisquare(s, df);
  if (df > 1) {
    const double z = s.normal() + std::sqrt(nonc);
    return chisquare(s, df - 1) + z * z;
  }
  return chisquare(s, df + 2 * poisson(s, nonc / 2));
}

/// von Mises(mu, kappa): Best and Fisher (1979), a wrapped normal for very large kappa.
inline double vonmises(ElementStream& s, double mu, double kappa) {
  constexpr double pi = std::numbers::pi;
  if (std::isnan(kappa)) return NAN;
  if (kappa < 1e-8) return pi * (2 * s.uniform() - 1);
  double r;
  if (kappa > 1e6) {
    r = mu + std::sqrt(1.0 / kappa) * s.normal();
  } else {
    double sv;
    if (kappa < 1e-5) {
      sv = 1.0 / kappa + kappa;
    } else {
      const double rr = 1 + std::sqrt(1 + 4 * kappa * kappa);
      const double rho = (rr - std::sqrt(2 * rr)) / (2 * kappa);
      sv = (1 + rho * rho) / (2 * rho);
    }
    double w;
    while (true) {
      const double z = std::cos(pi * s.uniform());
      w = (1 + sv * z) / (sv + z);
      const double y = kappa * (sv - w), v = s.uniform_open_low();
      if (y * (2 - y) - v >= 0 || std::log(y / v) + 1 - y >= 0) break;
    }
    r = std::acos(w);
    if (s.uniform() < 0.5) r = -r;
    r += mu;
  }
  const bool neg = r < 0;
  double mod = std::fmod(std::fabs(r) + pi, 2 * pi) - pi;
  return neg ? -mod : mod;
}

/// Zipf(a): Devroye's rejection (Non-Uniform Random Variate Generation, X.6).
inline double zipf(ElementStream& s, double a) {
  if (a >= 1025) return 1;  // P(X > 1) < 2^-1024: and pow(2, a - 1) would overflow
  const double am1 = a - 1.0, b = std::pow(2.0, am1);
  while (true) {
    const double u = s.uniform_open_low(), v = s.uniform();
    const double x = std::floor(std::pow(u, -1.0 / am1));
    if (!(x >= 1) || x > 9.2233720368547748e18) continue;
    const double t = std::pow(1.0 + 1.0 / x, am1);
    if (v * x * (t - 1.0) / (b - 1.0) <= t / b) return x;
  }
}

/// Logarithmic series(p): Kemp's second accelerated generator (1981).
inline double logseries(ElementStream& s, double p) {
  const double r = std::log1p(-p);
  while (true) {
    const double v = s.uniform_open();
    if (v >= p) return 1;
    const double q = -std::expm1(r * s.uniform_open());
    if (v <= q * q) {
      const double x = std::floor(1 + std::log(v) / std::log(q));
      if (x < 1) continue;
      return x;
    }
    return v >= q ? 1 : 2;
  }
}

/// Hypergeometric(good, bad, sample): draws from the urn for small samples (or complements),
/// else Stadlober's ratio of uniforms, HRUA (1989), as NumPy does.
inline double hypergeometric(ElementStream& s, double good, double bad, double sample) {
  const double total = good + bad;
  if (sample < 10 || sample > total - 10) {
    const bool complement = sample > total / 2;
    const double m = complement ? total - sample : sample;
    double g = good, left = total, drawn_good = 0;
    for (double i = 0; i < m && g > 0; ++i) {
      if (s.uniform() * left < g) {
        ++drawn_good;
        --g;
      }
      --left;
    }
    return complement ? good - drawn_good : drawn_good;
  }
  auto logfact = [](double k) { return std::lgamma(k + 1); };
  const double n = std::min(sample, total - sample);
  const double lo = std::min(good, bad), hi = std::max(good, bad);
  const double p = lo / total, q = hi / total;
  const double a = n * p + 0.5;
  const double c = std::sqrt((total - n) * n * p * q / (total - 1) + 0.5);
  const double h = 1.7155277699214135 * c + 0.8989161620588988;
  const double m = std::floor((n + 1) * (lo + 1) / (total + 2));
  const double g = logfact(m) + logfact(lo - m) + logfact(n - m) + logfact(hi - n + m);
  const double b = std::min(std::min(n, lo) + 1, std::floor(a + 16 * c));
  double k;
  while (true) {
    const double u = s.uniform_open_low(), v = s.uniform();
    const double x = a + h * (v - 0.5) / u;
    if (x < 0.0 || x >= b) continue;
    k = std::floor(x);
    const double t = g - (logfact(k) + logfact(lo - k) + logfact(n - k) + logfact(hi - n + k));
    if (u * (4.0 - u) - 3.0 <= t) break;
    if (u * (u - t) >= 1) continue;
    if (2.0 * std::log(u) <= t) break;
  }
  if (good > bad) k = n - k;
  if (n < sample) k = good - k;
  return k;
}

}  // namespace tessera::detail
