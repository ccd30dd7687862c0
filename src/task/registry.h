// The registry of tasks: each has a name and its variants, one per processor kind (a cpu
// variant always; a GPU variant only in a build with GPU support). Registering is
// thread-safe; a task keeps its id for the life of the process.
#pragma once

#include <deque>
#include <memory>
#include <mutex>
#include <string>

#include "tessera/task.h"

namespace tessera::detail {

struct TaskVariants {
  std::string name;
  TaskFunction cpu;
#ifdef TESSERA_GPU
  TaskFunction gpu;
#endif
};

class TaskRegistry {
 public:
  static TaskRegistry& get();
  /// Registers a task; returns its id.
  int add(TaskVariants variants);
  const TaskVariants& at(int id) const;
  /// Task `id`'s variants as a handle (the registry keeps them for the life of the process).
  std::shared_ptr<const TaskVariants> handle(int id) const;

 private:
  mutable std::mutex mu_;
  std::deque<TaskVariants> tasks_;  // stable references
};

}  // namespace tessera::detail
