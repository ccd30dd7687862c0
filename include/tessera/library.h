// Libraries on tessera: what a library registers with the runtime, and what it may rely on
// (docs/libraries.md says it at length).
//
// A library is what it registers: its tasks (tessera/task.h: a Task with a variant per
// processor kind, launched over arrays with constraints), the window passes it contributes,
// and per-store state of its own. The runtime knows no library by name: it runs every
// registered library's passes over each flushed window, in registration order, and tells
// every library before an operation writes a storage. tessera's NumPy library registers
// through this header like any other (src/numeric/library.cc).
//
//   tessera::Library lib;
//   lib.name = "mylib";
//   lib.passes.push_back({"merge-fills", [](tessera::Window& w) { ... }});
//   tessera::register_library(std::move(lib));
#pragma once

#include <functional>
#include <memory>
#include <string>
#include <vector>

namespace tessera {
namespace detail {
class Operation;
class Storage;
}  // namespace detail

/// The operations of a flushed window, in program order, as a window pass sees them. A pass
/// rewrites the operations it understands (those its library made: it recognises its own
/// operation types) and leaves every other one where it is; it may replace operations, merge
/// them (reset the ones it took in: the runtime drops null entries after each pass) or move
/// results nothing needs yet into `later()` when `may_defer()`.
class Window {
 public:
  using Operations = std::vector<std::shared_ptr<detail::Operation>>;
  Window(Operations& operations, Operations* later, const detail::Storage* reading)
      : operations_(operations), later_(later), reading_(reading) {}

  Operations& operations() { return operations_; }
  /// Whether results may wait for a later flush (a flush that is not a fence, on one rank).
  bool may_defer() const { return later_ != nullptr; }
  /// The storage the program is about to read (what must not wait), or null.
  const detail::Storage* reading() const { return reading_; }
  /// Where waiting operations go, in program order (only when may_defer()).
  Operations& later() { return *later_; }

 private:
  Operations& operations_;
  Operations* later_;
  const detail::Storage* reading_;
};

/// A pass over each flushed window (fusion and the like).
struct WindowPass {
  std::string name;
  std::function<void(Window&)> run;
};

/// The runtime a library starts in.
struct RuntimeInfo {
  int rank = 0, ranks = 1;
  int cpus = 1;
  /// --simd: the widest instruction set vector loops may use (best, avx3, avx2, sse4, scalar).
  std::string simd;
  /// --min-cpu-chunk: the elements below which an operation runs as one piece, the unit the
  /// tiling of an array is made of (much smaller in test mode). A library that names its own
  /// points sizes them in it, so that they depend on the data and this setting alone.
  int64_t min_chunk = 65536;
};

/// What a library registers.
struct Library {
  /// Unique: a second registration of the same name is ignored.
  std::string name;
  /// Runs when a runtime starts, or at once when one is running: checks what the library
  /// needs of the configuration. An exception stops the start, or the registration (the
  /// library is then not registered).
  std::function<void(const RuntimeInfo&)> start;
  /// Run over every flushed window, after the passes of libraries registered before.
  std::vector<WindowPass> passes;
  /// Called on the issuing thread before an operation that writes `storage` is issued, and
  /// before the program writes a storage's memory on the host: the library settles the state
  /// it keeps of that storage (NumPy's pending `x[mask]` selections of it compact first).
  void (*before_write)(const detail::Storage& storage) = nullptr;
};

/// Registers `library`; thread-safe. A library registers before its first operation is
/// issued (its operations' constructors can do it: registering again is cheap and ignored).
void register_library(Library library);
/// The names of the registered libraries, in registration order.
std::vector<std::string> registered_libraries();

}  // namespace tessera
