// A single typed value: the operand form of Python and C++ numbers, and what
// reductions return. `weak` marks a Python scalar, which takes part in
// promotion by kind only (NumPy's NEP 50).
#pragma once

#include <complex>
#include <cstdint>
#include <string>

#include "tessera/dtype.h"

namespace tessera {

class Scalar {
 public:
  Scalar() : dtype_(DType::Float64) { v_.f = 0; }
  Scalar(bool v) : dtype_(DType::Bool) { v_.i = v; }        // NOLINT: implicit by design
  Scalar(int v) : Scalar(static_cast<int64_t>(v)) {}        // NOLINT
  Scalar(int64_t v) : dtype_(DType::Int64) { v_.i = v; }    // NOLINT
  Scalar(uint64_t v) : dtype_(DType::UInt64) { v_.u = v; }  // NOLINT
  Scalar(double v) : dtype_(DType::Float64) { v_.f = v; }   // NOLINT
  Scalar(std::complex<double> v) : dtype_(DType::Complex128) {
    v_.c[0] = v.real();
    v_.c[1] = v.imag();
  }  // NOLINT

  /// A Python scalar: promotes by kind only.
  static Scalar weak(Scalar s) {
    s.weak_ = true;
    return s;
  }
  /// A Python int too large for 64 bits: an int for promotion, a float64 for its value.
  static Scalar weak_big_int(double v) {
    Scalar s(v);
    s.weak_ = true;
    s.big_int_ = true;
    return s;
  }
  bool is_big_int() const { return big_int_; }
  /// The kind this value promotes as (a big Python int is an int).
  DKind kind() const { return big_int_ ? DKind::Int : dtype_kind(dtype_); }
  /// Reads one element of type `t` from `ptr`.
  static Scalar from_bytes(DType t, const void* ptr);
  /// Writes this value converted to `t` into `ptr` (itemsize(t) bytes).
  void to_bytes(DType t, void* ptr) const;
  /// This value converted to `t` (a strong scalar).
  Scalar cast(DType t) const;

  DType dtype() const { return dtype_; }
  bool is_weak() const { return weak_; }
  bool as_bool() const;
  int64_t as_int() const;
  uint64_t as_uint() const;
  double as_double() const;
  std::complex<double> as_complex() const;
  /// True when an integer value fits `t` (for Python ints mixed with int arrays).
  bool fits(DType t) const;
  std::string to_string() const;

 private:
  DType dtype_;
  bool weak_ = false;
  bool big_int_ = false;
  union {
    int64_t i;
    uint64_t u;
    double f;
    double c[2];
  } v_;
};

}  // namespace tessera
