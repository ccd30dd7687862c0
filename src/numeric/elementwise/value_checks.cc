#include "numeric/elementwise/value_checks.h"

#include <cmath>
#include <cstdint>
#include <limits>
#include <string>

#include "tessera/creation.h"
#include "tessera/elementwise.h"
#include "tessera/errors.h"
#include "tessera/index.h"
#include "tessera/reduce.h"

namespace tessera {
namespace detail {

void check_integer_exponent(const Operand& exponent, DType compute, int64_t result_size) {
  if (!is_integer(compute) || dtype_kind(compute) == DKind::UInt || result_size == 0) return;
  bool negative;
  if (!exponent.is_array()) {
    negative = exponent.scalar().cast(compute).as_int() < 0;
  } else {
    const ndarray& e = exponent.array();
    if (e.size() == 0 || e.dtype() == DType::Bool || dtype_kind(e.dtype()) == DKind::UInt) return;
    // The loop sees the exponent as `compute`: a cast that may change values (dtype=, or a
    // float exponent under casting='unsafe') is made first.
    const bool exact = can_cast(e.dtype(), compute, "safe");
    negative = amin(exact ? e : astype(e, compute)).item().cast(compute).as_int() < 0;
  }
  if (negative) throw ValueError("Integers to negative integer powers are not allowed.");
}

void check_fold_exponents(const ndarray& a, const std::vector<int64_t>& starts, bool reduceat) {
  const int64_t rows = a.shape()[0];
  if (a.size() == 0 || rows < 2 || dtype_kind(a.dtype()) != DKind::Int) return;
  if (!reduceat) {
    check_integer_exponent(view(a, {Slice{1, std::nullopt, std::nullopt}, Slice{}}), a.dtype(), a.size());
    return;
  }
  // Segment k folds rows (starts[k], end) into row starts[k]; one whose end is not past its
  // start is that row alone.
  std::vector<uint8_t> exponent(static_cast<size_t>(rows), 0);
  bool any = false;
  for (size_t k = 0; k < starts.size(); ++k) {
    const int64_t end = k + 1 < starts.size() ? starts[k + 1] : rows;
    for (int64_t r = starts[k] + 1; r < end; ++r) {
      exponent[static_cast<size_t>(r)] = 1;
      any = true;
    }
  }
  if (!any) return;
  const ndarray rows_used = from_host(exponent.data(), Shape{rows, 1}, DType::Bool);
  check_integer_exponent(where(rows_used, a, Operand(int64_t{0})), a.dtype(), a.size());
}

}  // namespace detail

namespace {
// "Python int too large to convert to C long": NumPy's setitem goes through a C long
// (unsigned long long for an unsigned dtype), which holds [-2**63, 2**63) or, unsigned,
// [-2**63, 2**64).
[[noreturn]] void too_large() { throw OverflowError("Python int too large to convert to C long"); }
}  // namespace

Scalar integer_item(const Scalar& value, DType dtype) {
  if (!is_integer(dtype) || value.kind() == DKind::Bool) return value;
  const bool is_unsigned = dtype_kind(dtype) == DKind::UInt;
  Scalar v = value;
  if (value.is_big_int()) too_large();
  if (value.is_weak() && value.kind() == DKind::Complex)
    throw TypeError("int() argument must be a string, a bytes-like object or a real number, not 'complex'");
  if (value.kind() == DKind::Float || value.kind() == DKind::Complex) {
    const double d = value.kind() == DKind::Complex ? value.as_complex().real() : value.as_double();
    if (std::isnan(d)) throw ValueError("cannot convert float NaN to integer");
    if (std::isinf(d)) throw OverflowError("cannot convert float infinity to integer");
    const double t = std::trunc(d);
    constexpr double two63 = 9223372036854775808.0;
    if (t < -two63 || t >= (is_unsigned ? 2 * two63 : two63)) too_large();
    v = t < two63 ? Scalar(static_cast<int64_t>(t)) : Scalar(static_cast<uint64_t>(t));
  } else if (!is_unsigned && dtype_kind(value.dtype()) == DKind::UInt && value.as_uint() > INT64_MAX) {
    too_large();
  }
  if (!v.fits(dtype))
    throw OverflowError("Python integer " + v.to_string() + " out of bounds for " + dtype_name(dtype));
  return Scalar::weak(v);
}

}  // namespace tessera
