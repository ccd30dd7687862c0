// Dependence analysis on rects: per storage, the accesses of unfinished point
// tasks. A new task waits only on tasks whose rects overlap its own with a
// conflicting access (read-after-write, write-after-read, write-after-write).
#pragma once

#include "machine/scheduler.h"
#include "runtime/point_task.h"

namespace tessera::detail {

class DependenceAnalyzer {
 public:
  /// Adds the edges `task` needs for touching `rect` of `storage`, and records the access.
  void record(const PointTaskPtr& task, Storage& storage, const Rect& rect, bool write);
};

}  // namespace tessera::detail
