// Element types of tessera arrays and NumPy's promotion rules between them.
// DType is a small enum; kernels dispatch on it at run time (DESIGN §12), so
// templates are instantiated per dtype, never per (dtype × ndim).
#pragma once

#include <complex>
#include <cstdint>
#include <string>
#include <string_view>

namespace tessera {

enum class DType : uint8_t {
  Bool,
  Int8,
  Int16,
  Int32,
  Int64,
  UInt8,
  UInt16,
  UInt32,
  UInt64,
  Float16,
  Float32,
  Float64,
  Complex64,
  Complex128,
};
inline constexpr int kNumDTypes = 14;

enum class DKind : uint8_t { Bool, Int, UInt, Float, Complex };

/// Bytes per element.
int itemsize(DType t);
/// NumPy's name ("float64", "int32", ...).
const char* dtype_name(DType t);
/// NumPy's one-character type code ('d', 'i', ...).
char dtype_char(DType t);
DKind dtype_kind(DType t);
/// Parses a NumPy dtype name or type code; throws TypeError when unknown.
DType dtype_from_name(std::string_view name);
inline bool is_float(DType t) { return dtype_kind(t) == DKind::Float; }
inline bool is_complex(DType t) { return dtype_kind(t) == DKind::Complex; }
inline bool is_integer(DType t) {
  auto k = dtype_kind(t);
  return k == DKind::Int || k == DKind::UInt;
}
inline bool is_inexact(DType t) { return is_float(t) || is_complex(t); }

/// NumPy's `can_cast(from, to, 'safe')`.
bool can_cast_safe(DType from, DType to);
/// NumPy's `can_cast(from, to, casting)` for the rules "no", "equiv", "safe", "same_kind" and
/// "unsafe" (byte order is always native, so "no" and "equiv" both ask for the same dtype);
/// ValueError for any other rule.
bool can_cast(DType from, DType to, std::string_view casting);
/// NumPy's `promote_types(a, b)`.
DType promote_types(DType a, DType b);
/// The smallest inexact type `t` casts to safely (what sqrt or divide compute in).
DType inexact_for(DType t);
/// The complex type with `t`'s precision (float32 -> complex64).
DType complex_for(DType t);
/// The real type of a complex type (complex64 -> float32); identity otherwise.
DType real_for(DType t);
/// The dtype `sum`/`prod` accumulate in by default (small ints widen to the platform int).
DType sum_dtype(DType t);

/// Maps a C++ element type to its DType.
template <class T>
struct dtype_of;
template <>
struct dtype_of<bool> {
  static constexpr DType value = DType::Bool;
};
template <>
struct dtype_of<int8_t> {
  static constexpr DType value = DType::Int8;
};
template <>
struct dtype_of<int16_t> {
  static constexpr DType value = DType::Int16;
};
template <>
struct dtype_of<int32_t> {
  static constexpr DType value = DType::Int32;
};
template <>
struct dtype_of<int64_t> {
  static constexpr DType value = DType::Int64;
};
template <>
struct dtype_of<uint8_t> {
  static constexpr DType value = DType::UInt8;
};
template <>
struct dtype_of<uint16_t> {
  static constexpr DType value = DType::UInt16;
};
template <>
struct dtype_of<uint32_t> {
  static constexpr DType value = DType::UInt32;
};
template <>
struct dtype_of<uint64_t> {
  static constexpr DType value = DType::UInt64;
};
template <>
struct dtype_of<_Float16> {
  static constexpr DType value = DType::Float16;
};
template <>
struct dtype_of<float> {
  static constexpr DType value = DType::Float32;
};
template <>
struct dtype_of<double> {
  static constexpr DType value = DType::Float64;
};
template <>
struct dtype_of<std::complex<float>> {
  static constexpr DType value = DType::Complex64;
};
template <>
struct dtype_of<std::complex<double>> {
  static constexpr DType value = DType::Complex128;
};

/// Calls `f(T{})` with the C++ type of `t` (float16 is `_Float16`).
template <class F>
decltype(auto) visit_dtype(DType t, F&& f) {
  switch (t) {
    case DType::Bool: return f(bool{});
    case DType::Int8: return f(int8_t{});
    case DType::Int16: return f(int16_t{});
    case DType::Int32: return f(int32_t{});
    case DType::Int64: return f(int64_t{});
    case DType::UInt8: return f(uint8_t{});
    case DType::UInt16: return f(uint16_t{});
    case DType::UInt32: return f(uint32_t{});
    case DType::UInt64: return f(uint64_t{});
    case DType::Float16: return f(_Float16{});
    case DType::Float32: return f(float{});
    case DType::Float64: return f(double{});
    case DType::Complex64: return f(std::complex<float>{});
    case DType::Complex128: break;
  }
  return f(std::complex<double>{});
}

}  // namespace tessera
