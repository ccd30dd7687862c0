// The dataframe library's data model: a table is columns aligned by rows; a column is tessera
// arrays in Apache Arrow's layout, tiled by rows like every tessera array (so each rank holds
// its own rows, and a numeric column is the very array tessera.numpy computes on).
//
// Values are stored as pandas shows them (int64 with nulls becomes float64 with NaN, as
// pandas' NumPy-backed dtypes do); where a column has nulls, `validity` holds one byte per
// row (true: a value) — Arrow's bitmap would tie tiles to multiples of 8 rows.
#pragma once

#include <string>
#include <utility>
#include <vector>

#include "tessera/ndarray.h"

namespace tessera::frame {

struct Column {
  std::string name;
  ndarray values;          // 1-D, one element per row
  ndarray validity;        // 1-D bool, or not valid() when the column has no nulls
  std::string arrow_type;  // the type the file stores (Arrow's name: "int64", "timestamp[us]")
};

struct Table {
  std::vector<Column> columns;
  int64_t rows = 0;
  /// The file's key-value metadata (pandas keeps its index and dtypes under "pandas").
  std::vector<std::pair<std::string, std::string>> metadata;
};

/// The dataframe library registers with the runtime (tessera/library.h) before its first task.
void register_dataframe_library();
/// The runtime's minimum chunk (RuntimeInfo::min_chunk), in elements.
int64_t min_chunk();

}  // namespace tessera::frame
