// isclose, allclose and array_equal: element-wise expressions (fused by the window)
// followed, for the last two, by a deterministic `all` over the flattened result.
#include "numeric/linalg/block_reduce.h"
#include "numeric/linalg/views.h"
#include "tessera/elementwise.h"
#include "tessera/linalg.h"

namespace tessera {
using namespace detail;

namespace {

// NumPy makes `b` inexact first (abs of the most negative integer would overflow).
Operand inexact_operand(const Operand& b) {
  if (b.is_array()) {
    const DType t = result_type({b, Operand(1.0)});
    return t == b.dtype() ? b : Operand(astype(b.array(), t));
  }
  const Scalar& s = b.scalar();
  if (is_inexact(s.dtype())) return b;
  if (s.is_weak()) return Operand(Scalar::weak(Scalar(s.as_double())));
  return Operand(s.cast(result_type({b, Operand(1.0)})));
}

bool all_of(const ndarray& mask) { return vector_all(flatten_view(mask)).item().as_bool(); }

}  // namespace

ndarray isclose(const Operand& a, const Operand& b, const Operand& rtol, const Operand& atol, bool equal_nan) {
  const Operand y = inexact_operand(b);
  const ndarray diff = abs(binary("subtract", a, y));
  const ndarray tol = binary("add", atol, binary("multiply", rtol, unary("absolute", y)));
  ndarray r = binary("bitwise_or", binary("bitwise_and", binary("less_equal", diff, tol), unary("isfinite", y)),
                     binary("equal", a, y));
  if (equal_nan) r = binary("bitwise_or", r, binary("bitwise_and", unary("isnan", a), unary("isnan", y)));
  return r;
}

bool allclose(const Operand& a, const Operand& b, const Operand& rtol, const Operand& atol, bool equal_nan) {
  return all_of(isclose(a, b, rtol, atol, equal_nan));
}

bool array_equal(const ndarray& a, const ndarray& b, bool equal_nan) {
  if (a.shape() != b.shape()) return false;
  ndarray eq = binary("equal", a, b);
  if (equal_nan && (is_inexact(a.dtype()) || is_inexact(b.dtype())))
    eq = binary("bitwise_or", eq, binary("bitwise_and", unary("isnan", a), unary("isnan", b)));
  return all_of(eq);
}

}  // namespace tessera
