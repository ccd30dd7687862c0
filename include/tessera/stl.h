// STL-like algorithms over tessera arrays: parallel loops without writing a task.
//
// Each call is a task launch (tessera/task.h) over whole arrays: the runtime cuts them into
// tiles, runs the tiles on its workers (and, under mpirun, on every rank) and orders the
// call after whatever it depends on. fill, for_each, transform and stencil return at once
// (the work is deferred); reduce and transform_reduce return the value, so they wait — a
// sync point. The element type is a template argument, checked against the array's dtype
// (TypeError); arrays of any number of dimensions.
//
//   tessera::stl::transform<double>(x, y, [](double v) { return 2 * v + 1; });
//   double norm2 = tessera::stl::transform_reduce<double>(a, b, 0.0, std::plus<>(),
//                                                         [](double u, double v) { return (u - v) * (u - v); });
//   tessera::stl::stencil<double>(p, pn, 1, [](const auto& nb) {   // a Jacobi sweep
//     return 0.25 * (nb(-1, 0) + nb(1, 0) + nb(0, -1) + nb(0, 1));
//   });
//
// Functions are copied into the task: what they capture by reference must outlive the work
// (until a fence or a sync point).
#pragma once

#include <cstdint>
#include <cstring>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "tessera/task.h"

namespace tessera::stl {

/// An element's index in the whole array (one entry per axis).
class Index {
 public:
  Index(const int64_t* v, int n) : v_(v), n_(n) {}
  int ndim() const { return n_; }
  int64_t operator[](int d) const { return v_[d]; }

 private:
  const int64_t* v_;
  int n_;
};

/// What a stencil's function sees: the input around one point of the output.
template <class T>
class Neighbourhood {
 public:
  /// The input at `offsets` from the centre, one per axis (each within the halo):
  /// nb(0, 0) is the centre, nb(-1, 0) its neighbour above.
  template <class... I>
  const T& operator()(I... offsets) const {
    if (static_cast<int>(sizeof...(I)) != nd_) bad_rank(static_cast<int>(sizeof...(I)));
    int64_t off = 0;
    [[maybe_unused]] int d = 0;
    ((off += static_cast<int64_t>(offsets) * strides_[d++]), ...);
    return centre_[off];
  }
  /// The centre's index in the whole array.
  Index index() const { return Index(index_, nd_); }
  int ndim() const { return nd_; }

  Neighbourhood(const int64_t* strides, const int64_t* index, int nd) : strides_(strides), index_(index), nd_(nd) {}
  void at(const T* centre) { centre_ = centre; }

 private:
  [[noreturn]] void bad_rank(int given) const;
  const T* centre_ = nullptr;
  const int64_t* strides_;
  const int64_t* index_;
  int nd_;
};

namespace detail {

/// TypeError unless `a` (an argument of `fn`) has dtype `t`.
void require_dtype(const char* fn, const ndarray& a, DType t);
/// ValueError unless `a` and `b` (arguments of `fn`) have one shape.
void require_same_shape(const char* fn, const ndarray& a, const ndarray& b);
[[noreturn]] void bad_neighbourhood_rank(int given, int ndim);
/// The halo of a stencil from `src` to `dst`, checked: arrays of one shape that do not
/// share storage, one non-negative extent per axis.
Shape stencil_halo(const ndarray& src, const ndarray& dst, const Shape& halo);
/// `out` without its frame of width `halo`: the elements a stencil writes.
ndarray interior(const ndarray& out, const Shape& halo);
/// Combines the partials a reduction's points bound (`size` bytes each, in point order) by
/// the fixed tree of every deterministic reduction (the combine stage of the runtime) into
/// `out`, `join(ctx, acc, x)` making acc = acc (op) x; false when no point bound one.
bool combine_partials(const ndarray& bytes, size_t size, void* out, void (*join)(void* ctx, void* acc, const void* x),
                      void* ctx);

template <class T>
T* typed(const Tile& t) {
  return static_cast<T*>(t.data());
}
inline int64_t offset_of(const Tile& t, const int64_t* local) {
  int64_t off = 0;
  for (int d = 0; d < t.ndim(); ++d) off += local[d] * t.strides()[d];
  return off;
}
inline int64_t last_stride(const Tile& t) { return t.ndim() == 0 ? 0 : t.strides().back(); }

/// Calls run(local, n) for each run of `n` elements along the tile's last axis, `local`
/// being the run's first element counted from the tile's start, in C order.
template <class Run>
void for_each_run(const Tile& t, Run&& run) {
  if (t.size() == 0) return;
  const int nd = t.ndim();
  if (nd == 0) {
    const int64_t none = 0;
    run(&none, int64_t{1});
    return;
  }
  std::vector<int64_t> idx(static_cast<size_t>(nd), 0);
  const int64_t n = t.extents()[nd - 1];
  while (true) {
    run(static_cast<const int64_t*>(idx.data()), n);
    int d = nd - 2;
    while (d >= 0 && ++idx[d] == t.extents()[d]) idx[d--] = 0;
    if (d < 0) return;
  }
}

/// The global index of `local` in tile `t`, plus `shift` (may be null).
inline void global_index(const Tile& t, const int64_t* local, const int64_t* shift, std::vector<int64_t>& out) {
  out.resize(static_cast<size_t>(t.ndim()));
  for (int d = 0; d < t.ndim(); ++d) out[d] = t.lo()[d] + local[d] + (shift ? shift[d] : 0);
}

/// Reduces one tile (or two aligned ones) to a partial and binds it as unbound output
/// `slot`, as raw bytes; a point with an empty tile binds nothing.
template <class U>
void bind_partial(TaskContext& ctx, size_t slot, const U& value) {
  std::memcpy(ctx.bind_output(slot, static_cast<int64_t>(sizeof(U))), &value, sizeof(U));
}

/// init (op) tree(p0, p1, ...): the partials of a launch combined by the reductions' fixed
/// tree, after init.
template <class U, class Op>
U combine_partials(const ndarray& bytes, U init, Op& op) {
  auto join = [](void* ctx, void* acc, const void* x) {
    U a, b;
    std::memcpy(&a, acc, sizeof(U));
    std::memcpy(&b, x, sizeof(U));
    a = static_cast<U>((*static_cast<Op*>(ctx))(std::move(a), std::move(b)));
    std::memcpy(acc, &a, sizeof(U));
  };
  U tree{};
  if (!combine_partials(bytes, sizeof(U), &tree, join, &op)) return init;
  return static_cast<U>(op(std::move(init), std::move(tree)));
}

}  // namespace detail

template <class T>
[[noreturn]] void Neighbourhood<T>::bad_rank(int given) const {
  detail::bad_neighbourhood_rank(given, nd_);
}

/// a[...] = value.
template <class T>
void fill(const ndarray& a, T value) {
  detail::require_dtype("stl::fill", a, dtype_of<T>::value);
  launch(Task::unregistered("stl::fill",
                            [value](TaskContext& ctx) {
                              const Tile& t = ctx.array(0);
                              T* base = detail::typed<T>(t);
                              const int64_t s = detail::last_stride(t);
                              detail::for_each_run(t, [&](const int64_t* l, int64_t n) {
                                T* p = base + detail::offset_of(t, l);
                                for (int64_t k = 0; k < n; ++k) p[k * s] = value;
                              });
                            }),
         {tessera::out(a)});
}

/// f(x) for every element x (a T&) of a, or f(x, index) with its Index in the array.
template <class T, class F>
void for_each(const ndarray& a, F f) {
  static_assert(std::is_invocable_v<F&, T&> || std::is_invocable_v<F&, T&, const Index&>,
                "for_each: f(T&) or f(T&, const Index&)");
  detail::require_dtype("stl::for_each", a, dtype_of<T>::value);
  launch(Task::unregistered("stl::for_each",
                            [f](TaskContext& ctx) mutable {
                              const Tile& t = ctx.array(0);
                              T* base = detail::typed<T>(t);
                              const int64_t s = detail::last_stride(t);
                              std::vector<int64_t> gi;
                              detail::for_each_run(t, [&](const int64_t* l, int64_t n) {
                                T* p = base + detail::offset_of(t, l);
                                if constexpr (std::is_invocable_v<F&, T&, const Index&>) {
                                  detail::global_index(t, l, nullptr, gi);
                                  const Index idx(gi.data(), t.ndim());
                                  for (int64_t k = 0; k < n; ++k) {
                                    f(p[k * s], idx);
                                    if (!gi.empty()) ++gi.back();
                                  }
                                } else {
                                  for (int64_t k = 0; k < n; ++k) f(p[k * s]);
                                }
                              });
                            }),
         {tessera::inout(a)});
}

/// dst[i] = f(src[i]) for arrays of one shape (src may be dst).
template <class T, class R = T, class F>
void transform(const ndarray& src, const ndarray& dst, F f) {
  detail::require_dtype("stl::transform", src, dtype_of<T>::value);
  detail::require_dtype("stl::transform", dst, dtype_of<R>::value);
  detail::require_same_shape("stl::transform", src, dst);
  launch(Task::unregistered("stl::transform",
                            [f](TaskContext& ctx) mutable {
                              const Tile &o = ctx.array(0), &i = ctx.array(1);
                              R* ob = detail::typed<R>(o);
                              const T* ib = detail::typed<const T>(i);
                              const int64_t so = detail::last_stride(o), si = detail::last_stride(i);
                              detail::for_each_run(o, [&](const int64_t* l, int64_t n) {
                                R* po = ob + detail::offset_of(o, l);
                                const T* pi = ib + detail::offset_of(i, l);
                                for (int64_t k = 0; k < n; ++k) po[k * so] = static_cast<R>(f(pi[k * si]));
                              });
                            }),
         {tessera::out(dst), tessera::in(src)}, {}, {align(0, 1)});
}

/// dst[i] = f(a[i], b[i]) for arrays of one shape.
template <class T, class U = T, class R = T, class F>
void transform(const ndarray& a, const ndarray& b, const ndarray& dst, F f) {
  detail::require_dtype("stl::transform", a, dtype_of<T>::value);
  detail::require_dtype("stl::transform", b, dtype_of<U>::value);
  detail::require_dtype("stl::transform", dst, dtype_of<R>::value);
  detail::require_same_shape("stl::transform", a, dst);
  detail::require_same_shape("stl::transform", b, dst);
  launch(Task::unregistered("stl::transform",
                            [f](TaskContext& ctx) mutable {
                              const Tile &o = ctx.array(0), &x = ctx.array(1), &y = ctx.array(2);
                              R* ob = detail::typed<R>(o);
                              const T* xb = detail::typed<const T>(x);
                              const U* yb = detail::typed<const U>(y);
                              const int64_t so = detail::last_stride(o), sx = detail::last_stride(x),
                                            sy = detail::last_stride(y);
                              detail::for_each_run(o, [&](const int64_t* l, int64_t n) {
                                R* po = ob + detail::offset_of(o, l);
                                const T* px = xb + detail::offset_of(x, l);
                                const U* py = yb + detail::offset_of(y, l);
                                for (int64_t k = 0; k < n; ++k) po[k * so] = static_cast<R>(f(px[k * sx], py[k * sy]));
                              });
                            }),
         {tessera::out(dst), tessera::in(a), tessera::in(b)}, {}, {align(0, 1), align(0, 2)});
}

/// init (op) t(a[0], b[0]) (op) t(a[1], b[1]) ... for arrays of one shape, with the
/// elements grouped by tile: each tile is reduced in C order, then the tiles' partials are
/// combined by the fixed tree of every deterministic reduction (the first half of the tiles
/// and the rest each combined the same way, then the two), after init. The grouping is fixed
/// for a launch, so op need only be associative (not commutative). It follows the tiling, which depends on the arrays'
/// shape and the minimum chunk alone (never on --cpus or ranks), so a floating-point sum has the same bits on any
/// machine; it may differ from tessera::sum's, which blocks the elements otherwise. Waits for the result. U (init's
/// type) must be trivially copyable.
template <class T = void, class V = void, class U, class ReduceOp, class TransformOp>
U transform_reduce(const ndarray& a, const ndarray& b, U init, ReduceOp reduce_op, TransformOp transform_op) {
  using A = std::conditional_t<std::is_void_v<T>, U, T>;
  using B = std::conditional_t<std::is_void_v<V>, A, V>;
  static_assert(std::is_trivially_copyable_v<U>, "transform_reduce: the result type must be trivially copyable");
  detail::require_dtype("stl::transform_reduce", a, dtype_of<A>::value);
  detail::require_dtype("stl::transform_reduce", b, dtype_of<B>::value);
  detail::require_same_shape("stl::transform_reduce", a, b);
  const std::vector<ndarray> parts = launch(
      Task::unregistered("stl::transform_reduce",
                         [reduce_op, transform_op](TaskContext& ctx) mutable {
                           const Tile &x = ctx.array(0), &y = ctx.array(1);
                           if (x.size() == 0) return;
                           const A* xb = detail::typed<const A>(x);
                           const B* yb = detail::typed<const B>(y);
                           const int64_t sx = detail::last_stride(x), sy = detail::last_stride(y);
                           bool first = true;
                           U acc{};
                           detail::for_each_run(x, [&](const int64_t* l, int64_t n) {
                             const A* px = xb + detail::offset_of(x, l);
                             const B* py = yb + detail::offset_of(y, l);
                             for (int64_t k = 0; k < n; ++k) {
                               U v = static_cast<U>(transform_op(px[k * sx], py[k * sy]));
                               acc = first ? std::move(v) : static_cast<U>(reduce_op(std::move(acc), std::move(v)));
                               first = false;
                             }
                           });
                           detail::bind_partial(ctx, 2, acc);
                         }),
      {tessera::in(a), tessera::in(b), tessera::unbound(DType::UInt8)}, {}, {align(0, 1)});
  return detail::combine_partials(parts.at(0), std::move(init), reduce_op);
}

/// init (op) t(a[0]) (op) t(a[1]) ..., grouped by tile as the binary form is.
template <class T = void, class U, class ReduceOp, class TransformOp>
U transform_reduce(const ndarray& a, U init, ReduceOp reduce_op, TransformOp transform_op) {
  using A = std::conditional_t<std::is_void_v<T>, U, T>;
  static_assert(std::is_trivially_copyable_v<U>, "transform_reduce: the result type must be trivially copyable");
  detail::require_dtype("stl::transform_reduce", a, dtype_of<A>::value);
  const std::vector<ndarray> parts = launch(
      Task::unregistered("stl::transform_reduce",
                         [reduce_op, transform_op](TaskContext& ctx) mutable {
                           const Tile& x = ctx.array(0);
                           if (x.size() == 0) return;
                           const A* xb = detail::typed<const A>(x);
                           const int64_t sx = detail::last_stride(x);
                           bool first = true;
                           U acc{};
                           detail::for_each_run(x, [&](const int64_t* l, int64_t n) {
                             const A* px = xb + detail::offset_of(x, l);
                             for (int64_t k = 0; k < n; ++k) {
                               U v = static_cast<U>(transform_op(px[k * sx]));
                               acc = first ? std::move(v) : static_cast<U>(reduce_op(std::move(acc), std::move(v)));
                               first = false;
                             }
                           });
                           detail::bind_partial(ctx, 1, acc);
                         }),
      {tessera::in(a), tessera::unbound(DType::UInt8)});
  return detail::combine_partials(parts.at(0), std::move(init), reduce_op);
}

/// init (op) a[0] (op) a[1] ..., grouped by tile (see transform_reduce). Waits.
template <class T = void, class U, class Op>
U reduce(const ndarray& a, U init, Op op) {
  using A = std::conditional_t<std::is_void_v<T>, U, T>;
  return transform_reduce<A>(a, std::move(init), std::move(op), [](const A& x) { return x; });
}

/// dst[p] = f(nb) for every point p of dst's interior, nb being src's Neighbourhood around
/// p (nb(0, 0) is src[p]). Edge rule: the interior is dst without a frame of width halo[d]
/// along each axis d — the points whose whole neighbourhood lies inside src; dst's frame
/// is not written (it keeps its values: boundary conditions). src and dst have one shape
/// and must not share storage (every point reads src as it was before the call).
template <class T, class F>
void stencil(const ndarray& src, const ndarray& dst, const Shape& halo, F f) {
  detail::require_dtype("stl::stencil", src, dtype_of<T>::value);
  detail::require_dtype("stl::stencil", dst, dtype_of<T>::value);
  const Shape h = detail::stencil_halo(src, dst, halo);
  const ndarray inner = detail::interior(dst, h);
  if (inner.size() == 0) return;
  launch(Task::unregistered("stl::stencil",
                            [f, h](TaskContext& ctx) mutable {
                              const Tile &o = ctx.array(0), &i = ctx.array(1);  // i: o's box plus the halo
                              const int nd = o.ndim();
                              T* ob = detail::typed<T>(o);
                              const T* centre = detail::typed<const T>(i) + detail::offset_of(i, h.data());
                              const int64_t so = detail::last_stride(o), si = detail::last_stride(i);
                              std::vector<int64_t> gi;
                              detail::for_each_run(o, [&](const int64_t* l, int64_t n) {
                                detail::global_index(o, l, h.data(), gi);  // in dst's (and src's) indices
                                Neighbourhood<T> nb(i.strides().data(), gi.data(), nd);
                                T* po = ob + detail::offset_of(o, l);
                                const T* pc = centre + detail::offset_of(i, l);
                                for (int64_t k = 0; k < n; ++k) {
                                  nb.at(pc + k * si);
                                  po[k * so] = static_cast<T>(f(static_cast<const Neighbourhood<T>&>(nb)));
                                  if (nd > 0) ++gi.back();
                                }
                              });
                            }),
         {tessera::out(inner), tessera::in(src)}, {}, {bloat(1, 0, h, h)});
}

/// stencil with the same halo along every axis.
template <class T, class F>
void stencil(const ndarray& src, const ndarray& dst, int64_t halo, F f) {
  stencil<T>(src, dst, Shape(static_cast<size_t>(src.ndim()), halo), std::move(f));
}

}  // namespace tessera::stl
