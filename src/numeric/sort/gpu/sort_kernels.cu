// The sort family's GPU table (a build with CUDA). No GPU kernel is written yet, so there
// is no table: sort_kernels(ProcessorKind::GPU) refuses, and the runtime, which starts no
// GPU workers, never asks for it.
#include "numeric/sort/kernels.h"

namespace tessera::detail {

const SortKernels* gpu_sort_kernels() { return nullptr; }

}  // namespace tessera::detail
