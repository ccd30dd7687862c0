// Group-by aggregation: rows grouped by one or several key columns, numeric value columns
// aggregated per group. Every tile folds its own rows into partial groups; the partials, bucketed
// by hash, are merged per run of buckets and the groups ordered by their first row, each step a
// parallel launch (groupby.cc says how), so the groups come out in the order of their first row
// (pandas' `sort=False`) and the bits do not depend on the machine: the tiles are the data's, and
// so are the partials and the order they fold in.
#pragma once

#include <utility>
#include <vector>

#include "tessera/ndarray.h"

namespace tessera::frame {

struct GroupOptions {
  /// Rows with a null key are left out (pandas' dropna=True); else they form groups of their own.
  bool dropna = true;
  /// Per key column: a negative value is a null (categorical codes: -1 is NaN). Missing
  /// entries are false; a floating key's nulls are its NaNs.
  std::vector<bool> negative_is_null;
  /// Also compute each value column's count per group, minimum and maximum, and sum of squared
  /// deviations from its mean (for std and var; implies counts). Sums are always computed.
  bool counts = true, extremes = true, squares = false;
  /// Per key column, when all are integers: the smallest and largest value it holds (nulls
  /// aside). Where the tuples of those ranges fit in 64 bits, a tuple is hashed as one word;
  /// where they are few, groups are found by indexing a dense table instead of hashing. Empty:
  /// a word per key. A key outside its range is a ValueError.
  std::vector<std::pair<int64_t, int64_t>> ranges;
};

/// Per group, in the order of the group's first row; per value column, over the values that
/// are not NaN: their sum (compensated for floats) and, as GroupOptions asks, their count,
/// minimum and maximum (NaN, or 0 for integers, when there is none) and the sum of squared
/// deviations from their mean (vectors left empty when not asked). Sums, minima and maxima are float64 for floating
/// values, int64 for signed and boolean ones, uint64 for unsigned ones; counts and sizes are int64.
struct GroupAggregates {
  std::vector<ndarray> keys;  // each in its key column's dtype
  ndarray size;               // rows per group
  std::vector<ndarray> sum, count, min, max, squares;
};

/// Each row's group, for what works row by row (head, tail, nth, cumcount, transform, median):
/// the groups are group_aggregate's, in the same order.
struct GroupRows {
  ndarray group;     // per row, int64: its group's position in `keys` (-1: a null key left out)
  ndarray position;  // per row, int64: how many rows of its group come before it (-1: left out)
  std::vector<ndarray> keys;
  ndarray size;
};

/// ValueError when no key is given or a column's length differs from the first key's;
/// TypeError for a key or value column that is not integer, boolean or floating.
GroupRows group_rows(const std::vector<ndarray>& keys, const GroupOptions& options = {});

/// Per row, bool: whether it is the first row of its group (false where a null key is left
/// out) — pandas' `~duplicated(keep="first")` with dropna=false. Errors as group_rows'.
ndarray first_rows(const std::vector<ndarray>& keys, const GroupOptions& options = {});

/// ValueError when no key is given or a column's length differs from the first key's;
/// TypeError for a key or value column that is not integer, boolean or floating.
GroupAggregates group_aggregate(const std::vector<ndarray>& keys, const std::vector<ndarray>& values,
                                const GroupOptions& options = {});

}  // namespace tessera::frame
