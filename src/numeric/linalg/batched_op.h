// One LAPACK routine applied to every matrix of a stack, as a task. Each argument is
// (batch..., core...) with a core of at most two axes, inputs broadcast to the whole batch;
// the launch is over the batch axes only, and a point loops the routine over its matrices
// on one thread. A matrix is never split, so results do not depend on the tiling or the
// number of ranks (DESIGN §7).
#pragma once

#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "numeric/linalg/cpu/blas.h"
#include "tessera/ndarray.h"

namespace tessera::detail {

/// The routine on one matrix: one MatrixRef per argument (its core block; a 1-D core is a
/// column, a 0-D core a 1 × 1 block), in the order the arguments were given.
using MatrixKernel = std::function<void(const std::vector<MatrixRef>&)>;

struct BatchArg {
  BatchArg(ndarray a, bool w = false) : array(std::move(a)), write(w) {}                 // NOLINT: implicit by design
  BatchArg(std::shared_ptr<Store> s, bool w = false) : array(std::move(s)), write(w) {}  // NOLINT
  ndarray array;
  bool write = false;
};

/// Launches `kernel` over the stacks `arguments` (their `batch` leading axes are the batch),
/// shown in profiles and errors as `name`; `work` is the cost of one matrix. Nothing when the
/// batch is empty.
void issue_batched(const std::string& name, int batch, std::vector<BatchArg> arguments, MatrixKernel kernel,
                   int64_t work);

}  // namespace tessera::detail
