// The task API: how a library (or a program) adds its own parallel operation to tessera.
//
// A task is a function over the tiles of its arguments. Launched over whole arrays, it is
// deferred like every operation: the runtime partitions the arrays as the task's
// constraints say (tessera/constraint.h), orders it after whatever it depends on, runs one
// point per tile on the workers (and, under mpirun, on every rank, each running the points
// whose tiles it owns), and copies what a rank lacks. Example — y = a * x + sum(w):
//
//   tessera::Task scaled_add("scaled_add", [](tessera::TaskContext& ctx) {
//     auto y = ctx.array(0).view<double, 1>();       // this point's tile of y (writable)
//     auto x = ctx.array(1).view<const double, 1>();  // the same rows of x
//     auto w = ctx.array(2).view<const double, 1>();  // all of w (broadcast)
//     double s = 0;
//     for (int64_t i = 0; i < w.extent(0); ++i) s += w(i);
//     for (int64_t i = 0; i < y.extent(0); ++i) y(i) = ctx.scalar(0).as_double() * x(i) + s;
//   });
//   tessera::launch(scaled_add, {out(y), in(x), in(w)}, {2.0}, {align(0, 1), broadcast(2)});
//
// Arguments are numbered in the order given; constraints name them by that number.
#pragma once

#include <array>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <type_traits>
#include <typeinfo>
#include <vector>

#include "tessera/arg_view.h"
#include "tessera/constraint.h"
#include "tessera/dtype.h"
#include "tessera/errors.h"
#include "tessera/ndarray.h"
#include "tessera/processor.h"
#include "tessera/rect.h"
#include "tessera/scalar.h"

namespace tessera {

/// What a task does with an argument.
enum class Privilege : uint8_t { Read, Write, ReadWrite, Reduce };

/// A reduction operator: each point adds into a private buffer that starts at the
/// identity; after the launch the array's value and the buffers are combined by one fixed
/// pairwise tree over the points (`before (op) tree(buffers)`), the same on any machine.
struct Reduction {
  enum class Kind : uint8_t { Sum, Prod, Min, Max, Custom };
  Kind kind = Kind::Sum;
  /// Custom: fills `n` elements at `acc` with the identity.
  std::function<void(void* acc, int64_t n)> identity;
  /// Custom: acc[i] = acc[i] (op) x[i] for i < n.
  std::function<void(void* acc, const void* x, int64_t n)> fold;

  static Reduction sum() { return Reduction{Kind::Sum, nullptr, nullptr}; }
  static Reduction prod() { return Reduction{Kind::Prod, nullptr, nullptr}; }
  static Reduction min() { return Reduction{Kind::Min, nullptr, nullptr}; }
  static Reduction max() { return Reduction{Kind::Max, nullptr, nullptr}; }
  /// A reduction of elements of type T with `identity` and `op(a, b)` (associative).
  template <class T, class Op>
  static Reduction custom(T identity, Op op) {
    Reduction r{Kind::Custom, nullptr, nullptr};
    r.identity = [identity](void* acc, int64_t n) {
      for (int64_t i = 0; i < n; ++i) static_cast<T*>(acc)[i] = identity;
    };
    r.fold = [op](void* acc, const void* x, int64_t n) {
      for (int64_t i = 0; i < n; ++i)
        static_cast<T*>(acc)[i] = op(static_cast<T*>(acc)[i], static_cast<const T*>(x)[i]);
    };
    return r;
  }
};

/// A typed N-D view of a tile: element (i, j, ...) counted from the tile's first element.
template <class T, int N>
class TileView {
 public:
  TileView(T* data, const int64_t* extents, const int64_t* strides, const int64_t* lo) : data_(data) {
    for (int d = 0; d < N; ++d) {
      extents_[d] = extents[d];
      strides_[d] = strides[d];
      lo_[d] = lo[d];
    }
  }
  template <class... I>
  T& operator()(I... idx) const {
    static_assert(sizeof...(I) == N, "one index per dimension");
    int64_t off = 0;
    [[maybe_unused]] int d = 0;
    ((off += static_cast<int64_t>(idx) * strides_[d++]), ...);  // no array: N may be 0
    return data_[off];
  }
  int64_t extent(int d) const { return extents_[d]; }
  /// Where the tile starts in the whole array, along axis d.
  int64_t lo(int d) const { return lo_[d]; }
  T* data() const { return data_; }

 private:
  T* data_;
  std::array<int64_t, N> extents_{}, strides_{}, lo_{};
};

/// One argument's part on one point of a launch.
class Tile {
 public:
  DType dtype() const { return dtype_; }
  Privilege privilege() const { return privilege_; }
  int ndim() const { return static_cast<int>(lo_.size()); }
  /// The tile as a box [lo, hi) of the whole array's indices.
  const Shape& lo() const { return lo_; }
  const Shape& hi() const { return hi_; }
  Rect rect() const { return Rect(lo_, hi_); }
  /// Extents of the tile, and the distance between neighbours along each axis, in elements.
  const Shape& extents() const { return extents_; }
  const Shape& strides() const { return strides_; }
  /// The whole array's shape.
  const Shape& array_shape() const { return array_shape_; }
  int64_t size() const {
    int64_t n = 1;
    for (int64_t e : extents_) n *= e;
    return n;
  }
  /// The tile's first element (null when the tile is empty).
  void* data() const { return data_; }
  /// A typed view; TypeError when T or N do not match the argument, ValueError when a
  /// read-only argument is viewed with a non-const T.
  template <class T, int N>
  TileView<T, N> view() const {
    using V = std::remove_const_t<T>;
    if (dtype_of<V>::value != dtype_)
      throw TypeError("task argument viewed with the wrong element type (it is " + std::string(dtype_name(dtype_)) +
                      ")");
    if (N != ndim())
      throw TypeError("task argument viewed with " + std::to_string(N) + " dimensions, it has " +
                      std::to_string(ndim()));
    if (!std::is_const_v<T> && privilege_ == Privilege::Read)
      throw ValueError("a task input is read-only: view it as const");
    return TileView<T, N>(static_cast<T*>(data_), extents_.data(), strides_.data(), lo_.data());
  }

 private:
  friend class TaskContext;
  friend struct TileAccess;
  DType dtype_ = DType::Float64;
  Privilege privilege_ = Privilege::Read;
  Shape lo_, hi_, extents_, strides_, array_shape_;
  void* data_ = nullptr;
};

/// Data that every point of one launch reads by reference — a plan, a table of bounds, what
/// does not fit in scalars. The launching code makes it once; points share it, read-only.
///
///   tessera::launch(fill, {out(y)}, {}, {}, {.payload = tessera::Payload::of(std::vector<double>{...})});
///   ... in the body: const auto& table = ctx.payload<std::vector<double>>();
class Payload {
 public:
  Payload() = default;
  template <class T>
  Payload(std::shared_ptr<T> value) : value_(std::move(value)), type_(&typeid(std::remove_const_t<T>)) {}
  template <class T>
  static Payload of(T value) {
    return Payload(std::shared_ptr<const T>(std::make_shared<T>(std::move(value))));
  }
  bool empty() const { return value_ == nullptr; }
  /// The value; TypeError when the launch carries none or one of another type.
  template <class T>
  const T& as() const {
    if (!value_) throw TypeError("the launch carries no payload");
    if (*type_ != typeid(T)) throw TypeError("the launch's payload is not of the type asked for");
    return *static_cast<const T*>(value_.get());
  }

 private:
  std::shared_ptr<const void> value_;
  const std::type_info* type_ = nullptr;
};

/// What a task's body sees on one point.
class TaskContext {
 public:
  /// This point's position in the launch, and the launch's points.
  int point() const { return point_; }
  int points() const { return points_; }
  const std::string& task_name() const { return name_; }
  /// The array arguments in launch order (unbound outputs included, with no tile).
  size_t arrays() const { return tiles_.size(); }
  const Tile& array(size_t i) const { return tiles_.at(i); }
  size_t scalars() const { return scalars_.size(); }
  const Scalar& scalar(size_t i) const { return scalars_.at(i); }
  /// The launch's payload (LaunchOptions::payload) as a T.
  template <class T>
  const T& payload() const {
    return payload_.as<T>();
  }
  /// For an unbound output: `n` elements of this point's part of it (the parts are joined in
  /// point order into one 1-D array when the launch ends).
  void* bind_output(size_t i, int64_t n);

  TaskContext(std::string name, int point, int points, std::vector<Tile> tiles, std::vector<Scalar> scalars,
              std::function<void*(size_t, int64_t)> bind, Payload payload = {})
      : name_(std::move(name)),
        point_(point),
        points_(points),
        tiles_(std::move(tiles)),
        scalars_(std::move(scalars)),
        bind_(std::move(bind)),
        payload_(std::move(payload)) {}

 private:
  std::string name_;
  int point_, points_;
  std::vector<Tile> tiles_;
  std::vector<Scalar> scalars_;
  std::function<void*(size_t, int64_t)> bind_;
  Payload payload_;
};

using TaskFunction = std::function<void(TaskContext&)>;

/// One implementation of a task, for the processors of one kind.
struct TaskVariant {
  ProcessorKind kind;
  TaskFunction body;
};

namespace detail {
struct TaskVariants;
}

/// A task: a name (shown in profiles and errors) and its variants, one per processor kind.
/// Registered once; a Task object is a cheap handle. Example — a task with a variant for
/// cpus and one for GPUs (a launch picks the one for the processor each point runs on):
///
///   tessera::Task t("scale", {{tessera::ProcessorKind::CPU, scale_on_cpu},
///                             {tessera::ProcessorKind::GPU, scale_on_gpu}});
class Task {
 public:
  /// A task with a cpu variant only.
  Task(std::string name, TaskFunction cpu);
  /// A task with the given variants: at least one, at most one per kind, none empty
  /// (ValueError otherwise).
  Task(std::string name, std::vector<TaskVariant> variants);
  /// A task that is not registered: it lives as long as its handles and the launches that
  /// use it. For code that makes a body per call (tessera/stl.h), which would otherwise
  /// fill the registry.
  static Task unregistered(std::string name, TaskFunction cpu);
  static Task unregistered(std::string name, std::vector<TaskVariant> variants);
  const std::string& name() const;
  /// The registry's id (-1 for an unregistered task).
  int id() const { return id_; }
  /// Whether the task has a variant for processors of `kind`.
  bool has_variant(ProcessorKind kind) const;
  /// The task's variants (what a launch runs).
  const std::shared_ptr<const detail::TaskVariants>& variants() const { return variants_; }

 private:
  Task() = default;
  int id_ = -1;
  std::shared_ptr<const detail::TaskVariants> variants_;
};

/// One argument of a launch.
struct Argument {
  ndarray array;
  Privilege privilege = Privilege::Read;
  Reduction reduction;
  bool unbound = false;
  DType unbound_dtype = DType::Float64;
  /// How the constraints see the array (the array itself by default): see viewed().
  ArgView view;
  /// An index space: no data, only `view`'s shape (see space()).
  bool space = false;
};
inline Argument in(const ndarray& a) { return Argument{a, Privilege::Read, {}, false, DType::Float64}; }
inline Argument out(const ndarray& a) { return Argument{a, Privilege::Write, {}, false, DType::Float64}; }
inline Argument inout(const ndarray& a) { return Argument{a, Privilege::ReadWrite, {}, false, DType::Float64}; }
inline Argument reduce(const ndarray& a, Reduction r = Reduction::sum()) {
  return Argument{a, Privilege::Reduce, std::move(r), false, DType::Float64};
}
/// An output whose size only the task knows (each point binds its part: nonzero, filtering).
inline Argument unbound(DType t) { return Argument{ndarray(), Privilege::Write, {}, true, t}; }
/// `a` as its constraints see it: through `view`, built from the array's shape
/// (tessera/arg_view.h). A matrix product's C, promoted along K, aligns with A and B seen
/// as (M, N, K) boxes; the point's tile of the array is the box its view tile touches.
inline Argument viewed(Argument a, ArgView view) {
  a.view = std::move(view);
  return a;
}
/// An index space of `shape`: an argument with no data that others can follow (the grid of
/// blocks a launch runs over). Its tile on a point has lo()/hi() and no data.
inline Argument space(Shape shape) {
  Argument a{ndarray(), Privilege::Read, {}, false, DType::Float64};
  a.view = ArgView(std::move(shape));
  a.space = true;
  return a;
}

/// What a launch may say beyond its arguments and constraints.
struct LaunchOptions {
  /// The name profiles and errors show (the task's name when empty): one task can serve
  /// several calls ("normal" and "uniform" drawn by one task).
  std::string name;
  /// Work per element of the launch (1: a pass over memory). A costlier task is cut into
  /// tiles from fewer elements each (tessera/constraint.h's min_extents still applies).
  int64_t weight = 1;
  /// Data every point reads by reference.
  Payload payload;
  /// Points the launch names itself instead of a partition: points[p][i] is the box of
  /// argument i (in its view's index space) that point p touches — what the runtime orders
  /// points by, within the launch and with every other launch, and copies between ranks.
  /// The boxes of one argument may overlap when it is only read. With points, the launch
  /// takes no constraints and no reduction arguments (ValueError).
  std::vector<std::vector<Rect>> points;
  /// The bytes a point reads and writes, from its boxes (one per argument, in its view's
  /// index space): what profiles show as the launch's GB/s. For a task that reads part of an
  /// argument's box (half of a symmetric matrix); empty: each argument the point touches,
  /// whole, once per direction.
  std::function<int64_t(const std::vector<Rect>& boxes)> traffic;
};

/// out = the partial results in the rows of `partials` (shape [pieces, out's shape...], out's
/// dtype) combined by `reduction`'s operator over one fixed pairwise tree — the first half of
/// the rows and the rest each combined the same way, then the two halves — the combine stage
/// every deterministic reduction of tessera uses. Pieces a library cuts by the data (blocks of
/// a fixed length, one row per tile) then give the same bits on any number of cpus or ranks.
/// Deferred like a launch; ValueError for mismatched shapes or dtypes.
void combine(const ndarray& out, const ndarray& partials, Reduction reduction, const std::string& name = "combine");

/// A new array for a launch to write: its memory is allocated when the first launch that
/// writes it runs (memory reports name that launch and the program line that made it). Reading
/// it before anything wrote it raises ValueError ("never computed"). ValueError for a
/// negative extent.
ndarray new_array(const Shape& shape, DType dtype);

/// Launches `task` over whole arrays with `scalars` and `constraints` (naming arguments by
/// position). Returns at once, unless the launch has unbound outputs: then it waits for the
/// task and returns them, in argument order (their size is known only then).
std::vector<ndarray> launch(const Task& task, std::vector<Argument> args, std::vector<Scalar> scalars = {},
                            std::vector<Constraint> constraints = {}, LaunchOptions options = {});

}  // namespace tessera
