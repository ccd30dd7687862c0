// Host memory: aligned blocks from the system allocator and copies by memcpy.
#include <sys/mman.h>

#include <cstdlib>
#include <cstring>

#include "machine/memory_kind.h"

namespace tessera::detail::host_memory {
namespace {
constexpr int64_t kAlign = 64;
constexpr int64_t kHugePage = int64_t{2} << 20;
}  // namespace

// Large blocks are aligned to huge pages and ask the kernel for them: a stream over a big
// array then takes a fraction of the TLB misses and page faults (NumPy does the same).
void* allocate(int64_t bytes) {
  // aligned_alloc takes a size that is a multiple of the alignment (C11): round up.
  if (bytes < kHugePage) return std::aligned_alloc(kAlign, static_cast<size_t>((bytes + kAlign - 1) / kAlign * kAlign));
  const int64_t rounded = (bytes + kHugePage - 1) / kHugePage * kHugePage;
  void* p = std::aligned_alloc(kHugePage, static_cast<size_t>(rounded));
#ifdef MADV_HUGEPAGE
  if (p) madvise(p, static_cast<size_t>(rounded), MADV_HUGEPAGE);
#endif
  return p;
}

void release(void* block) { std::free(block); }

void copy(void* dst, const void* src, int64_t bytes) { std::memcpy(dst, src, static_cast<size_t>(bytes)); }

}  // namespace tessera::detail::host_memory
