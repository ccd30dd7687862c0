// The parts of tessera/stl.h that do not depend on the element type: argument checks, a
// stencil's interior, combining a reduction's partials (read back to the host, where the
// value is returned) by the combine stage's tree (task/combine.h).
#include "tessera/stl.h"

#include "task/combine.h"
#include "tessera/index.h"

namespace tessera::stl::detail {
namespace {

std::string shape_text(const Shape& s) {
  std::string t = "(";
  for (size_t i = 0; i < s.size(); ++i) t += (i ? ", " : "") + std::to_string(s[i]);
  return t + (s.size() == 1 ? ",)" : ")");
}

void require_array(const char* fn, const ndarray& a) {
  if (!a.valid()) throw ValueError(std::string(fn) + ": an argument is not an array");
}

}  // namespace

void require_dtype(const char* fn, const ndarray& a, DType t) {
  require_array(fn, a);
  if (a.dtype() != t)
    throw TypeError(std::string(fn) + ": the array's dtype is " + dtype_name(a.dtype()) +
                    ", the element type given is " + dtype_name(t));
}

void require_same_shape(const char* fn, const ndarray& a, const ndarray& b) {
  require_array(fn, a);
  require_array(fn, b);
  if (a.shape() != b.shape())
    throw ValueError(std::string(fn) + ": the arrays need one shape, not " + shape_text(a.shape()) + " and " +
                     shape_text(b.shape()));
}

void bad_neighbourhood_rank(int given, int ndim) {
  throw IndexError("stl::stencil: a neighbour of a " + std::to_string(ndim) + "-d array needs " + std::to_string(ndim) +
                   " offsets, not " + std::to_string(given));
}

Shape stencil_halo(const ndarray& src, const ndarray& dst, const Shape& halo) {
  require_same_shape("stl::stencil", src, dst);
  if (src.shares_storage(dst))
    throw ValueError("stl::stencil: the input and the output share memory; give the output its own array");
  if (static_cast<int>(halo.size()) != src.ndim())
    throw ValueError("stl::stencil: the halo needs one extent per axis (" + std::to_string(src.ndim()) + "), not " +
                     std::to_string(halo.size()));
  for (int64_t h : halo)
    if (h < 0) throw ValueError("stl::stencil: halo extents must be non-negative");
  return halo;
}

ndarray interior(const ndarray& out, const Shape& halo) {
  std::vector<IndexItem> key;
  for (size_t d = 0; d < halo.size(); ++d) {
    const int64_t n = out.shape()[d];
    const int64_t lo = std::min(halo[d], n), hi = std::max(lo, n - halo[d]);
    key.emplace_back(Slice{lo, hi, std::nullopt});
  }
  return view(out, key);
}

bool combine_partials(const ndarray& bytes, size_t size, void* out, void (*join)(void* ctx, void* acc, const void* x),
                      void* ctx) {
  const std::vector<uint8_t> raw = bytes.to_vector<uint8_t>();
  const int64_t pieces = static_cast<int64_t>(raw.size() / size);
  if (pieces == 0) return false;
  tessera::detail::Combiner c;
  c.itemsize = static_cast<int>(size);
  c.fold = [join, ctx, size](void* acc, const void* x, int64_t n) {
    for (int64_t i = 0; i < n; ++i)
      join(ctx, static_cast<char*>(acc) + i * size, static_cast<const char*>(x) + i * size);
  };
  std::vector<char> value(size);
  tessera::detail::combine_pieces(c, value.data(), nullptr, reinterpret_cast<const char*>(raw.data()),
                                  static_cast<int64_t>(size), nullptr, 0, pieces, 1);
  std::memcpy(out, value.data(), size);
  return true;
}

}  // namespace tessera::stl::detail
