// reshape, ravel and flatten. A reshape is a view when the strides allow it (NumPy's
// attempt_nocopy_reshape, in Store::reshape_view); otherwise the data are copied into a new
// C-ordered store by one deferred element-wise copy and the result is a view of that store.
// Orders other than C work on the reversed axes: F order is C order of the transpose.
#include <algorithm>
#include <cstdlib>
#include <numeric>
#include <string>

#include "data/store.h"
#include "tessera/elementwise.h"
#include "tessera/shape.h"

namespace tessera {
namespace {

// NumPy's convert_shape_to_string: leading unknown dims are left out, later ones print as
// "newaxis" (so its messages read "into shape (5,newaxis)").
std::string requested_shape(const Shape& s) {
  size_t i = 0;
  while (i < s.size() && s[i] < 0) ++i;
  if (i == s.size()) return "()";
  std::string r = "(" + std::to_string(s[i++]);
  for (; i < s.size(); ++i) r += s[i] < 0 ? std::string(",newaxis") : "," + std::to_string(s[i]);
  return r + (s.size() == 1 ? ",)" : ")");
}

[[noreturn]] void size_mismatch(const ndarray& x, const Shape& shape) {
  throw ValueError("cannot reshape array of size " + std::to_string(x.size()) + " into shape " +
                   requested_shape(shape));
}

// Fills in the one unknown (negative) dimension and checks the element count.
Shape resolve(const ndarray& x, const Shape& shape) {
  Shape r = shape;
  int unknown = -1;
  int64_t known = 1;
  for (size_t i = 0; i < r.size(); ++i) {
    if (r[i] < 0) {
      if (unknown >= 0) throw ValueError("can only specify one unknown dimension");
      unknown = static_cast<int>(i);
    } else if (__builtin_mul_overflow(known, r[i], &known)) {
      size_mismatch(x, shape);
    }
  }
  if (unknown >= 0) {
    if (known == 0 || x.size() % known != 0) size_mismatch(x, shape);
    r[unknown] = x.size() / known;
  } else if (known != x.size()) {
    size_mismatch(x, shape);
  }
  return r;
}

bool c_contiguous(const ndarray& x) { return x.size() == 0 || x.store()->is_c_contiguous(); }
bool f_contiguous(const ndarray& x) { return c_contiguous(transpose(x)); }

// The order A stands for, for `x`.
Order resolve_a(const ndarray& x, Order order) {
  if (order != Order::A) return order;
  return f_contiguous(x) && !c_contiguous(x) ? Order::F : Order::C;
}

// A view of `x` whose C order is `x`'s traversal order `order` (C, F or K).
ndarray in_c_order(const ndarray& x, Order order) {
  if (order == Order::F) return transpose(x);
  if (order == Order::K) {
    // NumPy's sorted stride permutation: by decreasing |stride|, ties in axis order.
    std::vector<int64_t> perm(static_cast<size_t>(x.ndim()));
    std::iota(perm.begin(), perm.end(), 0);
    const Shape& st = x.store()->strides();
    std::stable_sort(perm.begin(), perm.end(), [&](int64_t a, int64_t b) { return std::abs(st[a]) > std::abs(st[b]); });
    return transpose(x, perm);
  }
  return x;
}

ndarray view_as(const ndarray& contiguous, const Shape& shape) {
  auto v = contiguous.store()->reshape_view(shape);
  TESSERA_CHECK(v != nullptr, "a C-ordered store must reshape as a view");
  return ndarray(v);
}

}  // namespace

std::optional<ndarray> reshape_view(const ndarray& x, const Shape& shape) {
  if (auto v = x.store()->reshape_view(resolve(x, shape))) return ndarray(v);
  return std::nullopt;
}

namespace {

ndarray reshape_c(const ndarray& x, const Shape& shape, std::optional<bool> want_copy) {
  if (want_copy != true)
    if (auto v = x.store()->reshape_view(shape)) return ndarray(v);
  if (want_copy == false) throw ValueError("Unable to avoid creating a copy while reshaping.");
  return view_as(copy(x), shape);
}

}  // namespace

ndarray reshape(const ndarray& x, const Shape& shape, Order order, std::optional<bool> want_copy) {
  if (order == Order::K) throw ValueError("order 'K' is not permitted for reshaping");
  const Shape r = resolve(x, shape);
  if (resolve_a(x, order) == Order::F)
    return transpose(reshape_c(transpose(x), Shape(r.rbegin(), r.rend()), want_copy));
  return reshape_c(x, r, want_copy);
}

ndarray ravel(const ndarray& x, Order order) {
  const ndarray y = in_c_order(x, resolve_a(x, order));
  // NumPy returns a view only for contiguous data, even where a strided 1-D view would do.
  if (c_contiguous(y)) return view_as(y, {y.size()});
  return view_as(copy(y), {y.size()});
}

ndarray flatten(const ndarray& x, Order order) {
  const ndarray y = in_c_order(x, resolve_a(x, order));
  return view_as(copy(y), {y.size()});
}

}  // namespace tessera
