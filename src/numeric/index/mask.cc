// Boolean-mask indexing, putmask and nonzero. `nonzero` and `x[mask]` with a mask of x's
// shape are tasks (above the tiling threshold or with several ranks): each point lists (or
// compacts) its tile, tiles are blocks of whole rows so point order is C order, and the
// parts join into one array (on ranks they stay where they were made). The launch waits:
// the result's size is what the program gets next. Other results whose size depends on the
// data are sync points (DESIGN §3): they wait for the mask, then gather or scatter on the
// program thread. A scalar written through a full-shape mask stays deferred: it is the
// element-wise `where(mask, value, x)` into x.
#include <cstring>

#include "data/store.h"
#include "data/strided_rows.h"
#include "numeric/elementwise/expression.h"
#include "numeric/index/selection.h"
#include "runtime/runtime.h"
#include "tessera/creation.h"
#include "tessera/elementwise.h"
#include "tessera/index.h"
#include "tessera/runtime.h"
#include "tessera/task.h"

namespace tessera {
using namespace detail;

namespace {

// Calls f(ptr, flat) for every element of `s` in C order (storage must be ready).
template <class F>
void for_each_element(const Store& s, F&& f) {
  const int isz = itemsize(s.dtype());
  char* base = s.base_ptr();
  int64_t flat = 0;
  StridedRows(s.shape(), {s.strides().data()}).for_each_element([&](const int64_t* off) {
    f(base + off[0] * isz, flat++);
  });
}

// The values of an array in C order on the program thread, after pending work: the array's
// own memory when it is contiguous (no copy), else a copy.
class HostValues {
 public:
  /// `written`: an array about to be modified on the host; values sharing its memory are copied.
  explicit HostValues(const ndarray& a, const ndarray* written = nullptr)
      : keep_(a), size_(static_cast<size_t>(a.size())) {
    Runtime::get().acquire(a.store());
    // The array about to be written on the host must be whole here first: every rank then
    // makes the same change to the same values.
    if (written) Runtime::get().acquire(written->store());
    const bool aliased = written && a.shares_storage(*written);
    if (!aliased && a.size() > 0 && a.store()->is_c_contiguous() && a.store()->storage()->allocated()) {
      ptr_ = a.store()->base_ptr();
    } else {
      copy_.resize(static_cast<size_t>(a.nbytes()) + 1);
      a.copy_to(copy_.data());
      ptr_ = copy_.data();
    }
  }
  const uint8_t* bytes() const { return reinterpret_cast<const uint8_t*>(ptr_); }
  size_t size() const { return size_; }
  uint8_t operator[](size_t i) const { return bytes()[i]; }

 private:
  ndarray keep_;
  size_t size_;  // elements (loops test it per element: no call into the store)
  std::vector<char> copy_;
  const char* ptr_ = nullptr;
};

ndarray as_mask(const ndarray& a) { return a.dtype() == DType::Bool ? a : astype(a, DType::Bool); }

HostValues read_mask(const ndarray& mask, const ndarray* written = nullptr) {
  return HostValues(as_mask(mask), written);
}

// Copies the elements of contiguous `src` where `m` is set to `dst` (room for `count`), in
// order, without branches: unselected elements land in a slot that is overwritten or dropped.
template <class T>
void compress(const uint8_t* m, const T* src, T* dst, int64_t n, int64_t count) {
  T spill;
  int64_t k = 0;
  for (int64_t i = 0; i < n; ++i) {
    T* slot = k < count ? dst + k : &spill;
    *slot = src[i];
    k += m[i] != 0;
  }
}

// Writes vals[k % nv] to the k-th set position of contiguous `dst`.
template <class T>
void expand(const uint8_t* m, T* dst, int64_t n, const T* vals, int64_t nv) {
  int64_t k = 0;
  if (nv == 1) {
    const T v = vals[0];
    for (int64_t i = 0; i < n; ++i)
      if (m[i]) dst[i] = v;
    return;
  }
  for (int64_t i = 0; i < n; ++i)
    if (m[i]) {
      dst[i] = vals[k];
      if (++k == nv) k = 0;
    }
}

template <class F>
bool by_size(int size, F&& f) {
  switch (size) {
    case 1: f(uint8_t{}); return true;
    case 2: f(uint16_t{}); return true;
    case 4: f(uint32_t{}); return true;
    case 8: f(uint64_t{}); return true;
    default: return false;
  }
}

// Whether `mask` has the shape of x's leading axes. An empty axis of the mask matches any
// axis of x, as in NumPy: the mask then selects nothing (false is returned).
bool check_mask_shape(const ndarray& x, const ndarray& mask) {
  if (mask.ndim() > x.ndim())
    throw IndexError("too many indices for array: array is " + std::to_string(x.ndim()) + "-dimensional, but " +
                     std::to_string(mask.ndim()) + " were indexed");
  bool same = true;
  for (int d = 0; d < mask.ndim(); ++d) {
    if (mask.shape()[d] == x.shape()[d]) continue;
    if (mask.shape()[d] != 0)
      throw IndexError("boolean index did not match indexed array along axis " + std::to_string(d) +
                       "; size of axis is " + std::to_string(x.shape()[d]) +
                       " but size of corresponding boolean axis is " + std::to_string(mask.shape()[d]));
    same = false;
  }
  return same;
}

// Element size of the trailing (unmasked) dims, in elements.
int64_t trailing(const ndarray& x, const ndarray& mask) {
  int64_t t = 1;
  for (int d = mask.ndim(); d < x.ndim(); ++d) t *= x.shape()[d];
  return t;
}

// Calls f(element, index) for every element of `tile` in C order; `index` is relative to the
// tile's start.
template <class F>
void for_each_in_tile(const Tile& tile, F&& f) {
  const int nd = tile.ndim();
  const int isz = itemsize(tile.dtype());
  const char* base = static_cast<const char*>(tile.data());
  const int64_t step = nd > 0 ? tile.strides()[nd - 1] : 0;
  Shape idx(nd, 0);
  StridedRows rows(tile.extents(), {tile.strides().data()});
  rows.for_each([&](const int64_t* pos, const int64_t* off) {
    std::copy(pos, pos + std::max(nd - 1, 0), idx.begin());
    for (int64_t j = 0; j < rows.length(); ++j) {
      if (nd > 0) idx[nd - 1] = j;
      f(base + (off[0] + j * step) * isz, static_cast<const int64_t*>(idx.data()));
    }
  });
}

// How many elements of a bool tile are set.
int64_t count_set(const Tile& m) {
  int64_t count = 0;
  if (m.ndim() == 1 && m.strides()[0] == 1) {
    const uint8_t* bytes = static_cast<const uint8_t*>(m.data());
    for (int64_t i = 0; i < m.size(); ++i) count += bytes[i] != 0;
  } else {
    for_each_in_tile(m, [&](const char* p, const int64_t*) { count += *p != 0; });
  }
  return count;
}

// Row blocks: every axis but the first whole on each point, so point order is C order.
std::vector<Constraint> row_blocks(int arg, int ndim) {
  std::vector<int> axes;
  for (int d = 1; d < ndim; ++d) axes.push_back(d);
  if (axes.empty()) return {};
  return {broadcast(arg, axes)};
}

// The coordinates of the set elements of a bool tile, one unbound int64 output per axis.
const Task nonzero_task("nonzero", [](TaskContext& ctx) {
  const Tile& m = ctx.array(0);
  const int nd = m.ndim();
  const int64_t count = count_set(m);
  const bool flat = nd == 1 && m.strides()[0] == 1;
  const uint8_t* bytes = static_cast<const uint8_t*>(m.data());
  std::vector<int64_t*> out(static_cast<size_t>(nd));
  for (int d = 0; d < nd; ++d) out[d] = static_cast<int64_t*>(ctx.bind_output(1 + d, count));
  if (count == 0) return;
  int64_t k = 0;
  if (flat) {
    const int64_t lo = m.lo()[0];
    for (int64_t i = 0; i < m.size(); ++i) {
      out[0][k] = lo + i;
      k += bytes[i] != 0;  // no branch: an unset element's slot is overwritten (or past the last)
      if (k == count) break;
    }
    return;
  }
  for_each_in_tile(m, [&](const char* p, const int64_t* idx) {
    if (!*p) return;
    for (int d = 0; d < nd; ++d) out[d][k] = m.lo()[d] + idx[d];
    ++k;
  });
});

// The elements of x's tile where the mask's (aligned) tile is set, in C order.
const Task mask_get_task("mask_get", [](TaskContext& ctx) {
  const Tile& x = ctx.array(0);
  const Tile& m = ctx.array(1);
  const int isz = itemsize(x.dtype());
  const uint8_t* mb = static_cast<const uint8_t*>(m.data());
  const bool flat = x.ndim() == 1 && x.strides()[0] == 1 && m.strides()[0] == 1;
  const int64_t count = count_set(m);
  char* dst = static_cast<char*>(ctx.bind_output(2, count));
  if (count == 0) return;
  if (flat && by_size(isz, [&](auto tag) {
        using T = decltype(tag);
        compress(mb, static_cast<const T*>(x.data()), reinterpret_cast<T*>(dst), x.size(), count);
      }))
    return;
  // Both tiles have the same extents: walk them together.
  for_each_in_tile(m, [&](const char* p, const int64_t* idx) {
    if (!*p) return;
    int64_t off = 0;
    for (int d = 0; d < x.ndim(); ++d) off += idx[d] * x.strides()[d];
    std::memcpy(dst, static_cast<const char*>(x.data()) + off * isz, static_cast<size_t>(isz));
    dst += isz;
  });
});

// An array below the tiling threshold on one rank: a task launch costs more than the loop on
// this thread.
bool small(const ndarray& x) {
  const Runtime& rt = Runtime::get();
  return rt.ranks() == 1 && x.size() < rt.min_chunk();
}

}  // namespace

int64_t count_true(const ndarray& x) {
  int64_t c = 0;
  HostValues m = read_mask(x);
  for (size_t i = 0; i < m.size(); ++i) c += m[i] != 0;
  return c;
}

namespace {
StorePtr compact(const ndarray& x, const ndarray& mask);

// x = where(mask, value, x) as one deferred element-wise operation, reading x at the very view
// it writes; `value` is a scalar or an array of x's shape.
void where_into(const char* name, const ndarray& x, const ndarray& mask, const Operand& value) {
  auto e = std::make_shared<ElementwiseOp>(name, x.store());
  const DType t = x.dtype();
  const int c = e->input_node(e->add_input(mask.store()), DType::Bool);
  const int v =
      value.is_array() ? e->input_node(e->add_input(value.array().store()), t) : e->const_node(value.scalar(), t);
  const int old = e->input_node(e->add_input(x.store()), t);
  e->where_node(c, v, old);
  Runtime::get().submit(std::move(e));
}

// `a`, or a copy of it when it is another view of x's storage (read block by block, it would
// see what the operation writing x already wrote).
ndarray apart_from(const ndarray& a, const ndarray& x) {
  return a.shares_storage(x) && !a.store()->same_view(*x.store()) ? copy(a) : a;
}
}  // namespace

ndarray mask_get(const ndarray& x, const ndarray& mask) {
  if (!check_mask_shape(x, mask)) {  // an empty mask axis: nothing selected
    Shape shape{0};
    for (int d = mask.ndim(); d < x.ndim(); ++d) shape.push_back(x.shape()[d]);
    return empty(shape, x.dtype());
  }
  // A mask of x's shape: the selection waits to be compacted (selection.h).
  if (mask.shape() == x.shape() && x.ndim() > 0) {
    auto s = std::make_shared<Selection>();
    s->values = x;
    s->mask = as_mask(mask);
    s->compact = &compact;
    s->direct = true;
    return select(std::move(s));
  }
  return ndarray(compact(x, mask));
}

namespace {
StorePtr compact(const ndarray& x, const ndarray& mask) {
  if (mask.shape() == x.shape() && x.ndim() > 0 && !small(x)) {
    std::vector<Constraint> c = row_blocks(0, x.ndim());
    c.push_back(align(0, 1));
    return launch(mask_get_task, {in(x), in(as_mask(mask)), unbound(x.dtype())}, {}, std::move(c)).at(0).store();
  }
  HostValues m = read_mask(mask);
  int64_t count = 0;
  for (size_t i = 0; i < m.size(); ++i) count += m[i] != 0;
  const int64_t t = trailing(x, mask);
  Shape shape{count};
  for (int d = mask.ndim(); d < x.ndim(); ++d) shape.push_back(x.shape()[d]);
  Runtime::get().acquire(x.store());
  ndarray out = empty(shape, x.dtype());
  const int isz = itemsize(x.dtype());
  char* dst = out.store()->storage()->data();
  if (t == 1 && x.store()->is_c_contiguous() && x.size() > 0 && by_size(isz, [&](auto tag) {
        using T = decltype(tag);
        compress(m.bytes(), reinterpret_cast<const T*>(x.store()->base_ptr()), reinterpret_cast<T*>(dst), x.size(),
                 count);
      }))
    return out.store();
  int64_t k = 0;
  for_each_element(*x.store(), [&](char* p, int64_t flat) {
    if (m[flat / t]) std::memcpy(dst + (k++) * isz, p, isz);
  });
  return out.store();
}
}  // namespace

void mask_set(const ndarray& x, const ndarray& mask, const Operand& value) {
  x.store()->require_writeable();
  if (!check_mask_shape(x, mask)) {  // an empty mask axis: nothing to assign
    const int64_t nv = value.is_array() ? value.array().size() : 1;
    if (nv > 1 && !(nv == trailing(x, mask) && value.array().ndim() >= 1))
      throw ValueError("NumPy boolean array indexing assignment cannot assign " + std::to_string(nv) +
                       " input values to the 0 output values where the mask is true");
    return;
  }
  // `x[m] = <a selection through the same mask>`: x = where(m, values, x), no compaction.
  std::shared_ptr<Selection> sel = value.is_array() ? pending_selection(value.array()) : nullptr;
  if (sel && mask.shape() == x.shape() && !mask.pending() && sel->mask.store()->same_view(*mask.store()) &&
      !is_complex(sel->values.dtype())) {
    where_into("mask_set", x, apart_from(sel->mask, x), apart_from(sel->values, x));
    return;
  }
  const bool scalar_value = !value.is_array() || value.array().size() == 1;
  if (scalar_value && mask.shape() == x.shape()) {
    if (!value.is_array()) where_into("mask_set", x, mask, value);
    else
      where_into("mask_set", x, mask, ndarray(value.array().store()->reshape_view(Shape{})->broadcast_to(x.shape())));
    return;
  }
  HostValues m = read_mask(mask, &x);
  int64_t count = 0;
  for (size_t i = 0; i < m.size(); ++i) count += m[i] != 0;
  const int64_t t = trailing(x, mask);
  const int64_t need = count * t;
  ndarray vals = !value.is_array()                    ? full({1}, value.scalar(), x.dtype())
                 : value.array().dtype() == x.dtype() ? value.array()
                                                      : astype(value.array(), x.dtype());
  const int64_t nv = vals.size();
  if (nv != need && nv != 1 && !(nv == t && vals.ndim() >= 1))
    throw ValueError("NumPy boolean array indexing assignment cannot assign " + std::to_string(nv) +
                     " input values to the " + std::to_string(need) + " output values where the mask is true");
  HostValues host(vals, &x);
  const int isz = itemsize(x.dtype());
  if (t == 1 && x.store()->is_c_contiguous() && by_size(isz, [&](auto tag) {
        using T = decltype(tag);
        expand(m.bytes(), reinterpret_cast<T*>(x.store()->base_ptr()), x.size(),
               reinterpret_cast<const T*>(host.bytes()), nv);
      }))
    return;
  int64_t k = 0;
  for_each_element(*x.store(), [&](char* p, int64_t flat) {
    if (!m[flat / t]) return;
    std::memcpy(p, host.bytes() + ((k++) % nv) * isz, isz);
  });
}

void putmask(const ndarray& x, const ndarray& mask, const Operand& values) {
  x.store()->require_writeable();
  if (mask.size() != x.size()) throw ValueError("putmask: mask and data must be the same size");
  if (!values.is_array() || values.array().size() == 1 || values.array().shape() == x.shape()) {
    ndarray m = mask.shape() == x.shape() ? mask : ndarray(mask.store()->reshape_view(x.shape()));
    if (values.is_array() && values.array().shape() == x.shape()) {
      where_into("putmask", x, m, apart_from(values.array(), x));
      return;
    }
    mask_set(x, m, values);
    return;
  }
  if (values.array().size() == 0) return;  // NumPy writes nothing from no values, whatever the mask
  HostValues m = read_mask(mask, &x);
  ndarray vals = values.array().dtype() == x.dtype() ? values.array() : astype(values.array(), x.dtype());
  const int64_t nv = vals.size();
  HostValues host(vals, &x);
  const int isz = itemsize(x.dtype());
  for_each_element(*x.store(), [&](char* p, int64_t flat) {
    if (m[flat]) std::memcpy(p, host.bytes() + (flat % nv) * isz, isz);
  });
}

std::vector<ndarray> nonzero(const ndarray& x) {
  if (x.ndim() == 0)
    throw ValueError("Calling nonzero on 0d arrays is not allowed. Use np.atleast_1d(scalar).nonzero() instead.");
  const int nd = x.ndim();
  if (!small(x)) {
    std::vector<Argument> args{in(as_mask(x))};
    for (int d = 0; d < nd; ++d) args.push_back(unbound(DType::Int64));
    return launch(nonzero_task, std::move(args), {}, row_blocks(0, nd));
  }
  HostValues m = read_mask(x);
  std::vector<std::vector<int64_t>> idx(nd);
  const int64_t len = x.shape()[nd - 1];
  size_t flat = 0;
  StridedRows(x.shape(), std::vector<const int64_t*>{}).for_each([&](const int64_t* pos, const int64_t*) {
    for (int64_t j = 0; j < len; ++j, ++flat) {
      if (!m[flat]) continue;
      for (int d = 0; d < nd - 1; ++d) idx[d].push_back(pos[d]);
      idx[nd - 1].push_back(j);
    }
  });
  std::vector<ndarray> out;
  for (int d = 0; d < nd; ++d)
    out.push_back(from_host(idx[d].data(), {static_cast<int64_t>(idx[d].size())}, DType::Int64));
  return out;
}

}  // namespace tessera
