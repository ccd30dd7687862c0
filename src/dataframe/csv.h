// CSV files into tables (Apache Arrow's CSV reader), in parallel by byte ranges.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "dataframe/table.h"

namespace tessera::frame {

/// What read_csv reads, as pandas.read_csv's arguments of the same names say.
struct CsvOptions {
  char delimiter = ',';
  /// The first line (after `skiprows`) holds the column names; with `names` given too, they
  /// replace it. Without a header and without names the columns are "0", "1", ...
  bool header = true;
  std::vector<std::string> names;
  int64_t skiprows = 0;                // lines skipped before the header
  int64_t nrows = -1;                  // rows read at most (-1: every row)
  std::vector<std::string> usecols;    // the columns read (every column when empty), by name
  std::vector<std::string> na_values;  // strings read as missing, besides pandas' defaults
  /// Columns of a given numeric dtype (int, uint, float, bool); the name "" gives every column's.
  std::map<std::string, DType> dtypes;
  /// Columns left to the caller (strings it reads itself): returned without values.
  std::vector<std::string> host;
  bool gzip = false;  // a gzip file: not split, one point reads it
  /// The length of a byte range, one task point each (a property of the file, never of the
  /// machine); 0: 32 MiB.
  int64_t range_bytes = 0;
};

/// Reads the CSV file at `path`. Each int64, float64 and bool column (pandas' dtypes: an
/// integer column with missing values is float64 with NaN) is a new tessera array. The file
/// is cut into byte ranges at line ends; one task point per range parses its rows, so ranges
/// are read on every worker and, under mpirun, on every rank. A column of another type
/// (strings, dates, booleans with missing values) and the `host` columns come back with no
/// `values`, for the caller to read. `rows` is -1 when no column has values.
/// FileNotFoundError for a missing file; ValueError for a usecols name the file lacks (pandas'
/// message); NotImplementedError for a file Arrow's parser refuses (rows of other lengths, say)
/// or a `dtypes` column whose values do not fit its dtype — what pandas answers differently.
Table read_csv(const std::string& path, const CsvOptions& options = {});

}  // namespace tessera::frame
