#include "numeric/linalg/batched_op.h"

#include <algorithm>

#include "data/strided_rows.h"
#include "tessera/errors.h"
#include "tessera/task.h"

namespace tessera::detail {

namespace {

// Array 0 is the batch (with a unit axis); every other array is a stack whose core is folded
// into one axis the point sees whole. The payload is the routine.
void batched_body(TaskContext& ctx) {
  const MatrixKernel& kernel = ctx.payload<MatrixKernel>();
  const Tile& space = ctx.array(0);
  if (space.size() == 0) return;
  blas_single_threaded();
  const int nb = space.ndim() - 1;
  const size_t n = ctx.arrays() - 1;
  // Every index of the batch range (a unit row axis last: one "row" per matrix set).
  Shape batch(space.extents().begin(), space.extents().begin() + nb);
  batch.push_back(1);
  std::vector<Shape> strides(n);
  std::vector<const int64_t*> sp(n);
  std::vector<MatrixRef> blocks(n);
  for (size_t i = 0; i < n; ++i) {
    const Tile& s = ctx.array(i + 1);
    strides[i].assign(s.strides().begin(), s.strides().begin() + nb);
    strides[i].push_back(0);
    sp[i] = strides[i].data();
    const int core = s.ndim() - nb;
    MatrixRef& b = blocks[i];
    b.rows = core >= 1 ? s.array_shape()[nb] : 1;
    b.cols = core == 2 ? s.array_shape()[nb + 1] : 1;
    b.rs = core >= 1 ? s.strides()[nb] : 0;
    b.cs = core == 2 ? s.strides()[nb + 1] : 0;
  }
  StridedRows matrices(batch, std::move(sp));
  matrices.for_each([&](const int64_t*, const int64_t* off) {
    for (size_t i = 0; i < n; ++i) {
      const Tile& s = ctx.array(i + 1);
      blocks[i].ptr = s.data() == nullptr ? nullptr : static_cast<char*>(s.data()) + off[i] * itemsize(s.dtype());
    }
    kernel(blocks);
  });
}

}  // namespace

void issue_batched(const std::string& name, int batch, std::vector<BatchArg> arguments, MatrixKernel kernel,
                   int64_t work) {
  static const Task task("linalg.batched", &batched_body);
  const Shape& shape = arguments.front().array.shape();
  Shape space(shape.begin(), shape.begin() + batch);
  int64_t matrices = 1;
  for (int64_t e : space) matrices *= e;
  if (matrices == 0) return;
  // The launch is the batch (with a unit axis, so an unbatched call is one point); each
  // argument is seen with its core folded into one axis that every point sees whole.
  space.push_back(1);
  std::vector<Argument> args{tessera::space(space)};
  std::vector<Constraint> constraints;
  for (BatchArg& a : arguments) {
    const int core = a.array.ndim() - batch;
    TESSERA_CHECK(core >= 0 && core <= 2, "batched matrix argument with a core of more than two axes");
    ArgView view(a.array.shape());
    view.fold(batch, core);
    Shape factors(static_cast<size_t>(batch + 1), 1);
    factors[static_cast<size_t>(batch)] = std::max<int64_t>(1, view.shape()[static_cast<size_t>(batch)]);
    const int i = static_cast<int>(args.size());
    args.push_back(viewed(a.write ? out(a.array) : in(a.array), std::move(view)));
    constraints.push_back(scale(i, 0, factors));
    constraints.push_back(broadcast(i, {batch}));
  }
  launch(task, std::move(args), {}, std::move(constraints),
         {.name = name, .weight = std::max<int64_t>(1, work), .payload = Payload::of(std::move(kernel))});
}

}  // namespace tessera::detail
