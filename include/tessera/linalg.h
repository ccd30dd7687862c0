// Linear algebra: the products (dot, matmul, vdot, inner, outer), norms, and the
// closeness and equality tests. Products run BLAS on tiles of the result; sums
// over a vector use a fixed blocking of its index, so they do not depend on the tiling.
// Example: `ndarray c = tessera::matmul(a, b);` is `c = a @ b`.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "tessera/ndarray.h"

namespace tessera {

/// NumPy's `dot(a, b)`: a product for 0-d operands, the inner product of vectors (a 0-d array),
/// and otherwise a sum over the last axis of `a` and the second-to-last of `b`.
ndarray dot(const ndarray& a, const ndarray& b, const ndarray* out = nullptr);
/// NumPy's `matmul(a, b)` (`a @ b`): matrix products broadcast over leading (batch) axes;
/// 1-D operands are promoted to a row / column and the added axis removed afterwards.
ndarray matmul(const ndarray& a, const ndarray& b, const ndarray* out = nullptr);
/// NumPy's `vdot(a, b)`: the flattened operands' dot product, conjugating `a` (a 0-d array).
ndarray vdot(const ndarray& a, const ndarray& b);
/// NumPy's `inner(a, b)`: sums over the last axes of both operands.
ndarray inner(const ndarray& a, const ndarray& b);
/// NumPy's `outer(a, b)`: `a.ravel()[:, None] * b.ravel()[None, :]`.
ndarray outer(const ndarray& a, const ndarray& b, const ndarray* out = nullptr);

/// The `ord` of a norm: NumPy's None, a number (including ±inf), "fro" or "nuc".
struct NormOrder {
  enum class Kind { Default, Number, Fro, Nuc, Invalid };
  Kind kind = Kind::Default;
  double p = 0;
  std::string name;  // the string given, for Invalid

  static NormOrder number(double p) { return {Kind::Number, p, {}}; }
  static NormOrder fro() { return {Kind::Fro, 0, {}}; }
  static NormOrder nuc() { return {Kind::Nuc, 0, {}}; }
  /// From a string: "fro"/"f", "nuc", anything else is invalid (a ValueError when used).
  static NormOrder named(const std::string& s);
};

/// NumPy's `linalg.norm(x, ord, axis, keepdims)`: vector norms over one axis, matrix norms over
/// two, and the 2-norm of the flattened array by default. Example: `norm(a, NormOrder::fro())`.
ndarray norm(const ndarray& x, const NormOrder& ord = {}, const std::optional<std::vector<int64_t>>& axis = std::nullopt,
             bool keepdims = false);

/// NumPy's `isclose(a, b, rtol, atol, equal_nan)`: |a - b| <= atol + rtol * |b|, element-wise.
ndarray isclose(const Operand& a, const Operand& b, const Operand& rtol = 1e-5, const Operand& atol = 1e-8,
                bool equal_nan = false);
/// NumPy's `allclose`: whether `isclose` holds everywhere (waits for the values).
bool allclose(const Operand& a, const Operand& b, const Operand& rtol = 1e-5, const Operand& atol = 1e-8,
              bool equal_nan = false);
/// NumPy's `array_equal`: same shape and equal elements (waits for the values).
bool array_equal(const ndarray& a, const ndarray& b, bool equal_nan = false);
}  // namespace tessera
