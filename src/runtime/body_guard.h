// The task body a thread is running. A body computes on its tiles only: a fence, a read of
// a tessera array or an operation issued from inside one would wait for the task itself
// (forever), so the runtime's entry points refuse them with an error naming the task.
#pragma once

#include <string>
#include <string_view>

namespace tessera::detail {

/// Marks this thread as running the body of task `name` while it lives (nests).
class BodyScope {
 public:
  explicit BodyScope(const std::string& name) : previous_(current_) { current_ = &name; }
  ~BodyScope() { current_ = previous_; }
  BodyScope(const BodyScope&) = delete;
  BodyScope& operator=(const BodyScope&) = delete;

  /// The task whose body this thread runs, or null.
  static const std::string* current() { return current_; }

 private:
  const std::string* previous_;
  static thread_local const std::string* current_;
};

[[noreturn]] void refuse_body_call(const std::string& task, std::string_view what, std::string_view operation);

/// Throws tessera::Error (RuntimeError in Python) naming the task when this thread runs a
/// task body; `what` says what the body did ("called fence()"), `operation` names the
/// operation it issued, if any. One thread-local load otherwise.
inline void refuse_inside_body(std::string_view what, std::string_view operation = {}) {
  if (const std::string* task = BodyScope::current()) [[unlikely]]
    refuse_body_call(*task, what, operation);
}

}  // namespace tessera::detail
