// Storage: the memory behind a store on this rank, one C-ordered allocation
// from a pool. Allocated when the first operation that writes it is flushed;
// returned to the pool when the last store and task referring to it are gone.
#pragma once

#include <atomic>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "data/rect.h"
#include "machine/memory_pool.h"
#include "tessera/dtype.h"

namespace tessera::detail {

class PointTask;

/// One recorded access of a point task to a rect of a storage (for dependence analysis).
struct Access {
  Rect rect;
  std::shared_ptr<PointTask> task;
  bool write;
};

class Storage {
 public:
  Storage(DType dtype, Shape shape, std::shared_ptr<MemoryPool> pool, std::string creation);
  ~Storage();
  Storage(const Storage&) = delete;
  Storage& operator=(const Storage&) = delete;

  DType dtype() const { return dtype_; }
  const Shape& shape() const { return shape_; }
  const Shape& strides() const { return strides_; }  // in elements, C order
  int64_t elements() const { return elements_; }
  int64_t bytes() const { return elements_ * itemsize(dtype_); }
  const std::string& creation() const { return creation_; }
  /// "store of shape (3,) float64, created at f.py:3" for reports.
  std::string describe() const;

  bool allocated() const { return data() != nullptr; }
  /// Reserves the memory (once; safe from several threads); throws OutOfMemoryError naming
  /// `operation` if the pool is full.
  void allocate(const std::string& operation);
  char* data() const { return data_.load(std::memory_order_acquire); }

  /// Accesses recorded by the dependence analyser (touched only by it).
  std::vector<Access> accesses;

 private:
  DType dtype_;
  Shape shape_, strides_;
  int64_t elements_;
  std::shared_ptr<MemoryPool> pool_;  // outlives the runtime while storages live
  std::string creation_;
  std::atomic<char*> data_{nullptr};
  std::mutex alloc_mu_;
};

}  // namespace tessera::detail
