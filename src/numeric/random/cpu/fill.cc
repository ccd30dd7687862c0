#include "numeric/random/cpu/fill.h"

#include <cmath>
#include <cstring>
#include <numbers>
#include <type_traits>

#include "numeric/random/cpu/philox.h"
#include "tessera/errors.h"

namespace tessera::detail {
namespace {

constexpr double k2pow53 = 0x1.0p-53;

// U[0, 1) from the top 53 bits; (0, 1] for the logarithm of Box-Muller.
double unit_open_high(uint64_t x) { return static_cast<double>(x >> 11) * k2pow53; }
double unit_open_low(uint64_t x) { return static_cast<double>((x >> 11) + 1) * k2pow53; }

// Elements 2j and 2j + 1 of a float64 draw come from block j; float32 uniforms use 4 words a block.
template <class T>
void fill_uniform(const DrawSpec& s, int64_t first, int64_t n, T* out) {
  constexpr int per = std::is_same_v<T, float> ? 4 : 2;
  PhiloxBlock blk{};
  int64_t cur = -1;
  for (int64_t i = first; i < first + n; ++i) {
    const int64_t j = i / per;
    if (j != cur) {
      blk = philox4x32_10(philox_counter(static_cast<uint64_t>(j), s.draw), s.key);
      cur = j;
    }
    if constexpr (per == 4) {
      const float u = static_cast<float>(blk[i % 4] >> 8) * 0x1.0p-24f;
      out[i - first] = static_cast<float>(s.a) + static_cast<float>(s.b) * u;
    } else {
      out[i - first] = s.a + s.b * unit_open_high(philox_u64(blk, static_cast<int>(i % 2)));
    }
  }
}

// Box-Muller: block j gives the pair (r cos θ, r sin θ) for elements 2j and 2j + 1, in both dtypes.
template <class T>
void fill_normal(const DrawSpec& s, int64_t first, int64_t n, T* out) {
  double pair[2] = {0, 0};
  int64_t cur = -1;
  for (int64_t i = first; i < first + n; ++i) {
    const int64_t j = i / 2;
    if (j != cur) {
      const PhiloxBlock blk = philox4x32_10(philox_counter(static_cast<uint64_t>(j), s.draw), s.key);
      const double r = std::sqrt(-2.0 * std::log(unit_open_low(philox_u64(blk, 0))));
      const double theta = 2.0 * std::numbers::pi * unit_open_high(philox_u64(blk, 1));
      pair[0] = r * std::cos(theta);
      pair[1] = r * std::sin(theta);
      cur = j;
    }
    out[i - first] = static_cast<T>(s.a + s.b * pair[i % 2]);
  }
}

// Lemire's multiply-and-reject, unbiased. Element i owns block i; a rejected candidate is
// followed by the block's second word, then by blocks of re-keyed streams (rare: p < range/2^64).
uint64_t bounded(uint64_t range, uint64_t key, uint64_t draw, uint64_t i) {
  for (uint64_t attempt = 0;; ++attempt) {
    const PhiloxBlock blk = philox4x32_10(philox_counter(i, draw), key + attempt * 0x9E3779B97F4A7C15ull);
    for (int w = 0; w < 2; ++w) {
      const uint64_t x = philox_u64(blk, w);
      if (range == 0) return x;
      const unsigned __int128 m = static_cast<unsigned __int128>(x) * range;
      const uint64_t l = static_cast<uint64_t>(m);
      if (l >= range || l >= (0 - range) % range) return static_cast<uint64_t>(m >> 64);
    }
  }
}

template <class T>
void store_integer(uint64_t v, T* out) {
  if constexpr (std::is_same_v<T, bool>) *out = v != 0;
  else *out = static_cast<T>(v);
}

template <class T>
void fill_integers(const DrawSpec& s, int64_t first, int64_t n, T* out) {
  for (int64_t i = first; i < first + n; ++i)
    store_integer(s.low + bounded(s.range, s.key, s.draw, static_cast<uint64_t>(i)), out + (i - first));
}

// Calls f(pointer) with `out` as a pointer to the integer or bool dtype `t`.
template <class F>
void with_integer_type(DType t, char* out, F&& f) {
  switch (t) {
    case DType::Bool: return f(reinterpret_cast<bool*>(out));
    case DType::Int8: return f(reinterpret_cast<int8_t*>(out));
    case DType::Int16: return f(reinterpret_cast<int16_t*>(out));
    case DType::Int32: return f(reinterpret_cast<int32_t*>(out));
    case DType::Int64: return f(reinterpret_cast<int64_t*>(out));
    case DType::UInt8: return f(reinterpret_cast<uint8_t*>(out));
    case DType::UInt16: return f(reinterpret_cast<uint16_t*>(out));
    case DType::UInt32: return f(reinterpret_cast<uint32_t*>(out));
    case DType::UInt64: return f(reinterpret_cast<uint64_t*>(out));
    default: TESSERA_CHECK(false, std::string("no random integers of ") + dtype_name(t));
  }
}

}  // namespace

void fill(const DrawSpec& s, int64_t first, int64_t n, void* out) {
  switch (s.dist) {
    case Distribution::Uniform:
      if (s.dtype == DType::Float32) return fill_uniform(s, first, n, static_cast<float*>(out));
      return fill_uniform(s, first, n, static_cast<double*>(out));
    case Distribution::Normal:
      if (s.dtype == DType::Float32) return fill_normal(s, first, n, static_cast<float*>(out));
      return fill_normal(s, first, n, static_cast<double*>(out));
    case Distribution::Integers:
      switch (s.dtype) {
        case DType::Bool: return fill_integers(s, first, n, static_cast<bool*>(out));
        case DType::Int8: return fill_integers(s, first, n, static_cast<int8_t*>(out));
        case DType::Int16: return fill_integers(s, first, n, static_cast<int16_t*>(out));
        case DType::Int32: return fill_integers(s, first, n, static_cast<int32_t*>(out));
        case DType::Int64: return fill_integers(s, first, n, static_cast<int64_t*>(out));
        case DType::UInt8: return fill_integers(s, first, n, static_cast<uint8_t*>(out));
        case DType::UInt16: return fill_integers(s, first, n, static_cast<uint16_t*>(out));
        case DType::UInt32: return fill_integers(s, first, n, static_cast<uint32_t*>(out));
        case DType::UInt64: return fill_integers(s, first, n, static_cast<uint64_t*>(out));
        default: break;
      }
  }
  TESSERA_CHECK(false, std::string("no random draw for ") + dtype_name(s.dtype));
}

void fill_bounded_integers(DType t, uint64_t key, uint64_t draw, const uint64_t* low, const uint64_t* range,
                           int64_t first, int64_t n, void* out) {
  with_integer_type(t, static_cast<char*>(out), [&](auto* dst) {
    for (int64_t i = first; i < first + n; ++i) {
      const size_t e = static_cast<size_t>(i);
      store_integer(low[e] + bounded(range[e], key, draw, static_cast<uint64_t>(i)), dst + (i - first));
    }
  });
}

}  // namespace tessera::detail
