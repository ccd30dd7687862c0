// The dataframe library's C++ side for tessera.pandas (python/tessera/pandas): Parquet
// reading into columns of tessera arrays.
#include <algorithm>

#include <nanobind/stl/pair.h>
#include <nanobind/stl/string.h>
#include <nanobind/stl/vector.h>

#include "dataframe/csv.h"
#include "dataframe/groupby.h"
#include "dataframe/join.h"
#include "dataframe/parquet.h"
#include "dataframe/table.h"
#include "python/bindings.h"

namespace tessera::python {

void bind_dataframe(nb::module_& m) {
  // (rows, [(name, values, validity or None, arrow type)], [(key, value)] of the file's metadata)
  m.def(
      "_read_parquet",
      [](const std::string& path, const std::vector<std::string>& columns) {
        frame::Table t;
        {
          nb::gil_scoped_release release;  // the metadata read touches the file system
          t = frame::read_parquet(path, columns);
        }
        nb::list cols;
        for (frame::Column& c : t.columns)
          cols.append(nb::make_tuple(c.name, nb::cast(c.values), c.validity.valid() ? nb::cast(c.validity) : nb::none(),
                                     c.arrow_type));
        nb::list meta;
        for (auto& [k, v] : t.metadata)
          meta.append(nb::make_tuple(nb::bytes(k.data(), k.size()), nb::bytes(v.data(), v.size())));
        return nb::make_tuple(t.rows, cols, meta);
      },
      nb::arg("path"), nb::arg("columns"));
  // ([keys], size, [sum], [count], [min], [max], [squares]): one entry per key and value
  // column (count, min, max, squares empty when not asked for), groups in order of first appearance
  m.def(
      "_group_aggregate",
      [](const std::vector<ndarray>& keys, const std::vector<ndarray>& values, bool dropna,
         const std::vector<bool>& negative_is_null, bool squares,
         const std::vector<std::pair<int64_t, int64_t>>& ranges, bool counts, bool extremes) {
        frame::GroupAggregates g;
        {
          nb::gil_scoped_release release;
          g = frame::group_aggregate(keys, values,
                                     {.dropna = dropna,
                                      .negative_is_null = negative_is_null,
                                      .counts = counts,
                                      .extremes = extremes,
                                      .squares = squares,
                                      .ranges = ranges});
        }
        return nb::make_tuple(g.keys, g.size, g.sum, g.count, g.min, g.max, g.squares);
      },
      nb::arg("keys"), nb::arg("values"), nb::arg("dropna") = true, nb::arg("negative_is_null") = std::vector<bool>(),
      nb::arg("squares") = false, nb::arg("ranges") = std::vector<std::pair<int64_t, int64_t>>(),
      nb::arg("counts") = true, nb::arg("extremes") = true);
  // (group per row, position per row, [keys], size): groups in group_aggregate's order
  m.def(
      "_group_rows",
      [](const std::vector<ndarray>& keys, bool dropna, const std::vector<bool>& negative_is_null,
         const std::vector<std::pair<int64_t, int64_t>>& ranges) {
        frame::GroupRows g;
        {
          nb::gil_scoped_release release;
          g = frame::group_rows(keys, {.dropna = dropna, .negative_is_null = negative_is_null, .ranges = ranges});
        }
        return nb::make_tuple(g.group, g.position, g.keys, g.size);
      },
      nb::arg("keys"), nb::arg("dropna") = true, nb::arg("negative_is_null") = std::vector<bool>(),
      nb::arg("ranges") = std::vector<std::pair<int64_t, int64_t>>());
  // per row, bool: whether it is the first of its group (group_rows' order, rows left out false)
  m.def(
      "_group_first_rows",
      [](const std::vector<ndarray>& keys, bool dropna, const std::vector<bool>& negative_is_null,
         const std::vector<std::pair<int64_t, int64_t>>& ranges) {
        nb::gil_scoped_release release;
        return frame::first_rows(keys, {.dropna = dropna, .negative_is_null = negative_is_null, .ranges = ranges});
      },
      nb::arg("keys"), nb::arg("dropna") = true, nb::arg("negative_is_null") = std::vector<bool>(),
      nb::arg("ranges") = std::vector<std::pair<int64_t, int64_t>>());
  // (left, right): int64 row positions of pandas.merge(..., sort=False)'s rows, -1 for none
  m.def(
      "_join_indices",
      [](const std::vector<ndarray>& left_keys, const std::vector<ndarray>& right_keys, const std::string& how) {
        frame::JoinIndices j;
        {
          nb::gil_scoped_release release;
          j = frame::join_indices(left_keys, right_keys, how);
        }
        return nb::make_tuple(j.left, j.right);
      },
      nb::arg("left_keys"), nb::arg("right_keys"), nb::arg("how"));
  // len(pandas.merge(..., sort=False)) without making its rows
  m.def(
      "_join_size",
      [](const std::vector<ndarray>& left_keys, const std::vector<ndarray>& right_keys, const std::string& how) {
        nb::gil_scoped_release release;
        return frame::join_size(left_keys, right_keys, how);
      },
      nb::arg("left_keys"), nb::arg("right_keys"), nb::arg("how"));
  // (rows or -1, [(name, values or None, arrow type)]): columns without values are the caller's
  m.def(
      "_read_csv",
      [](const std::string& path, const std::string& delimiter, bool header, const std::vector<std::string>& names,
         int64_t skiprows, int64_t nrows, const std::vector<std::string>& usecols,
         const std::vector<std::string>& na_values, const std::vector<std::pair<std::string, std::string>>& dtypes,
         const std::vector<std::string>& host, bool gzip) {
        frame::CsvOptions o;
        if (delimiter.size() != 1) throw NotImplementedError("read_csv: a delimiter of one character is read natively");
        o.delimiter = delimiter[0];
        o.header = header;
        o.names = names;
        o.skiprows = skiprows;
        o.nrows = nrows;
        o.usecols = usecols;
        o.na_values = na_values;
        for (const auto& [name, dtype] : dtypes) o.dtypes[name] = dtype_from_name(dtype);
        o.host = host;
        o.gzip = gzip;
        // Ranges of 512 minimum chunks: 32 MiB, and 64 KiB in test mode (several ranges in
        // small files).
        frame::register_dataframe_library();
        o.range_bytes = std::max<int64_t>(64 << 10, 512 * frame::min_chunk());
        frame::Table t;
        {
          nb::gil_scoped_release release;
          t = frame::read_csv(path, o);
        }
        nb::list cols;
        for (frame::Column& c : t.columns)
          cols.append(nb::make_tuple(c.name, c.values.valid() ? nb::cast(c.values) : nb::none(), c.arrow_type));
        return nb::make_tuple(t.rows, cols);
      },
      nb::arg("path"), nb::arg("delimiter"), nb::arg("header"), nb::arg("names"), nb::arg("skiprows"), nb::arg("nrows"),
      nb::arg("usecols"), nb::arg("na_values"), nb::arg("dtypes"), nb::arg("host"), nb::arg("gzip"));
}

}  // namespace tessera::python
