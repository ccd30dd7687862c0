// A boolean-mask read `x[mask]` (mask of x's shape) that has not been compacted yet. Its
// size depends on the mask's values, so compacting it waits for them; most programs only
// compute with the selected values and write them back (`x[m] = x[m] * 2`, `z[m] += 1`),
// which needs no compaction at all: arithmetic on a selection is arithmetic on the whole
// `values` (the same mask), and assigning it through its own mask is an element-wise
// `where`. Anything else — its shape, its values, any other operation — compacts it once
// (ndarray::store()). An operation about to write what a selection reads compacts it first,
// so it keeps the values it had when the program made it.
#pragma once

#include <memory>
#include <optional>

#include "tessera/ndarray.h"

namespace tessera::detail {

class Storage;

struct Selection final : PendingArray {
  using Compact = std::shared_ptr<Store> (*)(const ndarray& values, const ndarray& mask);

  ndarray values;  // the mask's shape: x, or an element-wise result of selections of x
  ndarray mask;    // bool
  Compact compact = nullptr;
  bool direct = false;  // `values` is the program's array x itself (x[mask])

  /// The compacted array (values where mask is true, in C order), made on first use.
  const std::shared_ptr<Store>& compacted();
  const std::shared_ptr<Store>& materialize() override { return compacted(); }
  /// The values' dtype; none once another handle compacted it (it holds no values then).
  std::optional<DType> known_dtype() const override {
    return values.valid() ? std::optional<DType>(values.dtype()) : std::nullopt;
  }
  /// Compacted, or being compacted.
  bool is_compacted() const { return done_ != nullptr || !values.valid(); }

 private:
  std::shared_ptr<Store> done_;
};

/// A selection whose values and mask are not to be written before it is compacted: a write
/// to either (settle_readers_of) compacts it first.
ndarray select(std::shared_ptr<Selection> selection);
/// The selection `a` stands for, not compacted yet, or null.
std::shared_ptr<Selection> pending_selection(const ndarray& a);
/// Compacts every live selection that reads `storage` (an operation is about to write it), and
/// every `x[mask]` whose x the program has dropped (so that x's memory can go, as in NumPy).
/// The NumPy library's write hook (tessera/library.h: Library::before_write).
void settle_readers_of(const Storage& storage);

}  // namespace tessera::detail
