// Memory kinds and what the runtime does with each: allocate it, free it, copy between two
// of them. System memory (SYSMEM, and NUMAMEM, a NUMA node's part of it) comes from the
// host's allocator (machine/cpu/memory.cc); GPU framebuffer memory (FBMEM) and zero-copy
// memory (ZCMEM: pinned host memory that GPUs read over the bus) from the CUDA runtime
// (machine/gpu/memory.cu), compiled only in a build with CUDA.
#pragma once

#include <cstdint>

namespace tessera::detail {

enum class MemoryKind { Sysmem, Numamem, Fbmem, Zcmem };
/// How many memory kinds there are (the size of a table indexed by kind).
inline constexpr int kMemoryKinds = 4;
/// "SYSMEM", "NUMAMEM", "FBMEM" or "ZCMEM".
const char* memory_kind_name(MemoryKind k);

/// Whether the host's threads read and write memory of `kind` directly (every kind but FBMEM).
bool host_accessible(MemoryKind kind);
/// Whether this build can allocate memory of `kind` (FBMEM and ZCMEM need CUDA).
bool buildable(MemoryKind kind);

/// `bytes` of memory of `kind`, 64-byte aligned (large blocks huge-page aligned), or null
/// when the system has none left. NotImplementedError for a kind this build cannot allocate.
void* allocate_memory(MemoryKind kind, int64_t bytes);
/// Frees a block that allocate_memory(kind, ...) returned.
void free_memory(MemoryKind kind, void* block);
/// Copies `bytes` from `src`, memory of `src_kind`, to `dst`, memory of `dst_kind`: a
/// memcpy between kinds the host reaches, a CUDA copy when either is FBMEM.
void copy_memory(void* dst, MemoryKind dst_kind, const void* src, MemoryKind src_kind, int64_t bytes);

/// The host's side (machine/cpu/memory.cc).
namespace host_memory {
void* allocate(int64_t bytes);
void release(void* block);
void copy(void* dst, const void* src, int64_t bytes);
}  // namespace host_memory

/// The CUDA runtime's side (machine/gpu/memory.cu; a build with CUDA only): FBMEM from
/// cudaMalloc, ZCMEM from cudaHostAlloc, copies by cudaMemcpy.
namespace cuda_memory {
void* allocate(MemoryKind kind, int64_t bytes);
void release(MemoryKind kind, void* block);
void copy(void* dst, MemoryKind dst_kind, const void* src, MemoryKind src_kind, int64_t bytes);
}  // namespace cuda_memory

}  // namespace tessera::detail
