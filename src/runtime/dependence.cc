#include "runtime/dependence.h"

#include <algorithm>

#include "runtime/storage_state.h"

namespace tessera::detail {

void DependenceAnalyzer::record(const PointTaskPtr& task, Storage& storage, const Rect& rect, bool write) {
  StorageState& state = state_of(storage);
  const Launch* launch = task->launch();
  const bool ordered = task->op()->points_ordered;
  // Finished tasks constrain nothing: drop them as we go so lists stay short.
  auto finished = [](const Access& a) { return a.task->finished(); };
  auto wait_on = [&](const std::vector<Access>& list) {
    for (const Access& a : list) {
      if (a.task == task) continue;
      if (ordered && a.launch == launch) continue;  // the operation orders its own points
      if (a.rect.overlaps(rect)) task->depend_on(task, *a.task);
    }
  };
  std::erase_if(state.writes, finished);
  wait_on(state.writes);
  if (!write) {
    // Reads are pruned when they have doubled since the last time: linear in all.
    if (state.reads.size() >= 2 * state.reads_kept + 16) {
      std::erase_if(state.reads, finished);
      state.reads_kept = state.reads.size();
    }
    state.reads.push_back(Access{rect, task, false, launch});
    return;
  }
  std::erase_if(state.reads, finished);
  wait_on(state.reads);
  if (!ordered) {
    // A write that covers earlier accesses makes them redundant for later tasks: anyone
    // who conflicts with them conflicts with this write, which waits for them. Not so for
    // a point of a launch whose points skip each other: another point would miss them.
    auto covered = [&](const Access& a) { return a.task != task && rect.contains(a.rect); };
    std::erase_if(state.writes, covered);
    std::erase_if(state.reads, covered);
  }
  state.reads_kept = state.reads.size();
  state.writes.push_back(Access{rect, task, true, launch});
}

}  // namespace tessera::detail
