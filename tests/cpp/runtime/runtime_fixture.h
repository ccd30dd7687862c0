// Helpers for runtime tests: restarting the process's runtime with a given TESSERA_CONFIG
// (restoring the caller's on exit), custom operations built from lambdas, stores charged to
// a private runtime's pool, and a gate that holds a task until the test opens it.
#pragma once

#include <chrono>
#include <condition_variable>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <future>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "data/store.h"
#include "runtime/operation.h"
#include "runtime/runtime.h"
#include "tessera/runtime.h"

namespace tessera::testing {

/// Restarts the process's runtime from `config` for its lifetime, then stops it and restores
/// TESSERA_CONFIG so later tests start from what the user asked for.
class ScopedConfig {
 public:
  explicit ScopedConfig(const std::string& config) {
    if (const char* old = std::getenv("TESSERA_CONFIG")) saved_ = old;
    tessera::finish();
    ::setenv("TESSERA_CONFIG", config.c_str(), 1);
    tessera::start();
  }
  ~ScopedConfig() {
    tessera::finish();
    if (saved_) ::setenv("TESSERA_CONFIG", saved_->c_str(), 1);
    else ::unsetenv("TESSERA_CONFIG");
  }
  ScopedConfig(const ScopedConfig&) = delete;
  ScopedConfig& operator=(const ScopedConfig&) = delete;

 private:
  std::optional<std::string> saved_;
};

/// An operation over the index space `op_domain` whose points run `body` on their tile;
/// arguments of the domain's shape are aligned with it, others are whole for every point.
/// `one_tile` makes it a single point task.
class LambdaOp : public detail::Operation {
 public:
  LambdaOp(std::string op_name, detail::Shape op_domain, std::vector<detail::OpArg> op_args,
           std::function<void(const detail::Rect&)> body, bool one_tile = false)
      : body_(std::move(body)) {
    name = std::move(op_name);
    const int space = add_space(op_domain);
    for (detail::OpArg& a : op_args) {
      const bool aligned = a.store->shape() == op_domain;
      const int i = add(a.store, a.read, a.write);
      if (aligned) constraints.push_back(align(i, space));
    }
    if (one_tile) constraints.push_back(broadcast(space));
  }
  void execute(const detail::Point& point) override { body_(point.tile); }

 private:
  std::function<void(const detail::Rect&)> body_;
};

inline detail::OpArg reads(detail::StorePtr s) { return {std::move(s), true, false, {}, false}; }
inline detail::OpArg writes(detail::StorePtr s) { return {std::move(s), false, true, {}, false}; }
inline detail::OpArg updates(detail::StorePtr s) { return {std::move(s), true, true, {}, false}; }

/// A whole store of `shape` whose storage is charged to `pool`.
inline detail::StorePtr store_in(const std::shared_ptr<detail::MemoryPool>& pool, const detail::Shape& shape,
                                 DType dtype = DType::Float64) {
  auto storage = std::make_shared<detail::Storage>(dtype, shape, pool, "test");
  std::vector<int> map(shape.size());
  for (size_t d = 0; d < shape.size(); ++d) map[d] = static_cast<int>(d);
  return std::make_shared<detail::Store>(dtype, shape, storage->strides(), 0, std::move(map), storage);
}

/// A Config for a private runtime: `cpus` workers, no inline path for tiny ops unless asked.
inline Config private_config(int cpus, int64_t min_chunk = 1, int window = 16, int utility = 1) {
  Config c;
  c.auto_config = false;
  c.cpus = cpus;
  c.utility = utility;
  c.sysmem_mib = 64;
  c.window_size = window;
  c.min_cpu_chunk = min_chunk;
  return c;
}

/// Holds the tasks that wait on it until `open()`.
class Gate {
 public:
  Gate() : future_(promise_.get_future().share()) {}
  void wait() const { future_.wait(); }
  void open() {
    if (!opened_) promise_.set_value(), opened_ = true;
  }
  ~Gate() { open(); }

 private:
  std::promise<void> promise_;
  std::shared_future<void> future_;
  bool opened_ = false;
};

/// Aborts the test binary with `what` if still armed after `limit`: a deadlock in the runtime
/// then fails loudly instead of hanging the suite.
class Watchdog {
 public:
  Watchdog(std::chrono::seconds limit, std::string what)
      : thread_([this, limit, what = std::move(what)] {
          std::unique_lock lock(mu_);
          if (!cv_.wait_for(lock, limit, [&] { return done_; })) {
            std::fprintf(stderr, "watchdog: %s did not finish within %llds: deadlock?\n", what.c_str(),
                         static_cast<long long>(limit.count()));
            std::abort();
          }
        }) {}
  ~Watchdog() {
    {
      std::lock_guard lock(mu_);
      done_ = true;
    }
    cv_.notify_all();
    thread_.join();
  }

 private:
  std::mutex mu_;
  std::condition_variable cv_;
  bool done_ = false;
  std::thread thread_;
};

using Clock = std::chrono::steady_clock;

/// pool.used() once it equals `expected`, waiting at most 2 s. For tests whose subject is not
/// the timing of frees right after a fence (PoolAccountingTest.NothingHoldsAnArrayAfterAFence is).
inline int64_t used_when_settled(const detail::MemoryPool& pool, int64_t expected) {
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(2);
  while (pool.used() != expected && std::chrono::steady_clock::now() < deadline)
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  return pool.used();
}

/// Element `i` of a float64 store in C order (the storage must be allocated and idle).
inline double& at(const detail::StorePtr& s, const detail::Shape& idx) {
  return *reinterpret_cast<double*>(s->ptr(idx));
}

}  // namespace tessera::testing
