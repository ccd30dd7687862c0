#include "runtime/body_guard.h"

#include "tessera/errors.h"

namespace tessera::detail {

thread_local const std::string* BodyScope::current_ = nullptr;

void refuse_body_call(const std::string& task, std::string_view what, std::string_view operation) {
  std::string did(what);
  if (!operation.empty()) did += " '" + std::string(operation) + "'";
  throw Error("task '" + task + "' " + did +
              " in its body: a task body may only compute on its tiles (NumPy views in Python, Tile "
              "pointers in C++); fences, reads of tessera arrays, tessera.numpy operations and launches "
              "over tessera arrays belong outside it (docs/tasks.md)");
}

}  // namespace tessera::detail
