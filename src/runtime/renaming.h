// Storage renaming, a service of the runtime to every library's window passes: instead of
// computing `a[box] = f(views of a)` through a temporary and copying it back, a pass lets the
// computation write fresh storage and has the two storages exchange memory, copying only the
// frame (the part of `a` outside the box). Every handle and view of `a` sees the new values.
#pragma once

#include <optional>

#include "data/rect.h"
#include "data/store.h"
#include "runtime/operation.h"

namespace tessera::detail {

/// The box of its storage that `view` is, when it is one and holds most of the storage (a
/// stencil's interior, not a boundary row): worth copying only the frame around it.
std::optional<Rect> most_of_storage(const Store& view);
/// An operation that gives `target` the memory of `fresh`, whose `box` something wrote, with
/// target's frame (the part outside `box`) copied across; `fresh` takes target's old memory.
OperationPtr rename_op(StorePtr target, StorePtr fresh, Rect box);
/// A copy of `source` (a whole storage) into `copy` whose source is then overwritten at `box`
/// (`pn = p.copy()` then `p[1:-1, 1:-1] = f(pn[...])`): the copy takes the source's memory as
/// it is, and the source takes the copy's fresh memory with only its frame copied across.
OperationPtr exchange_op(StorePtr source, StorePtr copy, Rect box);

}  // namespace tessera::detail
