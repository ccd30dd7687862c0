// Element-wise functions (NumPy's ufuncs), assignment and casting.
// Example: `ndarray c = tessera::binary("add", a, 2.0);` is `c = a + 2.0`.
#pragma once

#include <string_view>
#include <vector>

#include "tessera/ndarray.h"

namespace tessera {

/// NumPy's result_type for the operands (Python-like scalars are weak, NEP 50).
DType result_type(const std::vector<Operand>& operands);
/// NumPy's broadcast shape of `shapes`; ValueError when they do not broadcast.
Shape broadcast_shapes(const std::vector<Shape>& shapes);

/// Applies the unary ufunc `name` (e.g. "sqrt", "negative", "isnan").
ndarray unary(std::string_view name, const Operand& x, const ndarray* out = nullptr,
              std::optional<DType> dtype = std::nullopt, std::string_view casting = "same_kind");
/// Applies the binary ufunc `name` (e.g. "add", "less", "arctan2").
ndarray binary(std::string_view name, const Operand& a, const Operand& b, const ndarray* out = nullptr,
               std::optional<DType> dtype = std::nullopt, std::string_view casting = "same_kind");
/// True when `name` is a unary (1) or binary (2) ufunc tessera implements; 0 otherwise.
int ufunc_arity(std::string_view name);

/// One ufunc of tessera's ufunc table (src/numeric/elementwise/ufuncs.def, which says what
/// each field means).
struct UfuncInfo {
  std::string_view name;                  // NumPy's name
  int nin = 1;                            // 1 or 2
  std::vector<std::string_view> aliases;  // NumPy's other names for it
  bool python = false;                    // a Python module function and tessera.numpy ufunc
  bool reorderable = false;               // commutative and associative
  bool fold = false;                      // reduce, accumulate, reduceat by ufunc_fold
  bool half_in_float = false;             // float16 folds in float32
  bool at = false;                        // ufunc.at as an in-place scatter update
  std::string_view identity;              // y with x op y == x, as Python reads it; "" for none
  std::string_view reduce;                // the native reduction ("sum"), "" for none
  bool reduce_dtype = false;              // ... takes dtype=
  bool reduce_initial = false;            // ... takes initial=
  std::string_view accumulate;            // the native accumulation ("cumsum"), "" for none
};
/// Every ufunc of the table, the unary ones first, in the table's order.
const std::vector<UfuncInfo>& ufuncs();

/// `where(cond, x, y)`: elements of x where cond is true, else of y.
ndarray where(const Operand& cond, const Operand& x, const Operand& y);
/// `clip(x, lo, hi)`; either bound may be absent, and with neither the result is a copy of `x`.
ndarray clip(const Operand& x, std::optional<Operand> lo, std::optional<Operand> hi, const ndarray* out = nullptr);
/// `dst[...] = src` with broadcasting and unsafe casting (NumPy's setitem).
void assign(const ndarray& dst, const Operand& src);
/// `value` as NumPy's setitem converts a Python number into the integer `dtype`, int(value):
/// ValueError for NaN, OverflowError for an infinity or a value beyond `dtype` (or beyond
/// a C long), TypeError for a Python complex; a float is truncated. Other dtypes and bools
/// take `value` as it is.
/// Example: `integer_item(Scalar(300.5), DType::Int8)` throws "Python integer 300 out of
/// bounds for int8".
Scalar integer_item(const Scalar& value, DType dtype);
/// A new array with `x`'s values converted to `dtype`; TypeError when `casting` ("no",
/// "equiv", "safe", "same_kind" or "unsafe") does not allow the conversion.
ndarray astype(const ndarray& x, DType dtype, std::string_view casting = "unsafe");
/// A new C-ordered array with `x`'s values.
ndarray copy(const ndarray& x);

inline ndarray operator+(const ndarray& a, const Operand& b) { return binary("add", a, b); }
inline ndarray operator-(const ndarray& a, const Operand& b) { return binary("subtract", a, b); }
inline ndarray operator*(const ndarray& a, const Operand& b) { return binary("multiply", a, b); }
inline ndarray operator/(const ndarray& a, const Operand& b) { return binary("divide", a, b); }
inline ndarray operator+(double a, const ndarray& b) { return binary("add", a, b); }
inline ndarray operator-(double a, const ndarray& b) { return binary("subtract", a, b); }
inline ndarray operator*(double a, const ndarray& b) { return binary("multiply", a, b); }
inline ndarray operator/(double a, const ndarray& b) { return binary("divide", a, b); }
inline ndarray operator-(const ndarray& a) { return unary("negative", a); }
inline ndarray sqrt(const ndarray& a) { return unary("sqrt", a); }
inline ndarray exp(const ndarray& a) { return unary("exp", a); }
inline ndarray log(const ndarray& a) { return unary("log", a); }
inline ndarray abs(const ndarray& a) { return unary("absolute", a); }

}  // namespace tessera
