// Hash joins of numeric key columns: the row positions of each side that pandas.merge(left,
// right, on=..., how=..., sort=False) pairs, in pandas' order. What the joined table takes from
// each side is then a gather (take) of its columns by these positions.
#pragma once

#include <string>
#include <vector>

#include "tessera/ndarray.h"

namespace tessera::frame {

/// Row positions (int64) of the joined rows: row i of the result is left row left[i] and
/// right row right[i]; -1 where that side has no row (left, right and outer joins).
struct JoinIndices {
  ndarray left, right;
};

/// The rows of pandas.merge(left, right, on=keys, how=how, sort=False), in its order:
/// - inner, left: left rows in order, each with its matching right rows in right order (left:
///   a left row without a match once, with -1);
/// - right: the same with the sides' roles swapped;
/// - outer: by key, ascending (lexicographic over the key columns, NaN last in each); within a
///   key the left rows in order, each with the key's right rows in order; a key of one side
///   only gives its rows with -1 for the other.
/// Keys are equal when every column is: NaN equals NaN (as pandas matches them), -0.0 equals
/// 0.0, and an int64 column paired with a float64 one is compared as float64.
/// ValueError for a `how` other than those four, no key columns, a different number of key
/// columns on the two sides, a column that is not 1-D, or columns of one side of different
/// lengths; TypeError for a key column that is not int64 or float64.
JoinIndices join_indices(const std::vector<ndarray>& left_keys, const std::vector<ndarray>& right_keys,
                         const std::string& how);

/// The number of rows join_indices(left_keys, right_keys, how) gives, without making them.
int64_t join_size(const std::vector<ndarray>& left_keys, const std::vector<ndarray>& right_keys,
                  const std::string& how);

}  // namespace tessera::frame
