// Processors: the kind of processor the calling thread is, which picks the variant a task
// runs there (tessera/processor.h names the kinds).
#pragma once

#include "tessera/processor.h"

namespace tessera::detail {

/// The kind of processor the calling thread is. cpu for every thread of this build (the
/// cpu workers, and the program and utility threads when they run a task inline); a worker
/// of another kind says so with a ProcessorScope for as long as it runs.
ProcessorKind current_processor_kind();

/// Makes the calling thread a processor of `kind` until the scope ends.
class ProcessorScope {
 public:
  explicit ProcessorScope(ProcessorKind kind);
  ~ProcessorScope();
  ProcessorScope(const ProcessorScope&) = delete;
  ProcessorScope& operator=(const ProcessorScope&) = delete;

 private:
  ProcessorKind saved_;
};

}  // namespace tessera::detail
