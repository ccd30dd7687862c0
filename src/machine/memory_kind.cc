#include "machine/memory_kind.h"

#include <string>

#include "build_config.h"
#include "tessera/errors.h"

namespace tessera::detail {
namespace {

bool on_gpu_side(MemoryKind kind) { return kind == MemoryKind::Fbmem || kind == MemoryKind::Zcmem; }

[[noreturn]] void no_cuda(MemoryKind kind) {
  throw NotImplementedError(std::string(memory_kind_name(kind)) +
                            " memory needs a build of tessera with CUDA (cmake -DTESSERA_GPU=ON); this build has none");
}

}  // namespace

const char* memory_kind_name(MemoryKind k) {
  switch (k) {
    case MemoryKind::Sysmem: return "SYSMEM";
    case MemoryKind::Numamem: return "NUMAMEM";
    case MemoryKind::Fbmem: return "FBMEM";
    case MemoryKind::Zcmem: return "ZCMEM";
  }
  return "?";
}

bool host_accessible(MemoryKind kind) { return kind != MemoryKind::Fbmem; }

bool buildable(MemoryKind kind) { return kCudaBuild || !on_gpu_side(kind); }

void* allocate_memory(MemoryKind kind, int64_t bytes) {
  if (!on_gpu_side(kind)) return host_memory::allocate(bytes);
  if constexpr (kCudaBuild) return cuda_memory::allocate(kind, bytes);
  no_cuda(kind);
}

void free_memory(MemoryKind kind, void* block) {
  if (!on_gpu_side(kind)) return host_memory::release(block);
  if constexpr (kCudaBuild) return cuda_memory::release(kind, block);
  no_cuda(kind);
}

void copy_memory(void* dst, MemoryKind dst_kind, const void* src, MemoryKind src_kind, int64_t bytes) {
  if (bytes <= 0) return;
  if (host_accessible(dst_kind) && host_accessible(src_kind)) return host_memory::copy(dst, src, bytes);
  if constexpr (kCudaBuild) return cuda_memory::copy(dst, dst_kind, src, src_kind, bytes);
  no_cuda(host_accessible(dst_kind) ? src_kind : dst_kind);
}

}  // namespace tessera::detail
