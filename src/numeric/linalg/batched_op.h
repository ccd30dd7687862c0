// BatchedMatrixOp: one LAPACK routine applied to every matrix of a stack. Each argument is
// (batch..., core...) with a core of at most two axes, inputs broadcast to the whole batch;
// the launch is over the batch axes only, and a point task loops the routine over its
// matrices on one thread. A matrix is never split, so results do not depend on the tiling
// or the number of ranks (DESIGN §7).
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "numeric/linalg/cpu/blas.h"
#include "runtime/operation.h"

namespace tessera::detail {

/// The routine on one matrix: one MatrixRef per argument (its core block; a 1-D core is a
/// column, a 0-D core a 1 × 1 block), in the order the arguments were given.
using MatrixKernel = std::function<void(const std::vector<MatrixRef>&)>;

struct BatchArg {
  StorePtr store;
  bool write = false;
};

class BatchedMatrixOp final : public Operation {
 public:
  /// `batch` leading axes of every argument are the batch; `work` is the cost of one matrix.
  BatchedMatrixOp(std::string op_name, int batch, std::vector<BatchArg> arguments, MatrixKernel kernel, int64_t work);

  void execute(const Point& point) override;

 private:
  int nb_;
  int space_;
  MatrixKernel kernel_;
};

/// Issues `kernel` over the stacks `arguments` (see BatchedMatrixOp); nothing when the batch is empty.
void issue_batched(const std::string& name, int batch, std::vector<BatchArg> arguments, MatrixKernel kernel,
                   int64_t work);

}  // namespace tessera::detail
