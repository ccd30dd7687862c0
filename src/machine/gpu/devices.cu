// The GPUs of this rank, as the CUDA runtime reports them. Compiled only in a build with
// CUDA; a machine without a GPU (or without a driver) has none.
#include <cuda_runtime.h>

#include "machine/machine_info.h"

namespace tessera::detail {

std::vector<GpuInfo> cuda_devices() {
  int count = 0;
  if (cudaGetDeviceCount(&count) != cudaSuccess) {
    cudaGetLastError();  // no driver or no device: clear the error, report none
    return {};
  }
  std::vector<GpuInfo> gpus;
  for (int d = 0; d < count; ++d) {
    cudaDeviceProp prop{};
    if (cudaGetDeviceProperties(&prop, d) != cudaSuccess) continue;
    gpus.push_back(GpuInfo{d, prop.name, static_cast<int64_t>(prop.totalGlobalMem)});
  }
  return gpus;
}

}  // namespace tessera::detail
