// StorageState: what the runtime records per storage, in the slot data/'s Storage keeps
// for it — the accesses of unfinished point tasks (dependence analysis) and, with several
// ranks, which rank holds which part. Only the utility thread touches it while operations
// are in flight; the program thread only when nothing is queued or running.
#pragma once

#include <memory>
#include <vector>

#include "comm/residency.h"
#include "data/rect.h"
#include "data/storage.h"
#include "runtime/point_task.h"

namespace tessera::detail {

/// One recorded access of a point task to a rect of a storage (for dependence analysis).
struct Access {
  Rect rect;
  std::shared_ptr<PointTask> task;
  bool write;
  const Launch* launch;  // the task's launch (points of an Operation::points_ordered one skip each other)
};

struct StorageState final : StorageExtension {
  /// Accesses of unfinished tasks, recorded by the dependence analyser: writes, and reads
  /// apart (a read waits only on writes, so it never scans the reads, which pile up when the
  /// program reads an array it does not write many times ahead of the workers).
  std::vector<Access> writes, reads;
  size_t reads_kept = 0;  // reads.size() after their last pruning
  /// Which ranks hold which parts (several ranks only).
  Residency residency;
  /// The store's key partition: the tiles of the last launch whose key it was, whole. Later
  /// launches keyed by it reuse them while they are valid, so data stays where it is.
  std::vector<Rect> key_tiles;
};

/// The runtime's state of `storage`, made on first use (the runtime is the only one that
/// fills the slot, so the cast is safe).
inline StorageState& state_of(Storage& storage) {
  if (!storage.runtime_state) storage.runtime_state = std::make_unique<StorageState>();
  return static_cast<StorageState&>(*storage.runtime_state);
}

}  // namespace tessera::detail
