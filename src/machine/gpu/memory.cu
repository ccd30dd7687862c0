// GPU memory through the CUDA runtime: framebuffer blocks (FBMEM) from cudaMalloc, zero-copy
// blocks (ZCMEM, pinned host memory mapped for the GPUs) from cudaHostAlloc, and copies
// between any two kinds by cudaMemcpy. Compiled only in a build with CUDA.
#include <cuda_runtime.h>

#include <string>

#include "machine/memory_kind.h"
#include "tessera/errors.h"

namespace tessera::detail::cuda_memory {
namespace {

[[noreturn]] void fail(const char* what, cudaError_t status) {
  throw Error(std::string("tessera: ") + what + " failed: " + cudaGetErrorString(status));
}

cudaMemcpyKind direction(MemoryKind dst, MemoryKind src) {
  const bool to_device = dst == MemoryKind::Fbmem, from_device = src == MemoryKind::Fbmem;
  if (to_device && from_device) return cudaMemcpyDeviceToDevice;
  if (to_device) return cudaMemcpyHostToDevice;
  if (from_device) return cudaMemcpyDeviceToHost;
  return cudaMemcpyHostToHost;
}

}  // namespace

void* allocate(MemoryKind kind, int64_t bytes) {
  void* block = nullptr;
  const cudaError_t status = kind == MemoryKind::Fbmem
                                 ? cudaMalloc(&block, static_cast<size_t>(bytes))
                                 : cudaHostAlloc(&block, static_cast<size_t>(bytes), cudaHostAllocMapped);
  if (status == cudaErrorMemoryAllocation) return nullptr;  // the pool reports it
  if (status != cudaSuccess) fail(kind == MemoryKind::Fbmem ? "cudaMalloc" : "cudaHostAlloc", status);
  return block;
}

void release(MemoryKind kind, void* block) {
  if (kind == MemoryKind::Fbmem) cudaFree(block);
  else cudaFreeHost(block);
}

void copy(void* dst, MemoryKind dst_kind, const void* src, MemoryKind src_kind, int64_t bytes) {
  const cudaError_t status = cudaMemcpy(dst, src, static_cast<size_t>(bytes), direction(dst_kind, src_kind));
  if (status != cudaSuccess) fail("cudaMemcpy", status);
}

}  // namespace tessera::detail::cuda_memory
