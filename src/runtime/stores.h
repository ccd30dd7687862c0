// Stores and the runtime's memory: a new store's storage comes from this rank's SYSMEM
// pool (the runtime starts on first use), and a store moves to another memory kind only
// once no task can be using it.
#pragma once

#include <string>

#include "data/store.h"

namespace tessera::detail {

/// A new store with its own (not yet allocated) storage in the runtime's SYSMEM pool;
/// `creation` is where the program made it, for reports.
StorePtr new_store(DType dtype, const Shape& shape, std::string creation = {});

/// Moves the array's only copy to memory `kind` (SYSMEM: it is there already); ValueError
/// when this machine has no such memory. Fences first.
void offload_to(const Store& store, MemoryKind kind);

}  // namespace tessera::detail
