// Creation routines as element-wise operations: fills are constant
// expressions, ranges and identity matrices are expressions of the index.
#include "tessera/creation.h"

#include <climits>
#include <cmath>
#include <cstring>

#include "data/store.h"
#include "numeric/elementwise/expression.h"
#include "numeric/elementwise/ufunc_impl.h"
#include "runtime/runtime.h"
#include "runtime/stores.h"
#include "tessera/elementwise.h"

namespace tessera {
using namespace detail;

namespace {
void check_shape(const Shape& shape) {
  for (auto d : shape)
    if (d < 0) throw ValueError("negative dimensions are not allowed");
}
ndarray make(DType dtype, const Shape& shape) {
  check_shape(shape);
  return ndarray(new_store(dtype, shape, Runtime::provenance()));
}
}  // namespace

ndarray empty(const Shape& shape, DType dtype) {
  ndarray a = make(dtype, shape);
  a.store()->storage()->allocate("empty");
  return a;
}

namespace {
// Takes an array's memory when its points run and leaves it as it is (NumPy's empty: the
// values are whatever the memory held). Its tiles are cut where the ranks' parts end, so
// each rank holds its part only, as for any other result; on one rank the memory is taken
// when the analysis reaches the operation rather than when the program calls np.empty. (The
// points depend on nothing, so they run as soon as they are analysed: a loop that makes a new
// array each time still holds several at once while the work catches up.)
class EmptyOp final : public Operation {
 public:
  explicit EmptyOp(StorePtr store) {
    name = "empty";
    add(std::move(store), false, true);
    cut_at_ranks = true;
  }
  void execute(const Point&) override {}
  int64_t traffic(const std::vector<Rect>&) const override { return 0; }
};

// Below this many bytes an array takes its memory at once: not worth an operation.
constexpr int64_t kInOrderBytes = int64_t{1} << 20;
}  // namespace

ndarray empty_in_order(const Shape& shape, DType dtype) {
  ndarray a = make(dtype, shape);
  if (a.nbytes() < kInOrderBytes) {
    a.store()->storage()->allocate("empty");
    return a;
  }
  Runtime::get().submit(std::make_shared<EmptyOp>(a.store()));
  return a;
}

ndarray full(const Shape& shape, const Scalar& value, std::optional<DType> dtype) {
  ndarray a = make(dtype ? *dtype : value.dtype(), shape);
  check_scalar_fits(Operand(value), a.dtype());
  assign(a, Operand(value.cast(a.dtype())));  // full() casts unsafely, even complex to real
  return a;
}

ndarray zeros(const Shape& shape, DType dtype) { return full(shape, Scalar(int64_t{0}), dtype); }
ndarray ones(const Shape& shape, DType dtype) { return full(shape, Scalar(int64_t{1}), dtype); }

ndarray arange(const Scalar& start, const Scalar& stop, const Scalar& step, std::optional<DType> dtype) {
  if (!step.as_bool()) throw ZeroDivisionError("division by zero");
  // arange promotes its arguments' own dtypes (Python numbers as int64/float64), not NEP 50.
  DType t = dtype ? *dtype : promote_types(promote_types(start.dtype(), stop.dtype()), step.dtype());
  if (t == DType::Bool && !dtype) t = DType::Int64;
  // The length in a wider type than the result's, so a huge range is an error, not a wrap.
  long double len;
  if (is_integer(start.dtype()) && is_integer(stop.dtype()) && is_integer(step.dtype())) {
    // uint64 values past INT64_MAX (2**63 from Python) keep their value.
    auto wide = [](const Scalar& x) -> __int128 {
      return x.dtype() == DType::UInt64 ? static_cast<__int128>(x.as_uint()) : static_cast<__int128>(x.as_int());
    };
    const __int128 a = wide(start), b = wide(stop), s = wide(step);
    len = static_cast<long double>(s > 0 ? (b - a + s - 1) / s : (a - b - s - 1) / (-s));
  } else {
    len = std::ceil((static_cast<long double>(stop.as_double()) - start.as_double()) / step.as_double());
    if (std::isnan(len)) throw ValueError("arange: cannot compute length");
  }
  if (len > static_cast<long double>(INT64_MAX)) throw ValueError("Maximum allowed size exceeded");
  const int64_t n = len < 0 ? 0 : static_cast<int64_t>(len);
  ndarray a = make(t, {n});
  auto e = std::make_shared<ElementwiseOp>("arange", a.store());
  const DType c = is_inexact(t) ? (is_complex(t) ? DType::Complex128 : DType::Float64) : DType::Int64;
  int i = e->cast_node(e->index_node(0), c);
  int v = e->binary_node(BinaryOp::Multiply, c, i, e->const_node(step, c));
  e->binary_node(BinaryOp::Add, c, v, e->const_node(start, c));
  Runtime::get().submit(std::move(e));
  return a;
}

ndarray linspace(double start, double stop, int64_t num, bool endpoint, std::optional<DType> dtype) {
  if (num < 0) throw ValueError("Number of samples, " + std::to_string(num) + ", must be non-negative.");
  const int64_t div = endpoint ? num - 1 : num;
  const double delta = stop - start;
  const double step = div > 0 ? delta / static_cast<double>(div) : NAN;
  DType t = dtype ? *dtype : DType::Float64;
  ndarray a = make(t, {num});
  auto e = std::make_shared<ElementwiseOp>("linspace", a.store());
  const DType c = DType::Float64;
  int v = e->cast_node(e->index_node(0), c);
  if (div > 0 && step != 0) {
    v = e->binary_node(BinaryOp::Multiply, c, v, e->const_node(Scalar(step), c));
  } else if (div > 0) {
    v = e->binary_node(BinaryOp::TrueDivide, c, v, e->const_node(Scalar(static_cast<double>(div)), c));
    v = e->binary_node(BinaryOp::Multiply, c, v, e->const_node(Scalar(delta), c));
  } else {
    v = e->binary_node(BinaryOp::Multiply, c, v, e->const_node(Scalar(delta), c));
  }
  v = e->binary_node(BinaryOp::Add, c, v, e->const_node(Scalar(start), c));
  if (is_integer(t)) e->unary_node(UnaryOp::Floor, c, v);
  Runtime::get().submit(std::move(e));
  if (endpoint && num > 1) {
    ndarray last(a.store()->slice(0, num - 1, num, 1));
    assign(last, Operand(Scalar(stop)));
  }
  return a;
}

ndarray eye(int64_t n, std::optional<int64_t> m, int64_t k, DType dtype) {
  ndarray a = make(dtype, {n, m ? *m : n});
  auto e = std::make_shared<ElementwiseOp>("eye", a.store());
  int d = e->binary_node(BinaryOp::Subtract, DType::Int64, e->index_node(1), e->index_node(0));
  e->binary_node(BinaryOp::Equal, DType::Int64, d, e->const_node(Scalar(k), DType::Int64));
  Runtime::get().submit(std::move(e));
  return a;
}

ndarray from_host(const void* data, const Shape& shape, DType dtype) {
  ndarray a = make(dtype, shape);
  a.store()->storage()->allocate("array");
  // An empty array's `data` may be null (an empty vector's), which memcpy must not see.
  if (a.nbytes() > 0) std::memcpy(a.store()->storage()->data(), data, static_cast<size_t>(a.nbytes()));
  return a;
}

}  // namespace tessera
