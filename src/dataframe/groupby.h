// Group-by aggregation of numeric columns by one numeric key column: every tile aggregates its
// own rows by hashing (one task point per tile, on every worker and rank), and the tiles'
// partial results — a few rows per distinct key — are combined in point order, in key order.
#pragma once

#include <vector>

#include "tessera/ndarray.h"

namespace tessera::frame {

/// Per group (in ascending key order; rows whose key is NaN are left out, as pandas'
/// dropna=True does), per value column: the sum, the count of values that are not NaN, the
/// minimum and the maximum over those (NaN when there is none). Sums, minima and maxima are
/// int64 for integer and boolean values, float64 for floating ones; counts are int64.
struct GroupAggregates {
  ndarray keys;  // the key column's dtype (int64 for integers, float64 for floats)
  ndarray size;  // rows per group (int64)
  std::vector<ndarray> sum, count, min, max;
};

/// ValueError when a column's length differs from the key's; TypeError for a key or value
/// column that is not integer, boolean or floating.
GroupAggregates group_aggregate(const ndarray& key, const std::vector<ndarray>& values);

}  // namespace tessera::frame
