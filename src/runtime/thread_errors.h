// The errors waiting for their sync points, one per thread that issued the failing
// operation: a thread's sync point raises its own error, never another thread's. An
// operation the runtime made itself (issuer 0: a copy between ranks, say) raises at
// whichever thread syncs first.
#pragma once

#include <atomic>
#include <cstdint>
#include <exception>
#include <mutex>
#include <utility>
#include <vector>

namespace tessera::detail {

class ThreadErrors {
 public:
  /// Keeps `e` for thread `issuer` unless it has an earlier one waiting.
  void record(uint64_t issuer, std::exception_ptr e) {
    std::lock_guard lock(mu_);
    for (const auto& [who, error] : errors_)
      if (who == issuer) return;
    errors_.emplace_back(issuer, std::move(e));
    count_.fetch_add(1, std::memory_order_release);
  }
  /// Thread `issuer`'s waiting error, or null.
  std::exception_ptr take(uint64_t issuer) {
    if (count_.load(std::memory_order_acquire) == 0) return nullptr;  // the common case: no lock
    std::lock_guard lock(mu_);
    for (auto it = errors_.begin(); it != errors_.end(); ++it)
      if (it->first == issuer || it->first == 0) {
        std::exception_ptr e = std::move(it->second);
        errors_.erase(it);
        count_.fetch_sub(1, std::memory_order_relaxed);
        return e;
      }
    return nullptr;
  }

 private:
  std::mutex mu_;
  std::vector<std::pair<uint64_t, std::exception_ptr>> errors_;
  std::atomic<int> count_{0};
};

}  // namespace tessera::detail
