// NumPy errors that depend on the values an element-wise operation reads: checked before
// the operation is issued, so the statement that NumPy fails at fails here too and writes
// nothing (a deferred task could only fail later, after the program moved on).
#pragma once

#include <vector>

#include "tessera/ndarray.h"

namespace tessera::detail {

/// ValueError("Integers to negative integer powers are not allowed.") when the integer
/// power loop computing in `compute` would meet a negative exponent: a Python or NumPy
/// scalar is looked at; an array's smallest value (as `compute`) is read, a blocking
/// reduction, skipped when it cannot be negative (unsigned, bool) or no element is computed.
void check_integer_exponent(const Operand& exponent, DType compute, int64_t result_size);

/// check_integer_exponent for power's reduce, accumulate (`starts` {0}) and reduceat
/// (`starts` its indices) over the rows of the matrix `a`: the exponents are the rows each
/// segment folds into its first.
void check_fold_exponents(const ndarray& a, const std::vector<int64_t>& starts, bool reduceat);

}  // namespace tessera::detail
