// The library registry (libraries.h) and the public registration (tessera/library.h).
#include "runtime/libraries.h"

#include <algorithm>

#include "runtime/runtime.h"
#include "tessera/errors.h"

namespace tessera::detail {

Libraries& Libraries::get() {
  static Libraries libraries;
  return libraries;
}

namespace {
RuntimeInfo info_of(const Runtime& rt) {
  return RuntimeInfo{rt.rank(), rt.ranks(), rt.config().cpus, rt.config().simd, rt.config().min_cpu_chunk};
}
}  // namespace

void Libraries::add(Library library) {
  // One registration at a time, and none while a runtime starts (start() holds the lock too):
  // a library is published after its start hook accepted the running runtime, or before a
  // runtime starts (which then runs the hook), never in between.
  std::lock_guard lock(mu_);
  const int n = count_.load(std::memory_order_relaxed);
  for (int i = 0; i < n; ++i)
    if (libraries_[static_cast<size_t>(i)]->name == library.name) return;
  if (library.name.empty()) throw ValueError("register_library: a library needs a name");
  if (n == kMax) throw Error("tessera: more than " + std::to_string(kMax) + " libraries registered");
  if (library.start && Runtime::running()) library.start(info_of(Runtime::get()));  // may refuse: not added
  libraries_[static_cast<size_t>(n)] = std::make_unique<const Library>(std::move(library));
  if (auto hook = libraries_[static_cast<size_t>(n)]->before_write) {
    const int w = writers_.load(std::memory_order_relaxed);
    before_write_[static_cast<size_t>(w)] = hook;
    writers_.store(w + 1, std::memory_order_release);
  }
  count_.store(n + 1, std::memory_order_release);
}

void Libraries::start(const RuntimeInfo& info) {
  std::lock_guard lock(mu_);
  const int n = count_.load(std::memory_order_acquire);
  for (int i = 0; i < n; ++i)
    if (const auto& start = libraries_[static_cast<size_t>(i)]->start) start(info);
}

void Libraries::run_passes(std::vector<OperationPtr>& operations, std::vector<OperationPtr>* later,
                           const Storage* reading) const {
  const int n = count_.load(std::memory_order_acquire);
  for (int i = 0; i < n; ++i)
    for (const WindowPass& pass : libraries_[static_cast<size_t>(i)]->passes) {
      Window window(operations, later, reading);
      pass.run(window);
      std::erase(operations, nullptr);
    }
}

std::vector<std::string> Libraries::names() const {
  std::vector<std::string> out;
  const int n = count_.load(std::memory_order_acquire);
  for (int i = 0; i < n; ++i) out.push_back(libraries_[static_cast<size_t>(i)]->name);
  return out;
}

}  // namespace tessera::detail

namespace tessera {

void register_library(Library library) { detail::Libraries::get().add(std::move(library)); }
std::vector<std::string> registered_libraries() { return detail::Libraries::get().names(); }

}  // namespace tessera
