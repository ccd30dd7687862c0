// tessera::ndarray — the NumPy-like array of the C++ API. An ndarray is a
// handle to a store; operations on it are issued to the runtime and return at
// once. Reading values (item, to_vector, copy_to) waits for pending work.
#pragma once

#include <complex>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "tessera/dtype.h"
#include "tessera/errors.h"
#include "tessera/scalar.h"

namespace tessera {
namespace detail {
class Store;
}  // namespace detail

using Shape = std::vector<int64_t>;

/// Values a library has not made yet, which an ndarray may stand for until something needs
/// its shape or values (the NumPy library's `x[mask]` before it is compacted): the handle
/// then makes it, once, and stands for what it made.
class PendingArray {
 public:
  virtual ~PendingArray() = default;
  /// The array, made on the first call; later calls return the same store.
  virtual const std::shared_ptr<detail::Store>& materialize() = 0;
  /// Its dtype, when that is known without making it (nullopt: ask the made array).
  virtual std::optional<DType> known_dtype() const { return std::nullopt; }
};

class ndarray {
 public:
  ndarray() = default;
  explicit ndarray(std::shared_ptr<detail::Store> store);
  /// An array a library has not made yet (PendingArray): made when anything needs its shape
  /// or values.
  explicit ndarray(std::shared_ptr<PendingArray> pending);
  ndarray(const ndarray& o);
  ndarray(ndarray&& o) noexcept;
  ndarray& operator=(const ndarray& o);
  ndarray& operator=(ndarray&& o) noexcept;
  ~ndarray();

  const Shape& shape() const;
  Shape strides_bytes() const;
  int ndim() const;
  int64_t size() const;
  DType dtype() const;
  int64_t itemsize() const { return tessera::itemsize(dtype()); }
  int64_t nbytes() const { return size() * itemsize(); }
  bool valid() const { return store_ != nullptr || pending_ != nullptr; }
  /// True when both arrays view the same storage.
  bool shares_storage(const ndarray& o) const;

  /// The single element of a size-1 array (waits for pending work).
  Scalar item() const;
  /// Element `flat` in C order (waits for pending work).
  Scalar item(int64_t flat) const;
  /// Copies the values in C order into `dst` (size() * itemsize() bytes; waits).
  void copy_to(void* dst) const;
  template <class T>
  std::vector<T> to_vector() const {
    std::vector<T> v(static_cast<size_t>(size()));
    if (dtype_of<T>::value != dtype()) throw TypeError("to_vector: element type does not match the array's dtype");
    copy_to(v.data());
    return v;
  }

  const std::shared_ptr<detail::Store>& store() const {
    if (pending_) settle();
    return store_;
  }
  /// The values this handle still stands for, not made yet, or null (an ordinary array).
  const std::shared_ptr<PendingArray>& pending() const { return pending_; }
  /// Makes this handle stand for `pending` (an in-place operation on a pending array: the
  /// program's object keeps its identity).
  void repoint(std::shared_ptr<PendingArray> pending) const;

 private:
  void settle() const;
  mutable std::shared_ptr<detail::Store> store_;
  mutable std::shared_ptr<PendingArray> pending_;
};

/// An argument of an element-wise function: an array or a scalar.
class Operand {
 public:
  Operand(const ndarray& a) : array_(a) {}                               // NOLINT: implicit by design
  Operand(Scalar s) : scalar_(s) {}                                      // NOLINT
  Operand(double v) : scalar_(Scalar::weak(Scalar(v))) {}                // NOLINT: C++ numbers are weak like Python's
  Operand(int v) : scalar_(Scalar::weak(Scalar(v))) {}                   // NOLINT
  Operand(int64_t v) : scalar_(Scalar::weak(Scalar(v))) {}               // NOLINT
  Operand(bool v) : scalar_(Scalar::weak(Scalar(v))) {}                  // NOLINT
  Operand(std::complex<double> v) : scalar_(Scalar::weak(Scalar(v))) {}  // NOLINT
  bool is_array() const { return array_.valid(); }
  const ndarray& array() const { return array_; }
  const Scalar& scalar() const { return scalar_; }
  DType dtype() const { return is_array() ? array_.dtype() : scalar_.dtype(); }

 private:
  ndarray array_;
  Scalar scalar_;
};

}  // namespace tessera
