#include "task/registry.h"

namespace tessera::detail {

TaskRegistry& TaskRegistry::get() {
  static TaskRegistry registry;
  return registry;
}

int TaskRegistry::add(TaskVariants variants) {
  if (!variants.cpu) throw ValueError("task '" + variants.name + "' needs a cpu variant");
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

Task::Task(std::string name, TaskFunction cpu) {
  detail::TaskVariants v;
  v.name = std::move(name);
  v.cpu = std::move(cpu);
  id_ = detail::TaskRegistry::get().add(std::move(v));
  variants_ = detail::TaskRegistry::get().handle(id_);
}

#ifdef TESSERA_GPU
Task::Task(std::string name, TaskFunction cpu, TaskFunction gpu) {
  detail::TaskVariants v{std::move(name), std::move(cpu), std::move(gpu)};
  id_ = detail::TaskRegistry::get().add(std::move(v));
  variants_ = detail::TaskRegistry::get().handle(id_);
}
#endif

Task Task::unregistered(std::string name, TaskFunction cpu) {
  auto v = std::make_shared<detail::TaskVariants>();
  v->name = std::move(name);
  v->cpu = std::move(cpu);
  if (!v->cpu) throw ValueError("task '" + v->name + "' needs a cpu variant");
  Task t;
  t.variants_ = std::move(v);
  return t;
}

const std::string& Task::name() const { return variants_->name; }

void* TaskContext::bind_output(size_t i, int64_t n) {
  if (i >= tiles_.size() || !bind_) throw IndexError("task '" + name_ + "': argument " + std::to_string(i) + " is not an unbound output");
  if (n < 0) throw ValueError("task '" + name_ + "': an output cannot have a negative size");
  return bind_(i, n);
}

}  // namespace tessera
