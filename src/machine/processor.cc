#include "machine/processor.h"

namespace tessera {

const char* processor_kind_name(ProcessorKind kind) {
  switch (kind) {
    case ProcessorKind::CPU: return "cpu";
    case ProcessorKind::OMP: return "omp";
    case ProcessorKind::GPU: return "gpu";
  }
  return "unknown";
}

}  // namespace tessera

namespace tessera::detail {
namespace {
thread_local ProcessorKind t_kind = ProcessorKind::CPU;
}  // namespace

ProcessorKind current_processor_kind() { return t_kind; }

ProcessorScope::ProcessorScope(ProcessorKind kind) : saved_(t_kind) { t_kind = kind; }

ProcessorScope::~ProcessorScope() { t_kind = saved_; }

}  // namespace tessera::detail
