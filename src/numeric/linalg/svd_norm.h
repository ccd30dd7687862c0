// The matrix norms defined by singular values (NumPy's ord 2, -2 and 'nuc').
#pragma once

#include "tessera/ndarray.h"

namespace tessera::detail {

enum class SvdReduction { Max, Min, Sum };

/// For each matrix of the last two axes of `x` (float or complex), the largest, smallest or
/// summed singular value: an array of x's real dtype with those axes removed. Blocking: a
/// LinAlgError (no convergence) is raised here.
ndarray svd_norm(const ndarray& x, SvdReduction kind);

}  // namespace tessera::detail
