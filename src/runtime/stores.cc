#include "runtime/stores.h"

#include <utility>

#include "runtime/runtime.h"
#include "tessera/errors.h"

namespace tessera::detail {

StorePtr new_store(DType dtype, const Shape& shape, std::string creation) {
  return Store::create(dtype, shape, Runtime::get().sysmem_ptr(), std::move(creation));
}

void offload_to(const Store& store, MemoryKind kind) {
  Runtime& rt = Runtime::get();
  std::shared_ptr<MemoryPool> target = rt.pool(kind);
  if (!target) {
    std::string why;
    switch (kind) {
      case MemoryKind::Fbmem: why = "GPU framebuffer memory; this build of tessera has no GPU support"; break;
      case MemoryKind::Zcmem:
        why = "zero-copy memory for GPU transfers; this build of tessera has no GPU support";
        break;
      case MemoryKind::Numamem: why = "per-NUMA-node pools; tessera reserves none, every array lives in SYSMEM"; break;
      case MemoryKind::Sysmem: break;
    }
    std::string present;
    for (const auto& pool : rt.pools())
      present += (present.empty() ? "" : ", ") + std::string(memory_kind_name(pool->kind()));
    throw ValueError(std::string("offload_to: memory kind ") + memory_kind_name(kind) +
                     " is not present on this machine (" + why + "); the memories here are: " + present);
  }
  if (store.storage()->pool() == target) return;  // its only copy is there already
  rt.fence();                                     // no task may use the storage while it moves
  store.storage()->move_to(std::move(target));
}

}  // namespace tessera::detail
