// The registered libraries (tessera/library.h) as the runtime runs them: their start hooks
// when a runtime starts, their window passes on every flush, their write hooks on every issue.
// Registration is rare and takes a lock; the hot paths read an append-only table.
#pragma once

#include <array>
#include <atomic>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "runtime/operation.h"
#include "tessera/library.h"

namespace tessera::detail {

class Libraries {
 public:
  static Libraries& get();
  /// Adds `library` (ignored when one of its name is registered); runs its start hook when a
  /// runtime is running.
  void add(Library library);
  /// Runs every start hook (a runtime is starting).
  void start(const RuntimeInfo& info);
  /// Runs every library's passes over `operations`, in order; `later` is null when results may
  /// not wait (see tessera::Window).
  void run_passes(std::vector<OperationPtr>& operations, std::vector<OperationPtr>* later,
                  const Storage* reading) const;
  /// Tells every library that `storage` is about to be written.
  void before_write(const Storage& storage) const {
    const int n = writers_.load(std::memory_order_acquire);
    for (int i = 0; i < n; ++i) before_write_[static_cast<size_t>(i)](storage);
  }
  std::vector<std::string> names() const;

 private:
  static constexpr int kMax = 32;
  std::mutex mu_;
  std::array<std::unique_ptr<const Library>, kMax> libraries_;
  std::atomic<int> count_{0};
  std::array<void (*)(const Storage&), kMax> before_write_{};
  std::atomic<int> writers_{0};
};

}  // namespace tessera::detail
