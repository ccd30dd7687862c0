#include "numeric/linalg/batched_op.h"

#include <algorithm>

#include "numeric/linalg/linalg_common.h"
#include "runtime/runtime.h"
#include "tessera/errors.h"

namespace tessera::detail {

BatchedMatrixOp::BatchedMatrixOp(std::string op_name, int batch, std::vector<BatchArg> arguments, MatrixKernel kernel,
                                 int64_t work)
    : nb_(batch), kernel_(std::move(kernel)) {
  name = std::move(op_name);
  // The launch is the batch (with a unit axis, so an unbatched call is one point); each
  // argument is seen with its core folded into one axis that every point sees whole.
  Shape space(arguments.front().store->shape().begin(), arguments.front().store->shape().begin() + nb_);
  space.push_back(1);
  space_ = add_space(space);
  for (BatchArg& a : arguments) {
    const int core = a.store->ndim() - nb_;
    TESSERA_CHECK(core >= 0 && core <= 2, "batched matrix argument with a core of more than two axes");
    ArgView view(a.store->shape());
    view.fold(nb_, core);
    Shape factors(static_cast<size_t>(nb_ + 1), 1);
    factors[nb_] = std::max<int64_t>(1, view.shape()[nb_]);
    const int i = add(std::move(a.store), !a.write, a.write, std::move(view));
    constraints.push_back(scale(i, space_, factors));
    constraints.push_back(broadcast(i, {nb_}));
  }
  weight = std::max<int64_t>(1, work);
}

void BatchedMatrixOp::execute(const Point& point) {
  require_computed(*this, name);
  blas_single_threaded();
  const Rect& tile = point.rects[space_];
  if (tile.empty()) return;
  std::vector<MatrixRef> blocks(args.size() - 1);
  Shape idx(tile.lo.begin(), tile.lo.begin() + nb_);
  while (true) {
    for (size_t i = 1; i < args.size(); ++i) {
      const Store& s = *args[i].store;
      int64_t off = 0;
      for (int d = 0; d < nb_; ++d) off += idx[d] * s.strides()[d];
      const int core = s.ndim() - nb_;
      MatrixRef& b = blocks[i - 1];
      b.ptr = s.size() == 0 ? nullptr : s.base_ptr() + off * itemsize(s.dtype());
      b.rows = core >= 1 ? s.shape()[nb_] : 1;
      b.cols = core == 2 ? s.shape()[nb_ + 1] : 1;
      b.rs = core >= 1 ? s.strides()[nb_] : 0;
      b.cs = core == 2 ? s.strides()[nb_ + 1] : 0;
    }
    kernel_(blocks);
    int d = nb_ - 1;
    while (d >= 0 && ++idx[d] == tile.hi[d]) {
      idx[d] = tile.lo[d];
      --d;
    }
    if (d < 0) break;
  }
}

void issue_batched(const std::string& name, int batch, std::vector<BatchArg> arguments, MatrixKernel kernel,
                   int64_t work) {
  const Shape& shape = arguments.front().store->shape();
  if (volume(Shape(shape.begin(), shape.begin() + batch)) == 0) return;
  Runtime::get().submit(std::make_shared<BatchedMatrixOp>(name, batch, std::move(arguments), std::move(kernel), work));
}

}  // namespace tessera::detail
