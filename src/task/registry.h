// The registry of tasks: each has a name and its variants in a table indexed by processor
// kind (tessera::ProcessorKind), an empty slot for a kind it has no variant for. Registering
// is thread-safe; a task keeps its id for the life of the process.
#pragma once

#include <array>
#include <deque>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "tessera/task.h"

namespace tessera::detail {

struct TaskVariants {
  std::string name;
  std::array<TaskFunction, kProcessorKinds> by_kind;

  /// The variant for processors of `kind`, or null when the task has none.
  const TaskFunction* find(ProcessorKind kind) const {
    const TaskFunction& f = by_kind[static_cast<size_t>(kind)];
    return f ? &f : nullptr;
  }
  /// The kinds the task has variants for, in kind order: "cpu", "cpu, gpu".
  std::string kinds() const;
  /// The variant for processors of `kind`; ValueError naming the task and the kinds it has
  /// when there is none.
  const TaskFunction& for_kind(ProcessorKind kind) const;
  /// ValueError unless the task has a variant for one of `present` (the kinds of processor
  /// the run has); the message names the task, the kinds it has and those the run has.
  void require_one_of(const std::vector<ProcessorKind>& present) const;

  /// The table of `variants` for task `name`; ValueError when it is empty, names a kind
  /// twice or holds an empty function.
  static TaskVariants make(std::string name, std::vector<TaskVariant> variants);
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
