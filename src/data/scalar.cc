// Scalar conversions between the storage types.
#include "tessera/scalar.h"

#include <cmath>
#include <cstdio>
#include <cstring>
#include <limits>

#include "data/convert.h"

namespace tessera {

Scalar Scalar::from_bytes(DType t, const void* ptr) {
  return visit_dtype(t, [&](auto tag) -> Scalar {
    using T = decltype(tag);
    T v;
    std::memcpy(&v, ptr, sizeof(T));
    Scalar s;
    s.dtype_ = t;
    if constexpr (std::is_same_v<T, bool>) s.v_.i = v;
    else if constexpr (std::is_integral_v<T> && std::is_signed_v<T>) s.v_.i = v;
    else if constexpr (std::is_integral_v<T>) s.v_.u = v;
    else if constexpr (detail::is_complex_v<T>) {
      s.v_.c[0] = v.real();
      s.v_.c[1] = v.imag();
    } else s.v_.f = static_cast<double>(v);
    return s;
  });
}

void Scalar::to_bytes(DType t, void* ptr) const {
  visit_dtype(dtype_, [&](auto src_tag) {
    using S = decltype(src_tag);
    S src;
    if constexpr (std::is_same_v<S, bool>) src = v_.i != 0;
    else if constexpr (std::is_integral_v<S> && std::is_signed_v<S>) src = static_cast<S>(v_.i);
    else if constexpr (std::is_integral_v<S>) src = static_cast<S>(v_.u);
    else if constexpr (detail::is_complex_v<S>) src = S(v_.c[0], v_.c[1]);
    else src = static_cast<S>(v_.f);
    visit_dtype(t, [&](auto dst_tag) {
      using D = decltype(dst_tag);
      D d = detail::convert<D>(src);
      std::memcpy(ptr, &d, sizeof(D));
    });
  });
}

Scalar Scalar::cast(DType t) const {
  alignas(16) unsigned char buf[16];
  to_bytes(t, buf);
  return from_bytes(t, buf);
}

bool Scalar::as_bool() const {
  switch (dtype_kind(dtype_)) {
    case DKind::Bool:
    case DKind::Int: return v_.i != 0;
    case DKind::UInt: return v_.u != 0;
    case DKind::Float: return v_.f != 0;
    case DKind::Complex: return v_.c[0] != 0 || v_.c[1] != 0;
  }
  return false;
}

int64_t Scalar::as_int() const {
  switch (dtype_kind(dtype_)) {
    case DKind::Bool:
    case DKind::Int: return v_.i;
    case DKind::UInt: return static_cast<int64_t>(v_.u);
    case DKind::Float: return detail::convert<int64_t>(v_.f);
    case DKind::Complex: return detail::convert<int64_t>(v_.c[0]);
  }
  return 0;
}

uint64_t Scalar::as_uint() const { return dtype_kind(dtype_) == DKind::UInt ? v_.u : static_cast<uint64_t>(as_int()); }

double Scalar::as_double() const {
  switch (dtype_kind(dtype_)) {
    case DKind::Bool:
    case DKind::Int: return static_cast<double>(v_.i);
    case DKind::UInt: return static_cast<double>(v_.u);
    case DKind::Float: return v_.f;
    case DKind::Complex: return v_.c[0];
  }
  return 0;
}

std::complex<double> Scalar::as_complex() const {
  if (is_complex(dtype_)) return {v_.c[0], v_.c[1]};
  return {as_double(), 0.0};
}

bool Scalar::fits(DType t) const {
  if (big_int_) return !is_integer(t);
  if (!is_integer(dtype_) && dtype_ != DType::Bool) return true;
  if (!is_integer(t)) return true;
  const bool neg = dtype_kind(dtype_) != DKind::UInt && v_.i < 0;
  return visit_dtype(t, [&](auto tag) {
    using T = decltype(tag);
    if constexpr (std::is_integral_v<T> && !std::is_same_v<T, bool>) {
      if (neg) return std::is_signed_v<T> && v_.i >= static_cast<int64_t>(std::numeric_limits<T>::min());
      uint64_t u = dtype_kind(dtype_) == DKind::UInt ? v_.u : static_cast<uint64_t>(v_.i);
      return u <= static_cast<uint64_t>(std::numeric_limits<T>::max());
    } else {
      return true;
    }
  });
}

std::string Scalar::to_string() const {
  if (big_int_) {
    char buf[64];
    std::snprintf(buf, sizeof buf, "%.0f", v_.f);
    return buf;
  }
  switch (dtype_kind(dtype_)) {
    case DKind::Bool: return v_.i ? "True" : "False";
    case DKind::Int: return std::to_string(v_.i);
    case DKind::UInt: return std::to_string(v_.u);
    case DKind::Float: return std::to_string(v_.f);
    case DKind::Complex: return "(" + std::to_string(v_.c[0]) + "+" + std::to_string(v_.c[1]) + "j)";
  }
  return "?";
}

}  // namespace tessera
