#include "task/registry.h"

#include <utility>

namespace tessera::detail {

TaskVariants TaskVariants::make(std::string name, std::vector<TaskVariant> variants) {
  TaskVariants v;
  v.name = std::move(name);
  if (variants.empty())
    throw ValueError("task '" + v.name + "' needs at least one variant (a cpu variant runs on every machine)");
  for (TaskVariant& variant : variants) {
    const int k = static_cast<int>(variant.kind);
    if (k < 0 || k >= kProcessorKinds)
      throw ValueError("task '" + v.name + "': a variant names an unknown processor kind");
    const char* kind = processor_kind_name(variant.kind);
    if (!variant.body) throw ValueError("task '" + v.name + "': its " + kind + " variant is an empty function");
    TaskFunction& slot = v.by_kind[static_cast<size_t>(k)];
    if (slot) throw ValueError("task '" + v.name + "' has two " + kind + " variants; give one per processor kind");
    slot = std::move(variant.body);
  }
  return v;
}

std::string TaskVariants::kinds() const {
  std::string text;
  for (int k = 0; k < kProcessorKinds; ++k) {
    if (!by_kind[static_cast<size_t>(k)]) continue;
    if (!text.empty()) text += ", ";
    text += processor_kind_name(static_cast<ProcessorKind>(k));
  }
  return text;
}

const TaskFunction& TaskVariants::for_kind(ProcessorKind kind) const {
  if (const TaskFunction* f = find(kind)) return *f;
  throw ValueError("task '" + name + "' has no " + processor_kind_name(kind) + " variant to run on a " +
                   processor_kind_name(kind) + " processor (it has variants for: " + kinds() + ")");
}

void TaskVariants::require_one_of(const std::vector<ProcessorKind>& present) const {
  std::string run;
  for (ProcessorKind k : present) {
    if (find(k)) return;
    if (!run.empty()) run += ", ";
    run += processor_kind_name(k);
  }
  throw ValueError("task '" + name + "' has variants for " + kinds() + " only, and this run of tessera has " + run +
                   " processors only: give the task a " +
                   processor_kind_name(present.empty() ? ProcessorKind::CPU : present.front()) +
                   " variant (Task(name, {{ProcessorKind::CPU, body}, ...}))");
}

TaskRegistry& TaskRegistry::get() {
  static TaskRegistry registry;
  return registry;
}

int TaskRegistry::add(TaskVariants variants) {
  std::lock_guard lock(mu_);
  tasks_.push_back(std::move(variants));
  return static_cast<int>(tasks_.size()) - 1;
}

const TaskVariants& TaskRegistry::at(int id) const {
  std::lock_guard lock(mu_);
  return tasks_.at(static_cast<size_t>(id));
}

std::shared_ptr<const TaskVariants> TaskRegistry::handle(int id) const {
  return std::shared_ptr<const TaskVariants>(std::shared_ptr<void>(), &at(id));  // not owning
}

}  // namespace tessera::detail

namespace tessera {

Task::Task(std::string name, TaskFunction cpu)
    : Task(std::move(name), std::vector<TaskVariant>{{ProcessorKind::CPU, std::move(cpu)}}) {}

Task::Task(std::string name, std::vector<TaskVariant> variants) {
  id_ = detail::TaskRegistry::get().add(detail::TaskVariants::make(std::move(name), std::move(variants)));
  variants_ = detail::TaskRegistry::get().handle(id_);
}

Task Task::unregistered(std::string name, TaskFunction cpu) {
  return unregistered(std::move(name), std::vector<TaskVariant>{{ProcessorKind::CPU, std::move(cpu)}});
}

Task Task::unregistered(std::string name, std::vector<TaskVariant> variants) {
  Task t;
  t.variants_ =
      std::make_shared<detail::TaskVariants>(detail::TaskVariants::make(std::move(name), std::move(variants)));
  return t;
}

const std::string& Task::name() const { return variants_->name; }

bool Task::has_variant(ProcessorKind kind) const { return variants_->find(kind) != nullptr; }

void* TaskContext::bind_output(size_t i, int64_t n) {
  if (i >= tiles_.size() || !bind_)
    throw IndexError("task '" + name_ + "': argument " + std::to_string(i) + " is not an unbound output");
  if (n < 0) throw ValueError("task '" + name_ + "': an output cannot have a negative size");
  return bind_(i, n);
}

}  // namespace tessera
