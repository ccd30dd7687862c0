// Array creation: filled arrays, ranges, identity matrices and copies of host data.
#pragma once

#include <optional>

#include "tessera/ndarray.h"

namespace tessera {

/// An array whose values are unspecified (NumPy's `empty`).
ndarray empty(const Shape& shape, DType dtype = DType::Float64);
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

}  // namespace tessera
