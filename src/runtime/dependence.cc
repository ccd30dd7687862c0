#include "runtime/dependence.h"

#include <algorithm>

#include "runtime/storage_state.h"

namespace tessera::detail {

void DependenceAnalyzer::record(const PointTaskPtr& task, Storage& storage, const Rect& rect, bool write) {
  auto& list = state_of(storage).accesses;
  // Finished tasks constrain nothing: drop them as we go so lists stay short.
  std::erase_if(list, [](const Access& a) { return a.task->finished(); });
  for (const Access& a : list) {
    if (a.task == task || !(a.write || write)) continue;
    if (a.rect.overlaps(rect)) task->depend_on(task, *a.task);
  }
  if (write) {
    // A write that covers earlier accesses makes them redundant for later tasks:
    // anyone who conflicts with them conflicts with this write, which waits for them.
    std::erase_if(list, [&](const Access& a) { return a.task != task && rect.contains(a.rect); });
  }
  list.push_back(Access{rect, task, write});
}

}  // namespace tessera::detail
