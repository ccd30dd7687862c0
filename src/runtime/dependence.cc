#include "runtime/dependence.h"

#include <algorithm>

#include "runtime/storage_state.h"

namespace tessera::detail {

void DependenceAnalyzer::record(const PointTaskPtr& task, Storage& storage, const Rect& rect, bool write) {
  auto& list = state_of(storage).accesses;
  // Finished tasks constrain nothing: drop them as we go so lists stay short.
  std::erase_if(list, [](const Access& a) { return a.task->finished(); });
  const Launch* launch = task->launch();
  const bool ordered = task->op()->points_ordered;
  for (const Access& a : list) {
    if (a.task == task || !(a.write || write)) continue;
    if (ordered && a.launch == launch) continue;  // the operation orders its own points
    if (a.rect.overlaps(rect)) task->depend_on(task, *a.task);
  }
  if (write && !ordered) {
    // A write that covers earlier accesses makes them redundant for later tasks: anyone
    // who conflicts with them conflicts with this write, which waits for them. Not so for
    // a point of a launch whose points skip each other: another point would miss them.
    std::erase_if(list, [&](const Access& a) { return a.task != task && rect.contains(a.rect); });
  }
  list.push_back(Access{rect, task, write, launch});
}

}  // namespace tessera::detail
