// Parquet files into tables (Apache Arrow's libparquet), in parallel by row groups.
#pragma once

#include <string>
#include <vector>

#include "dataframe/table.h"

namespace tessera::frame {

/// Reads `columns` (every column when empty, in the file's order) of the Parquet file at
/// `path`. The columns are new tessera arrays; one task point per row group reads that row
/// group's rows into them, so row groups are read on every worker and, under mpirun, each
/// rank reads the row groups whose rows it holds.
/// FileNotFoundError when the file does not exist; ValueError for a column the file lacks;
/// NotImplementedError for a column of a type not held yet (strings, nested types).
Table read_parquet(const std::string& path, const std::vector<std::string>& columns = {});

}  // namespace tessera::frame
