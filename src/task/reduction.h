// The built-in reduction operators (sum, prod, min, max) for every dtype they apply to,
// and custom ones: filling with the identity, folding one buffer into another, and the
// operator they give the combine stage (combine.h) that joins a launch's per-point rows.
#pragma once

#include <cstdint>

#include "task/combine.h"
#include "tessera/task.h"

namespace tessera::detail {

/// TypeError when `r` does not apply to `t` (min/max of complex numbers).
void check_reduction(const Reduction& r, DType t, const std::string& task);
/// Fills `n` elements of type `t` at `acc` with the identity of `r`.
void reduction_identity(const Reduction& r, DType t, void* acc, int64_t n);
/// acc[i] = acc[i] (r) x[i] for i < n.
void reduction_fold(const Reduction& r, DType t, void* acc, const void* x, int64_t n);
/// `r` on elements of type `t` as the operator of a combine; `into`: the target is folded
/// first (target (r) tree of the rows), as a launch's reduction slots are.
Combiner reduction_combiner(const Reduction& r, DType t, bool into);

}  // namespace tessera::detail
