#include "numeric/sort/kernels.h"

#include <string>

#include "build_config.h"
#include "tessera/errors.h"

namespace tessera::detail {

const SortKernels& sort_kernels(ProcessorKind kind) {
  const SortKernels* table = nullptr;
  if (kind == ProcessorKind::CPU) table = cpu_sort_kernels();
  if constexpr (kCudaBuild) {
    if (kind == ProcessorKind::GPU) table = gpu_sort_kernels();
  }
  if (!table)
    throw NotImplementedError(std::string("sort has no kernels for ") + processor_kind_name(kind) + " processors");
  return *table;
}

}  // namespace tessera::detail
