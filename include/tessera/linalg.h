// Linear algebra: the products (dot, matmul, vdot, inner, outer), norms, the closeness
// and equality tests, and numpy.linalg's factorizations and solvers. Products run BLAS on
// tiles of the result; sums over a vector use a fixed blocking of its index, so they do
// not depend on the tiling. Factorizations call LAPACK on every matrix of a stack
// (..., M, N), tiled over the stack only; like NumPy they compute in float64 / complex128
// and return float32 / complex64 for single-precision inputs.
// Example: `ndarray c = tessera::matmul(a, b);` is `c = a @ b`;
// `ndarray x = tessera::solve(a, b);` solves a · x = b (LinAlgError for a singular a).
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <utility>
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
ndarray norm(const ndarray& x, const NormOrder& ord = {},
             const std::optional<std::vector<int64_t>>& axis = std::nullopt, bool keepdims = false);

/// NumPy's `linalg.vector_norm(x, axis, keepdims, ord)`: a vector norm over one axis, several
/// (seen as one) or, without axes, the flattened array.
ndarray vector_norm(const ndarray& x, const std::optional<std::vector<int64_t>>& axis = std::nullopt,
                    bool keepdims = false, const NormOrder& ord = NormOrder::number(2));
/// NumPy's `linalg.matrix_norm(x, keepdims, ord)`: `norm` over the last two axes.
ndarray matrix_norm(const ndarray& x, bool keepdims = false, const NormOrder& ord = NormOrder::fro());

// Factorizations and solvers. Those whose success is known only once LAPACK ran (solve, inv,
// cholesky, eig, eigh, svd, lstsq and what uses them) wait for their result, so a LinAlgError
// surfaces at the call, as in NumPy; det, slogdet and qr are deferred like other operations.

/// NumPy's `linalg.solve(a, b)`: x with a · x = b for each matrix of a stack; `b` is (..., M, K),
/// or (M,) for one vector.
ndarray solve(const ndarray& a, const ndarray& b);
/// NumPy's `linalg.inv(a)`.
ndarray inv(const ndarray& a);
/// NumPy's `linalg.det(a)`.
ndarray det(const ndarray& a);
/// NumPy's `linalg.slogdet(a)`: (sign, log|det|).
std::pair<ndarray, ndarray> slogdet(const ndarray& a);
/// NumPy's `linalg.cholesky(a, upper)`: L with a = L · L^H (or U with a = U^H · U).
ndarray cholesky(const ndarray& a, bool upper = false);
/// NumPy's `linalg.qr(a, mode)`: (Q, R) for "reduced" and "complete", (R) for "r", (h, tau) for "raw".
std::vector<ndarray> qr(const ndarray& a, std::string_view mode = "reduced");
/// NumPy's `linalg.svd(a, full_matrices, compute_uv, hermitian)`: (U, S, Vh), or (S) without `compute_uv`.
std::vector<ndarray> svd(const ndarray& a, bool full_matrices = true, bool compute_uv = true, bool hermitian = false);
/// NumPy's `linalg.svdvals(x)`.
ndarray svdvals(const ndarray& x);
/// NumPy's `linalg.eig(a)`: (eigenvalues, eigenvectors); real when every eigenvalue of a real `a` is.
std::pair<ndarray, ndarray> eig(const ndarray& a);
/// NumPy's `linalg.eigvals(a)`.
ndarray eigvals(const ndarray& a);
/// NumPy's `linalg.eigh(a, UPLO)`: ascending eigenvalues and eigenvectors of the `UPLO` triangle.
std::pair<ndarray, ndarray> eigh(const ndarray& a, std::string_view uplo = "L");
/// NumPy's `linalg.eigvalsh(a, UPLO)`.
ndarray eigvalsh(const ndarray& a, std::string_view uplo = "L");

/// NumPy's `linalg.lstsq` result: solution, residuals, rank and singular values.
struct LstsqResult {
  ndarray x, residuals;
  int32_t rank = 0;
  ndarray s;
};
/// NumPy's `linalg.lstsq(a, b, rcond)`; rcond defaults to eps · max(M, N).
LstsqResult lstsq(const ndarray& a, const ndarray& b, std::optional<double> rcond = std::nullopt);
/// NumPy's `linalg.pinv(a, rcond, hermitian)`: `rcond` (broadcast over the stack) relative to the
/// largest singular value; none means max(M, N) · eps (NumPy's rtol=None).
ndarray pinv(const ndarray& a, const std::optional<Operand>& rcond = std::nullopt, bool hermitian = false);
/// NumPy's `linalg.matrix_rank(A, tol, hermitian, rtol)` (an int64 array; for fewer than two
/// dimensions, 1 unless every element is zero).
ndarray matrix_rank(const ndarray& a, const std::optional<ndarray>& tol = std::nullopt, bool hermitian = false,
                    const std::optional<ndarray>& rtol = std::nullopt);
/// NumPy's `linalg.cond(x, p)`: by singular values for the default / ±2, else norm(x) · norm(inv(x)).
ndarray cond(const ndarray& x, const NormOrder& p = {});
/// NumPy's `linalg.matrix_power(a, n)`.
ndarray matrix_power(const ndarray& a, int64_t n);
/// NumPy's `linalg.multi_dot(arrays, out)`: the chain of products in the cheapest order.
ndarray multi_dot(const std::vector<ndarray>& arrays, const ndarray* out = nullptr);
/// NumPy's `linalg.tensorsolve(a, b, axes)`.
ndarray tensorsolve(const ndarray& a, const ndarray& b, const std::optional<std::vector<int64_t>>& axes = std::nullopt);
/// NumPy's `linalg.tensorinv(a, ind)`.
ndarray tensorinv(const ndarray& a, int64_t ind = 2);

/// NumPy's `linalg.diagonal(x, offset)`: the diagonals of the last two axes (a read-only view).
ndarray diagonal(const ndarray& x, int64_t offset = 0);
/// NumPy's `linalg.trace(x, offset, dtype)`: sums of those diagonals.
ndarray trace(const ndarray& x, int64_t offset = 0, std::optional<DType> dtype = std::nullopt);
/// NumPy's `linalg.cross(x1, x2, axis)`: cross products of 3-vectors along `axis`.
ndarray cross(const ndarray& x1, const ndarray& x2, int64_t axis = -1);
/// NumPy's `vecdot(x1, x2, axis)`: Σ conj(x1) · x2 along `axis`, broadcast over the others.
ndarray vecdot(const ndarray& x1, const ndarray& x2, int64_t axis = -1);
/// NumPy's `matvec(x1, x2)`: stacked matrices (..., M, N) times stacked vectors (..., N).
ndarray matvec(const ndarray& x1, const ndarray& x2);
/// NumPy's `vecmat(x1, x2)`: stacked conjugated vectors (..., M) times matrices (..., M, N).
ndarray vecmat(const ndarray& x1, const ndarray& x2);

/// NumPy's `isclose(a, b, rtol, atol, equal_nan)`: |a - b| <= atol + rtol * |b|, element-wise.
ndarray isclose(const Operand& a, const Operand& b, const Operand& rtol = 1e-5, const Operand& atol = 1e-8,
                bool equal_nan = false);
/// NumPy's `allclose`: whether `isclose` holds everywhere (waits for the values).
bool allclose(const Operand& a, const Operand& b, const Operand& rtol = 1e-5, const Operand& atol = 1e-8,
              bool equal_nan = false);
/// NumPy's `array_equal`: same shape and equal elements (waits for the values).
bool array_equal(const ndarray& a, const ndarray& b, bool equal_nan = false);
}  // namespace tessera
