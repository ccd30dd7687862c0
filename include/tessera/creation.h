// Array creation: filled arrays, ranges, identity matrices and copies of host data.
#pragma once

#include <optional>

#include "tessera/ndarray.h"

namespace tessera {

/// An array whose values are unspecified (NumPy's `empty`), its memory given now.
ndarray empty(const Shape& shape, DType dtype = DType::Float64);
/// The same, a large one (1 MiB or more) taking its memory when an operation issued now runs,
/// on several ranks each rank its part only (what NumPy's `empty` and `empty_like` make).
ndarray empty_in_order(const Shape& shape, DType dtype = DType::Float64);
ndarray zeros(const Shape& shape, DType dtype = DType::Float64);
ndarray ones(const Shape& shape, DType dtype = DType::Float64);
/// An array of `value`; its dtype is `dtype` or the value's own.
ndarray full(const Shape& shape, const Scalar& value, std::optional<DType> dtype = std::nullopt);
/// Evenly spaced values in [start, stop) (NumPy's `arange`).
ndarray arange(const Scalar& start, const Scalar& stop, const Scalar& step, std::optional<DType> dtype = std::nullopt);
/// `num` evenly spaced values from start to stop (NumPy's `linspace`).
ndarray linspace(double start, double stop, int64_t num, bool endpoint = true,
                 std::optional<DType> dtype = std::nullopt);
/// Ones on the k-th diagonal of an N×M matrix.
ndarray eye(int64_t n, std::optional<int64_t> m = std::nullopt, int64_t k = 0, DType dtype = DType::Float64);
/// A new array holding a copy of C-ordered host data.
ndarray from_host(const void* data, const Shape& shape, DType dtype);
/// A copy of `a` (C-contiguous, writeable, with a's values) made lazily: it shares a's memory
/// — no second allocation — until either array, or any view of either, is written. Then the
/// runtime gives the one written fresh memory with a copy of the values, in dependence order
/// (after everything issued before on it, before everything after), and the other keeps the
/// old memory untouched; reads of the other never wait. A copy dropped before any write
/// costs nothing. When a's memory cannot be shared (a view that is not its whole array,
/// another library's memory, an address handed out by DLPack) it is an ordinary copy.
///
///   ndarray b = lazy_copy(a);  // one allocation
///   a += 1.0;                  // a takes fresh memory first; b keeps a's old values
ndarray lazy_copy(const ndarray& a);

}  // namespace tessera
