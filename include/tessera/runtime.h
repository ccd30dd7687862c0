// Starting and stopping the runtime from C++, and waiting for pending work.
// Example:
//   int main() { tessera::RuntimeScope scope; auto a = tessera::ones({1000}); ... }
#pragma once

namespace tessera {

/// Starts the runtime from TESSERA_CONFIG (no-op if it is running); throws on a bad configuration.
void start();
/// Waits for all pending work and stops the runtime.
void finish();
/// Blocks until every issued operation has run; re-raises the first error a task raised.
void fence();
/// The number of ranks the program runs on (1 without mpirun).
int ranks();

/// Starts the runtime for its lifetime (RAII).
class RuntimeScope {
 public:
  RuntimeScope() { start(); }
  ~RuntimeScope() { finish(); }
  RuntimeScope(const RuntimeScope&) = delete;
  RuntimeScope& operator=(const RuntimeScope&) = delete;
};

}  // namespace tessera
