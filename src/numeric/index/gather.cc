// Advanced indexing: gathers (x[key]) and scatters (x[key] = v, ufunc.at) as tasks.
//
// A key is first split into a basic view of x, in which every index array's axis is kept
// whole, and the index arrays (int64, boolean ones turned into their true positions), which
// broadcast to one shape B. The result's shape is the view's with B in place of the indexed
// axes (or in front, when they are not next to each other).
//
// A gather is one launch over the result's tiles: the index arrays are spread to the
// result's shape (zero strides), so each point reads the indices of its own tile; the view
// is read whole. A scatter is one launch over the target's tiles: each point walks every
// index in C order and applies those that land in its tile, so every element is written by
// one point, in NumPy's order — repeated indices end as in NumPy (the last wins, or every
// update counts for ufunc.at), deterministically, on any number of cpus and ranks.
#include <algorithm>
#include <cstring>

#include "data/rect.h"
#include "data/store.h"
#include "data/strided_rows.h"
#include "numeric/elementwise/ops.h"
#include "numeric/elementwise/value_checks.h"
#include "tessera/creation.h"
#include "tessera/elementwise.h"
#include "tessera/index.h"
#include "tessera/reduce.h"
#include "tessera/shape.h"
#include "tessera/task.h"

namespace tessera {
using namespace detail;

namespace {

// "(2,) (3,) ": the shapes as NumPy's shape-mismatch message lists them.
std::string shape_list(const std::vector<ndarray>& arrays) {
  std::string s;
  for (const ndarray& a : arrays) s += shape_text(a.shape(), ",") + " ";
  return s;
}

// A key split into a basic view and the index arrays over some of its axes.
struct Plan {
  ndarray view;                  // x with every index array's axis whole
  std::vector<int> axes;         // the view's axis each index array indexes
  std::vector<ndarray> index;    // int64 index arrays (not yet broadcast)
  Shape b;                       // their broadcast shape
  Shape result;                  // the shape of x[key]
  int b_start = 0;               // the result's axis where B starts
  std::vector<int> result_axis;  // per view axis not indexed: its axis in the result (-1 for indexed ones)

  bool empty_result() const {
    for (int64_t e : result)
      if (e == 0) return true;
    return false;
  }
};

// IndexError unless every element of `idx` is in [-n, n).
void check_bounds(const ndarray& idx, int64_t n, int axis) {
  if (idx.size() == 0) return;
  ndarray lo = amin(idx), hi = amax(idx);
  const int64_t l = lo.item().as_int(), h = hi.item().as_int();
  const int64_t bad = h >= n ? h : l < -n ? l : 0;
  if (h >= n || l < -n)
    throw IndexError("index " + std::to_string(bad) + " is out of bounds for axis " + std::to_string(axis) +
                     " with size " + std::to_string(n));
}

Plan plan(const ndarray& x, const std::vector<KeyItem>& key, bool checked = false) {
  int consumed = 0, ellipses = 0;
  for (const KeyItem& k : key) {
    if (const auto* a = std::get_if<ndarray>(&k)) {
      consumed += a->dtype() == DType::Bool ? a->ndim() : 1;
    } else {
      const IndexItem& i = std::get<IndexItem>(k);
      if (std::holds_alternative<int64_t>(i) || std::holds_alternative<Slice>(i)) ++consumed;
      if (std::holds_alternative<Ellipsis>(i)) ++ellipses;
    }
  }
  if (ellipses > 1) throw IndexError("an index can only have a single ellipsis ('...')");
  if (consumed > x.ndim())
    throw IndexError("too many indices for array: array is " + std::to_string(x.ndim()) + "-dimensional, but " +
                     std::to_string(consumed) + " were indexed");
  Plan p;
  std::vector<IndexItem> basic;
  std::vector<int64_t> ints;  // per index array: the Python integer it came from, or none
  std::vector<bool> is_int;
  int dim = 0, vdim = 0;  // the next axis of x and of the view
  auto add_index = [&](ndarray a, bool from_int = false) {
    p.axes.push_back(vdim);
    p.index.push_back(std::move(a));
    is_int.push_back(from_int);
  };
  for (const KeyItem& k : key) {
    if (const auto* a = std::get_if<ndarray>(&k)) {
      if (a->dtype() == DType::Bool) {
        if (a->ndim() == 0) {  // a[True] adds an axis of one, a[False] one of none
          basic.emplace_back(NewAxis{});
          const bool set = a->item().as_bool();
          add_index(set ? zeros({1}, DType::Int64) : empty({0}, DType::Int64));
          ++vdim;
          continue;
        }
        for (int d = 0; d < a->ndim(); ++d)
          if (a->shape()[d] != x.shape()[dim + d] && a->shape()[d] != 0)  // an empty axis selects nothing
            throw IndexError("boolean index did not match indexed array along axis " + std::to_string(dim + d) +
                             "; size of axis is " + std::to_string(x.shape()[dim + d]) +
                             " but size of corresponding boolean axis is " + std::to_string(a->shape()[d]));
        for (ndarray& nz : nonzero(*a)) {
          basic.emplace_back(Slice{});
          add_index(std::move(nz));
          ++vdim, ++dim;
        }
        continue;
      }
      if (!is_integer(a->dtype())) throw IndexError("arrays used as indices must be of integer (or boolean) type");
      basic.emplace_back(Slice{});
      add_index(a->dtype() == DType::Int64 ? *a : astype(*a, DType::Int64));
      ++vdim, ++dim;
      continue;
    }
    const IndexItem& i = std::get<IndexItem>(k);
    if (std::holds_alternative<Ellipsis>(i)) {
      for (int d = 0; d < x.ndim() - consumed; ++d, ++vdim, ++dim) basic.emplace_back(Slice{});
    } else if (std::holds_alternative<NewAxis>(i)) {
      basic.emplace_back(NewAxis{});
      ++vdim;
    } else if (const auto* n = std::get_if<int64_t>(&i)) {  // beside index arrays, an integer is one too
      const int64_t size = x.shape()[dim];
      if (*n < -size || *n >= size)
        throw IndexError("index " + std::to_string(*n) + " is out of bounds for axis " + std::to_string(dim) +
                         " with size " + std::to_string(size));
      basic.emplace_back(Slice{});
      add_index(full({}, Scalar(*n), DType::Int64), true);
      ++vdim, ++dim;
    } else {
      basic.push_back(i);
      ++vdim, ++dim;
    }
  }
  p.view = view(x, basic);
  std::vector<Shape> shapes;
  for (const ndarray& a : p.index) shapes.push_back(a.shape());
  try {
    p.b = broadcast_shapes(shapes);
  } catch (const ValueError&) {
    throw IndexError("shape mismatch: indexing arrays could not be broadcast together with shapes " +
                     shape_list(p.index));
  }
  for (size_t j = 0; j < p.index.size(); ++j)
    if (!is_int[j] && !checked) check_bounds(p.index[j], p.view.shape()[p.axes[j]], p.axes[j]);
  bool adjacent = true;
  for (size_t j = 1; j < p.axes.size(); ++j) adjacent = adjacent && p.axes[j] == p.axes[j - 1] + 1;
  const int nv = p.view.ndim();
  p.result_axis.assign(static_cast<size_t>(nv), -1);
  std::vector<bool> indexed(static_cast<size_t>(nv), false);
  for (int a : p.axes) indexed[a] = true;
  if (adjacent && !p.axes.empty()) {
    p.b_start = p.axes.front();
    for (int d = 0; d < p.b_start; ++d) {
      p.result.push_back(p.view.shape()[d]);
      p.result_axis[d] = d;
    }
    p.result.insert(p.result.end(), p.b.begin(), p.b.end());
    for (int d = p.axes.back() + 1; d < nv; ++d) {
      p.result_axis[d] = static_cast<int>(p.result.size());
      p.result.push_back(p.view.shape()[d]);
    }
  } else {
    p.b_start = 0;
    p.result = p.b;
    for (int d = 0; d < nv; ++d) {
      if (indexed[d]) continue;
      p.result_axis[d] = static_cast<int>(p.result.size());
      p.result.push_back(p.view.shape()[d]);
    }
  }
  return p;
}

// `a` (of a shape that broadcasts to B) as an array of shape `to`: B's axes from `b_start`,
// zero strides along the others.
ndarray spread(const ndarray& a, const Shape& b, const Shape& to, int b_start) {
  StorePtr s = a.store()->broadcast_to(b);
  for (int d = 0; d < b_start; ++d) s = s->new_axis(0);
  while (s->ndim() < static_cast<int>(to.size())) s = s->new_axis(s->ndim());
  return ndarray(s->broadcast_to(to));
}

template <int S>
struct Bytes {
  char b[S];
};

// Calls f(Bytes<itemsize>{}) so element copies are one move of the right width.
template <class F>
void by_width(int width, F&& f) {
  switch (width) {
    case 1: f(Bytes<1>{}); break;
    case 2: f(Bytes<2>{}); break;
    case 4: f(Bytes<4>{}); break;
    case 8: f(Bytes<8>{}); break;
    case 16: f(Bytes<16>{}); break;
    default: throw ValueError("advanced indexing: unsupported element size " + std::to_string(width));
  }
}

inline int64_t wrap_index(int64_t i, int64_t n) { return i < 0 ? i + n : i; }

// The gather of one point: walks the result tile row by row (the last axis innermost).
struct GatherBody {
  std::vector<int> vaxis;    // per result axis: the view axis it walks, or -1 (an axis of B)
  std::vector<int> indexed;  // per index array: the view axis it indexes

  void operator()(TaskContext& ctx) const {
    const Tile& out = ctx.array(0);
    const Tile& src = ctx.array(1);
    const int nidx = static_cast<int>(indexed.size());
    if (out.size() == 0) return;
    const int nd = out.ndim();
    const int width = itemsize(out.dtype());
    std::vector<const int64_t*> idx(static_cast<size_t>(nidx));
    for (int j = 0; j < nidx; ++j) idx[j] = static_cast<const int64_t*>(ctx.array(2 + j).data());
    by_width(width, [&](auto tag) {
      using E = decltype(tag);
      E* o = static_cast<E*>(out.data());
      const E* v = static_cast<const E*>(src.data());
      const Shape& vs = src.strides();
      const Shape& vshape = src.array_shape();
      if (nd == 0) {
        int64_t off = 0;
        for (int j = 0; j < nidx; ++j) off += wrap_index(*idx[j], vshape[indexed[j]]) * vs[indexed[j]];
        *o = v[off];
        return;
      }
      const int last = nd - 1;
      const int64_t n = out.extents()[last];
      const int64_t os = out.strides()[last];
      // The operands of the walk: the result tile, the view along the result's axes it walks
      // (stride 0 along the others), and each index array.
      Shape v_step(static_cast<size_t>(nd), 0);
      int64_t v_start = 0;
      for (int d = 0; d < last; ++d)
        if (vaxis[d] >= 0) {
          v_step[d] = vs[vaxis[d]];
          v_start += out.lo()[d] * v_step[d];
        }
      std::vector<const int64_t*> strides{out.strides().data(), v_step.data()};
      for (int j = 0; j < nidx; ++j) strides.push_back(ctx.array(2 + j).strides().data());
      StridedRows(out.extents(), std::move(strides)).for_each([&](const int64_t*, const int64_t* at) {
        const int64_t* i_off = at + 2;
        int64_t v_off = v_start + at[1];
        E* row = o + at[0];
        if (vaxis[last] >= 0) {  // indices constant along the row: one run of the view
          for (int j = 0; j < nidx; ++j) v_off += wrap_index(idx[j][i_off[j]], vshape[indexed[j]]) * vs[indexed[j]];
          const int64_t step = vs[vaxis[last]];
          const E* from = v + v_off + out.lo()[last] * step;
          if (step == 1 && os == 1) {
            std::memcpy(row, from, static_cast<size_t>(n) * sizeof(E));
          } else {
            for (int64_t k = 0; k < n; ++k) row[k * os] = from[k * step];
          }
        } else if (nidx == 1) {
          const int64_t* ip = idx[0] + i_off[0];
          const int64_t is = ctx.array(2).strides()[last], vn = vshape[indexed[0]], vst = vs[indexed[0]];
          for (int64_t k = 0; k < n; ++k) row[k * os] = v[v_off + wrap_index(ip[k * is], vn) * vst];
        } else {
          for (int64_t k = 0; k < n; ++k) {
            int64_t off = v_off;
            for (int j = 0; j < nidx; ++j)
              off += wrap_index(idx[j][i_off[j] + k * ctx.array(2 + j).strides()[last]], vshape[indexed[j]]) *
                     vs[indexed[j]];
            row[k * os] = v[off];
          }
        }
      });
    });
  }
};

// Applies one update: target element, value element.
using Apply = void (*)(char* target, const char* value);

// What a scatter does to each target element: `fn` in the target's dtype, or a ufunc's loop
// in a wider dtype: the target widened, op(target[, value]) (values are already in that
// dtype), the result cast back unsafely as NumPy's ufunc.at does. Nothing set: assignment.
struct Update {
  Apply fn = nullptr;
  bool add_float64 = false;  // fn adds float64 values: the common scatter-add (bincount) runs a typed loop
  UnaryLoop unary = nullptr;
  BinaryLoop binary = nullptr;
  CastLoop widen = nullptr, narrow = nullptr;
  CastLoop round = nullptr;  // float16's loops computed in float32: the result rounded to float16 first

  explicit operator bool() const { return fn || unary || binary; }
  void operator()(char* target, const char* value) const {
    if (fn) return fn(target, value);
    alignas(16) unsigned char wide[16], result[16];
    widen(wide, target, 0, 1);
    if (unary) unary(result, wide, 0, 1);
    else binary(result, wide, 0, value, 0, 1);
    if (round) {
      alignas(16) unsigned char half[16];
      round(half, result, 0, 1);
      narrow(target, half, 0, 1);
    } else {
      narrow(target, result, 0, 1);
    }
  }
};

template <class T>
T wrapped_add(T a, T b) {
  if constexpr (std::is_integral_v<T> && !std::is_same_v<T, bool>) {
    using U = std::make_unsigned_t<T>;
    return static_cast<T>(static_cast<U>(a) + static_cast<U>(b));
  } else {
    return a + b;
  }
}
template <class T>
T wrapped_sub(T a, T b) {
  if constexpr (std::is_integral_v<T> && !std::is_same_v<T, bool>) {
    using U = std::make_unsigned_t<T>;
    return static_cast<T>(static_cast<U>(a) - static_cast<U>(b));
  } else {
    return a - b;
  }
}
template <class T>
T wrapped_mul(T a, T b) {
  if constexpr (std::is_integral_v<T> && !std::is_same_v<T, bool>) {
    using U = std::make_unsigned_t<T>;
    using W = std::conditional_t<(sizeof(U) < sizeof(unsigned)), unsigned, U>;  // no promotion to signed int
    return static_cast<T>(static_cast<W>(static_cast<U>(a)) * static_cast<W>(static_cast<U>(b)));
  } else {
    return a * b;
  }
}

template <class T>
constexpr bool is_nan(T v) {
  if constexpr (std::is_floating_point_v<T> || std::is_same_v<T, _Float16>) return v != v;
  else return false;
}

template <class T>
Apply apply_for(UpdateOp op) {
  constexpr bool cplx = !std::is_arithmetic_v<T> && !std::is_same_v<T, _Float16>;
  constexpr bool boolean = std::is_same_v<T, bool>;
  constexpr bool integral = std::is_integral_v<T> && !boolean;
  switch (op) {
    case UpdateOp::Add:
      if constexpr (boolean)
        return [](char* t, const char* v) {
          *reinterpret_cast<T*>(t) = *reinterpret_cast<T*>(t) || *reinterpret_cast<const T*>(v);
        };
      else
        return [](char* t, const char* v) {
          *reinterpret_cast<T*>(t) = wrapped_add(*reinterpret_cast<T*>(t), *reinterpret_cast<const T*>(v));
        };
    case UpdateOp::Subtract:
      if constexpr (!boolean)
        return [](char* t, const char* v) {
          *reinterpret_cast<T*>(t) = wrapped_sub(*reinterpret_cast<T*>(t), *reinterpret_cast<const T*>(v));
        };
      break;
    case UpdateOp::Multiply:
      if constexpr (boolean)
        return [](char* t, const char* v) {
          *reinterpret_cast<T*>(t) = *reinterpret_cast<T*>(t) && *reinterpret_cast<const T*>(v);
        };
      else
        return [](char* t, const char* v) {
          *reinterpret_cast<T*>(t) = wrapped_mul(*reinterpret_cast<T*>(t), *reinterpret_cast<const T*>(v));
        };
    case UpdateOp::Divide:
      if constexpr (!boolean && !integral)
        return [](char* t, const char* v) {
          *reinterpret_cast<T*>(t) = *reinterpret_cast<T*>(t) / *reinterpret_cast<const T*>(v);
        };
      break;
    case UpdateOp::Minimum:
    case UpdateOp::FMin:
      if constexpr (!cplx) {
        if (op == UpdateOp::Minimum)
          return [](char* t, const char* v) {
            T& a = *reinterpret_cast<T*>(t);
            const T b = *reinterpret_cast<const T*>(v);
            if (is_nan(a)) return;
            if (is_nan(b) || b < a) a = b;
          };
        return [](char* t, const char* v) {
          T& a = *reinterpret_cast<T*>(t);
          const T b = *reinterpret_cast<const T*>(v);
          if (is_nan(b)) return;
          if (is_nan(a) || b < a) a = b;
        };
      }
      break;
    case UpdateOp::Maximum:
    case UpdateOp::FMax:
      if constexpr (!cplx) {
        if (op == UpdateOp::Maximum)
          return [](char* t, const char* v) {
            T& a = *reinterpret_cast<T*>(t);
            const T b = *reinterpret_cast<const T*>(v);
            if (is_nan(a)) return;
            if (is_nan(b) || b > a) a = b;
          };
        return [](char* t, const char* v) {
          T& a = *reinterpret_cast<T*>(t);
          const T b = *reinterpret_cast<const T*>(v);
          if (is_nan(b)) return;
          if (is_nan(a) || b > a) a = b;
        };
      }
      break;
    case UpdateOp::BitAnd:
      if constexpr (boolean || integral)
        return [](char* t, const char* v) {
          *reinterpret_cast<T*>(t) = static_cast<T>(*reinterpret_cast<T*>(t) & *reinterpret_cast<const T*>(v));
        };
      break;
    case UpdateOp::BitOr:
      if constexpr (boolean || integral)
        return [](char* t, const char* v) {
          *reinterpret_cast<T*>(t) = static_cast<T>(*reinterpret_cast<T*>(t) | *reinterpret_cast<const T*>(v));
        };
      break;
    case UpdateOp::BitXor:
      if constexpr (boolean || integral)
        return [](char* t, const char* v) {
          *reinterpret_cast<T*>(t) = static_cast<T>(*reinterpret_cast<T*>(t) ^ *reinterpret_cast<const T*>(v));
        };
      break;
  }
  return nullptr;
}

// The scatter of one point: every index of B in C order, applied where it lands in the tile.
struct ScatterBody {
  std::vector<int> indexed;      // per index array: the view axis it indexes
  std::vector<int> result_axis;  // per view axis not indexed: its axis in the values; -1 for indexed ones
  int b_start = 0;
  Shape b;              // the index arrays' broadcast shape
  Update apply;         // none: assignment
  int value_width = 0;  // bytes per value (the target's when 0)

  void operator()(TaskContext& ctx) const {
    const Tile& t = ctx.array(0);
    if (t.size() == 0) return;
    const int nidx = static_cast<int>(indexed.size());
    const Tile& vals = ctx.array(1 + nidx);
    const int width = itemsize(t.dtype());
    const int vwidth = value_width ? value_width : width;
    const int nb = static_cast<int>(b.size());
    int64_t nb_total = 1;
    for (int64_t e : b) nb_total *= e;
    const int nv = t.ndim();
    std::vector<int> rest;  // the tile's axes that are not indexed
    for (int d = 0; d < nv; ++d)
      if (result_axis[d] >= 0) rest.push_back(d);
    const int nr = static_cast<int>(rest.size());
    int64_t rest_total = 1;
    for (int d : rest) rest_total *= t.extents()[d];
    char* tb = static_cast<char*>(t.data());
    const char* vb = static_cast<const char*>(vals.data());
    if (nidx == 1 && nb == 1 && nr == 0) {  // one 1-D index array onto one axis: x[i] = v, ufunc.at(x, i, v)
      const Tile& ij = ctx.array(1);
      const int64_t* ip = static_cast<const int64_t*>(ij.data());
      const int ax = indexed[0];
      const int64_t is = ij.strides()[0], vs = vals.strides()[b_start], n = t.array_shape()[ax];
      const int64_t lo = t.lo()[ax], hi = t.hi()[ax], ts = t.strides()[ax];
      if (apply.add_float64) {
        double* target = reinterpret_cast<double*>(tb);
        const double* value = reinterpret_cast<const double*>(vb);
        for (int64_t k = 0; k < b[0]; ++k) {
          const int64_t a = wrap_index(ip[k * is], n);
          if (a >= lo && a < hi) target[(a - lo) * ts] += value[k * vs];
        }
      } else if (apply) {
        for (int64_t k = 0; k < b[0]; ++k) {
          const int64_t a = wrap_index(ip[k * is], n);
          if (a >= lo && a < hi) apply(tb + (a - lo) * ts * width, vb + k * vs * vwidth);
        }
      } else {
        by_width(width, [&](auto tag) {
          using E = decltype(tag);
          E* target = reinterpret_cast<E*>(tb);
          const E* value = reinterpret_cast<const E*>(vb);
          for (int64_t k = 0; k < b[0]; ++k) {
            const int64_t a = wrap_index(ip[k * is], n);
            if (a >= lo && a < hi) target[(a - lo) * ts] = value[k * vs];
          }
        });
      }
      return;
    }
    Shape bpos(static_cast<size_t>(nb), 0), rpos(static_cast<size_t>(nr), 0);
    std::vector<int64_t> at(static_cast<size_t>(nidx));
    for (int64_t flat = 0; flat < nb_total; ++flat) {
      bool inside = true;
      int64_t t_off = 0, v_off = 0;
      for (int j = 0; j < nidx && inside; ++j) {
        const Tile& ij = ctx.array(1 + j);
        int64_t off = 0;
        for (int d = 0; d < nb; ++d) off += bpos[d] * ij.strides()[d];
        const int ax = indexed[j];
        const int64_t a = wrap_index(static_cast<const int64_t*>(ij.data())[off], t.array_shape()[ax]);
        inside = a >= t.lo()[ax] && a < t.hi()[ax];
        t_off += (a - t.lo()[ax]) * t.strides()[ax];
      }
      if (inside) {
        for (int d = 0; d < nb; ++d) v_off += bpos[d] * vals.strides()[b_start + d];
        for (int64_t r = 0; r < rest_total; ++r) {
          int64_t to = t_off, vo = v_off;
          for (int k = 0; k < nr; ++k) {
            to += rpos[k] * t.strides()[rest[k]];
            vo += (t.lo()[rest[k]] + rpos[k]) * vals.strides()[result_axis[rest[k]]];
          }
          char* target = tb + to * width;
          const char* value = vb + vo * vwidth;
          if (apply) apply(target, value);
          else std::memcpy(target, value, static_cast<size_t>(width));
          int k = nr - 1;
          while (k >= 0 && ++rpos[k] == t.extents()[rest[k]]) rpos[k--] = 0;
        }
      }
      int d = nb - 1;
      while (d >= 0 && ++bpos[d] == b[d]) bpos[d--] = 0;
    }
  }
};

// `a`, or a copy when it shares storage with `x` (read while x is written, it would see the writes).
ndarray apart(const ndarray& a, const ndarray& x) { return a.shares_storage(x) ? copy(a) : a; }

void scatter(const ndarray& x, const std::vector<KeyItem>& key, const Operand& value, Update apply, const char* name,
             bool checked = false, std::optional<DType> value_dtype = std::nullopt) {
  x.store()->require_writeable();
  Plan p = plan(x, key, checked);
  const DType vt = value_dtype ? *value_dtype : x.dtype();
  ndarray vals = value.is_array() ? value.array() : full({}, value.scalar(), vt);
  if (vals.dtype() != vt) vals = astype(vals, vt);
  // NumPy's setitem: the values broadcast to the shape of x[key].
  Shape vshape;
  try {
    vshape = broadcast_shapes({vals.shape(), p.result});
  } catch (const ValueError&) {
    vshape.clear();
  }
  if (vshape != p.result) {
    std::string msg = "shape mismatch: value array of shape " + shape_text(vals.shape(), ",") +
                      " could not be broadcast to indexing result of shape " + shape_text(p.result, ",");
    throw ValueError(msg);
  }
  if (p.empty_result() || x.size() == 0) return;
  std::vector<Argument> args{inout(p.view)};
  for (const ndarray& i : p.index) args.push_back(in(ndarray(apart(i, x).store()->broadcast_to(p.b))));
  args.push_back(in(ndarray(apart(vals, x).store()->broadcast_to(p.result))));
  std::vector<Constraint> constraints;
  for (size_t j = 1; j < args.size(); ++j) constraints.push_back(broadcast(static_cast<int>(j)));
  // Every tile of x scans all the indices (and keeps those inside it), so tiles past a few
  // only add scans: x is cut in two at most along each axis. (Which tile writes an element
  // does not change what it receives: the last of its indices, in order, wins in any tile.)
  Shape halves = p.view.shape();
  for (int64_t& e : halves) e = std::max<int64_t>(1, e / 2);
  constraints.push_back(min_extents(0, std::move(halves)));
  ScatterBody body{p.axes, p.result_axis, p.b_start, p.b, apply, static_cast<int>(itemsize(vt))};
  launch(Task::unregistered(name, body), std::move(args), {}, std::move(constraints));
}

}  // namespace

ndarray index_get(const ndarray& x, const std::vector<KeyItem>& key) {
  Plan p = plan(x, key);
  ndarray result = empty(p.result, x.dtype());
  if (result.size() == 0) return result;
  std::vector<Argument> args{out(result), in(p.view)};
  std::vector<Constraint> constraints{broadcast(1)};
  for (const ndarray& i : p.index) {
    constraints.push_back(align(static_cast<int>(args.size()), 0));
    args.push_back(in(spread(i, p.b, p.result, p.b_start)));
  }
  std::vector<int> vaxis(p.result.size(), -1);
  for (int d = 0; d < p.view.ndim(); ++d)
    if (p.result_axis[d] >= 0) vaxis[p.result_axis[d]] = d;
  launch(Task::unregistered("gather", GatherBody{std::move(vaxis), p.axes}), std::move(args), {},
         std::move(constraints));
  return result;
}

void index_set(const ndarray& x, const std::vector<KeyItem>& key, const Operand& value) {
  scatter(x, key, value, Update{}, "scatter");
}

void index_update(const ndarray& x, const std::vector<KeyItem>& key, const Operand& values, UpdateOp op, bool checked) {
  Apply apply = visit_dtype(x.dtype(), [&](auto tag) { return apply_for<decltype(tag)>(op); });
  if (!apply) throw TypeError(std::string("ufunc.at: the operation is not defined for ") + dtype_name(x.dtype()));
  Update update{apply};
  update.add_float64 = op == UpdateOp::Add && x.dtype() == DType::Float64;
  scatter(x, key, values, update, "scatter_update", checked);
}

void index_apply(const ndarray& x, const std::vector<KeyItem>& key, const std::string& ufunc,
                 const std::optional<Operand>& values, DType loop) {
  Update update;
  DType result = loop;
  // float16 has no loops of its own: NumPy's compute in float32 and round once.
  for (int attempt = 0; attempt < 2 && !update; ++attempt) {
    if (attempt == 1 && loop != DType::Float16) break;
    const DType t = attempt == 0 ? loop : DType::Float32;
    if (!values) {
      for (int i = 0; i < static_cast<int>(UnaryOp::kCount) && !update.unary; ++i)
        if (ufunc == unary_name(static_cast<UnaryOp>(i)))
          update.unary = unary_loop(static_cast<UnaryOp>(i), t, &result);
    } else {
      for (int i = 0; i < static_cast<int>(BinaryOp::kCount) && !update.binary; ++i)
        if (ufunc == binary_name(static_cast<BinaryOp>(i)))
          update.binary = binary_loop(static_cast<BinaryOp>(i), t, &result);
    }
    if (update && t != loop) {
      if (result == DType::Float32) {
        update.round = cast_loop(DType::Float32, DType::Float16);
        result = DType::Float16;
      }
      loop = t;
    }
  }
  if (!update) throw TypeError("ufunc '" + ufunc + "' has no loop for " + dtype_name(loop) + " (ufunc.at)");
  update.widen = cast_loop(x.dtype(), loop);
  update.narrow = cast_loop(result, x.dtype());
  // A unary update reads no value: one 0-d value broadcast to every index.
  const Operand v = values ? *values : Operand(full({}, Scalar(int64_t{0}), loop));
  if (ufunc == "power") {
    // An empty index array updates nothing: no exponent is used.
    const bool none = std::any_of(key.begin(), key.end(), [](const KeyItem& k) {
      return std::holds_alternative<ndarray>(k) && std::get<ndarray>(k).size() == 0;
    });
    check_integer_exponent(v, loop, none ? 0 : 1);
  }
  scatter(x, key, v, update, "scatter_update", false, loop);
}

ndarray take(const ndarray& a, const ndarray& indices, std::optional<int64_t> axis, TakeMode mode) {
  ndarray src = axis ? a : ravel(a);
  const int ax = axis ? normalize_axis_index(*axis, a.ndim()) : 0;
  const int64_t n = src.shape()[ax];
  if (!is_integer(indices.dtype()))
    throw TypeError("Cannot cast array data from dtype('" + std::string(dtype_name(indices.dtype())) +
                    "') to dtype('int64') according to the rule 'same_kind'");
  ndarray idx = indices.dtype() == DType::Int64 ? indices : astype(indices, DType::Int64);
  if (mode != TakeMode::Raise && indices.size() > 0) {
    if (n == 0) throw IndexError("cannot do a non-empty take from an empty axes.");
    idx = mode == TakeMode::Wrap ? binary("remainder", idx, Scalar(n)) : clip(idx, Operand(int64_t{0}), Operand(n - 1));
  }
  std::vector<KeyItem> key;
  for (int d = 0; d < ax; ++d) key.emplace_back(IndexItem(Slice{}));
  key.emplace_back(idx);
  return index_get(src, key);
}

void put(const ndarray& a, const ndarray& indices, const ndarray& values, TakeMode mode) {
  a.store()->require_writeable();
  if (!is_integer(indices.dtype()))
    throw TypeError("Cannot cast array data from dtype('" + std::string(dtype_name(indices.dtype())) +
                    "') to dtype('int64') according to the rule 'same_kind'");
  const int64_t ni = indices.size(), n = a.size();
  if (ni == 0) return;
  if (values.size() == 0) return;  // NumPy puts nothing
  if (n == 0) throw IndexError("cannot replace in an empty array");
  ndarray idx = ravel(indices.dtype() == DType::Int64 ? indices : astype(indices, DType::Int64));
  if (mode == TakeMode::Wrap) idx = binary("remainder", idx, Scalar(n));
  else if (mode == TakeMode::Clip) idx = clip(idx, Operand(int64_t{0}), Operand(n - 1));
  // The values, flat, repeated or cut to one per index.
  ndarray v = ravel(values);
  if (v.size() != ni)
    v = take(v, arange(Scalar(int64_t{0}), Scalar(ni), Scalar(int64_t{1}), DType::Int64), 0, TakeMode::Wrap);
  if (StorePtr flat = a.store()->reshape_view(Shape{n})) {
    index_set(ndarray(flat), {KeyItem(idx)}, v);
    return;
  }
  ndarray tmp = ravel(a);  // a copy: `a` has no flat view
  index_set(tmp, {KeyItem(idx)}, v);
  assign(a, reshape(tmp, a.shape()));
}

}  // namespace tessera
